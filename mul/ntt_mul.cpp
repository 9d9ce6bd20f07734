// SPDX-License-Identifier: LGPL-3.0-or-later
// NTT multiplication (three or four primes, three engines): see mul/ntt_mul.hpp.
// Each engine's multiply is mul/ntt_driver.hpp's phases over its adapter
// (mul/ntt_engine_iface.hpp, mul/ntt_engine_*.cpp); layout, fold cost and
// memory are mul/ntt_layout.cpp, mul/ntt_fold_cost.cpp and mul/ntt_memory.cpp.
#include "mul/ntt_mul.hpp"

#include "mul/ntt_engine_iface.hpp"

namespace bigmul::detail {

void mul_ntt(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
             const mul_options& options, mul_stats& st, ntt_engine engine, unsigned force_primes,
             unsigned force_bits, ntt_fold fold) {
  const ntt_engine_iface& e = ntt_engine_of(ntt_resolve_engine(engine));
  st.ntt_engine = e.name;
  e.mul(ntt_request{force_primes, force_bits, fold}, r, a, an, b, bn, rx, options, st);
}

}  // namespace bigmul::detail
