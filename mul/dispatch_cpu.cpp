// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::mul on the CPU: the algorithm asked for, or the one the tuned
// crossovers choose, run with its tuned parameters (mul/dispatch_cpu.hpp).
#include "mul/dispatch_cpu.hpp"

#include "bigmul/error.hpp"
#include "mul/basecase.hpp"
#include "mul/dispatch_choice.hpp"
#include "mul/fft_mul.hpp"
#include "mul/karatsuba.hpp"
#include "mul/modcheck.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/params_cpu.hpp"
#include "mul/tiled.hpp"
#include "mul/toom3.hpp"

namespace bigmul::detail {
namespace {

// Chosen automatically, pieces split three ways down to the tuned size (a
// square's own); asked for by name, Toom-3 throughout.
void run_toom3(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
               bool by_name, bool binary_square) {
  if (rx != radix::binary)
    throw error(error::kind::domain, "bigmul::mul: algorithm toom3 multiplies binary limbs only (decimal radix: "
                                     "karatsuba, ntt or an FFT algorithm)");
  const auto& x = params_cpu::binary_radix;
  const std::size_t below = by_name ? toom3_min_limbs : binary_square ? params_cpu::sqr_toom3 : x.toom3;
  mul_toom3(r, a, an, b, bn, below, x.karatsuba_basecase);
}

}  // namespace

void mul_on_cpu(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                const mul_options& options, mul_stats& st) {
  const bool automatic = options.algo == algorithm::automatic;
  const bool binary_square = rx == radix::binary && a == b && an == bn;
  algorithm algo = automatic ? choose_algorithm(an, bn, rx) : options.algo;
  if (automatic && binary_square) algo = choose_square(algo, bn);
  st.used = algo;
  switch (algo) {
    case algorithm::basecase:
      mul_basecase(r, a, an, b, bn, rx);
      break;
    case algorithm::karatsuba:
      mul_karatsuba(r, a, an, b, bn, rx, crossovers_for(rx).karatsuba_basecase);
      break;
    case algorithm::toom3:
      run_toom3(r, a, an, b, bn, rx, !automatic, binary_square);
      break;
    case algorithm::tiled:
      mul_tiled(r, a, an, b, bn, rx, options.tile ? options.tile : params_cpu::tiled_tile, options.threads);
      break;
    case algorithm::fft_complex:
    case algorithm::fft_real:
    case algorithm::fft_complex_f32:
    case algorithm::fft_real_f32:
      mul_fft(r, a, an, b, bn, rx, algo, options, st);
      break;
    case algorithm::ntt:
      mul_ntt(r, a, an, b, bn, rx, options, st);
      break;
    case algorithm::automatic:
      break;
  }
}

bool product_agrees_mod_p(const limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                          unsigned threads) {
  const std::uint64_t ra = residue_mod_p(a, an, rx, threads);
  const std::uint64_t rb = b == a && bn == an ? ra : residue_mod_p(b, bn, rx, threads);
  return mod_p_mul(ra, rb) == residue_mod_p(r, an + bn, rx, threads);
}

}  // namespace bigmul::detail
