// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::mul's automatic algorithm choice from the tuned crossover table
// (mul/params_cpu.hpp): the product's, and a binary square's own. Inline:
// the entry point asks on every call, small products included (internal).
#pragma once

#include <algorithm>
#include <cstddef>

#include "bigmul/mul.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/params_cpu.hpp"

namespace bigmul::detail {

// The tuned row of a radix.
inline const params_cpu::crossovers& crossovers_for(radix rx) {
  return rx == radix::binary ? params_cpu::binary_radix : params_cpu::decimal_radix;
}

// The algorithm for an x bn limbs (an >= bn) by the crossovers alone.
inline algorithm choose_algorithm(std::size_t an, std::size_t bn, radix rx) {
  const auto& x = crossovers_for(rx);
  (void)an;
  if (bn < x.karatsuba) return algorithm::basecase;
  // The engine (BIGMUL_NTT_ENGINE, a getenv) only where some engine's crossover is reached.
  if (bn >= std::min({x.ntt, x.ntt_avx2, x.ntt_portable}) && bn >= params_cpu::ntt_crossover(x, ntt_default_engine()))
    return algorithm::ntt;
  if (bn < x.fft) return rx == radix::binary && x.toom3 && bn >= x.toom3 ? algorithm::toom3 : algorithm::karatsuba;
  return algorithm::fft_real;
}

// A binary square chosen automatically: below the engine's sqr_ntt,
// Karatsuba's or Toom-3's squares beat the NTT's (own crossovers).
inline algorithm choose_square(algorithm chosen, std::size_t n) {
  if ((chosen == algorithm::ntt && n < params_cpu::sqr_ntt_crossover(ntt_default_engine())) ||
      chosen == algorithm::karatsuba || chosen == algorithm::toom3)
    return params_cpu::sqr_toom3 && n >= params_cpu::sqr_toom3 ? algorithm::toom3 : algorithm::karatsuba;
  return chosen;
}

}  // namespace bigmul::detail
