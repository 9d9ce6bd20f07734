// SPDX-License-Identifier: LGPL-3.0-or-later
// An NTT product's operands into a plan's residues and forward transforms,
// through the plan's own loaders and fused steps where it has them
// (mul/ntt_mul.hpp; the engine adapters, mul/ntt_engine_iface.hpp).
#pragma once

#include <algorithm>
#include <cstddef>

#include "bigmul/config.hpp"
#include "fft/ntt.hpp"
#include "mul/ntt_coefficients.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {

// Elements a parallel chunk of the NTT multiply's linear passes.
inline constexpr std::size_t ntt_grain = std::size_t{1} << 13;

// Limbs -> residues in [0, 2p), zero-padded to n: x - floor(x floor(2^64/p) / 2^64) p.
void ntt_load_residues(fft::u64* dst, std::size_t n, const limb_t* src, std::size_t len, fft::u64 p,
                       unsigned threads);

// The padding stops where the plan's forward transform stops reading
// (forward_extent: the IFMA plan), else at the plan's length.
template <class Plan>
std::size_t ntt_padded_extent(const Plan& plan, std::size_t nonzero, unsigned threads) {
  if constexpr (requires { plan.forward_extent(nonzero, threads); })
    return plan.forward_extent(nonzero, threads);
  else
    return plan.length();
}
// An operand's residues into x (zero-padded to the plan's length), through
// the plan's own vector loader where it has one (the AVX2 plan).
template <class Plan>
void ntt_load_operand(const Plan& plan, fft::u64* x, const limb_t* src, std::size_t len, unsigned threads) {
  if constexpr (requires { plan.load(x, src, len, threads, len); })
    plan.load(x, src, len, threads, ntt_padded_extent(plan, len, threads));
  else if constexpr (requires { plan.load(x, src, len, threads); })
    plan.load(x, src, len, threads);
  else
    ntt_load_residues(x, ntt_padded_extent(plan, len, threads), src, len, plan.modulus(), threads);
}
// x's forward transform, zero-padded past len where the plan takes it. The
// AVX2 plan's forward_product leaves doubles that only its
// pointwise_inverse_product reads (ntt_product_inverse, the driver's finish).
template <class Plan>
void ntt_forward_operand(const Plan& plan, fft::u64* x, std::size_t len, unsigned threads) {
  if constexpr (requires { plan.forward_product(x, threads, len); })
    plan.forward_product(x, threads, len);  // x[len ..) is zero
  else if constexpr (requires { plan.forward(x, threads, len); })
    plan.forward(x, threads, len);  // x[len ..) is zero
  else
    plan.forward(x, threads);
}
// x = inverse(x y) of two ntt_forward_operand transforms: the plan's fused
// product and inverse where it has one (IFMA, AVX2: the only reader of the
// AVX2 forward_product's doubles), else pointwise, then inverse. The low
// product's and the piece's; the driver's finish times the two apart.
template <class Plan>
void ntt_product_inverse(const Plan& plan, fft::u64* x, const fft::u64* y, unsigned threads) {
  if constexpr (requires { plan.pointwise_inverse_product(x, y, threads); }) {
    plan.pointwise_inverse_product(x, y, threads);
  } else {
    plan.pointwise(x, y, threads);
    plan.inverse(x, threads);
  }
}

// An operand's first `coefficients` coefficients (whole limbs, bits == 64,
// or b-bit pieces of binary limbs) as residues, zero-padded; lanes: the
// cuts' vector width (ntt_extract_coefficients; 0: the processor's best).
template <class Plan>
void ntt_load_plan_coefficients(const Plan& plan, fft::u64* x, const limb_t* src, std::size_t len,
                                std::size_t coefficients, unsigned bits, unsigned th, unsigned lanes = 0) {
  if (bits == 64) {
    ntt_load_operand(plan, x, src, coefficients, th);
  } else if (bits > 64) {  // wide: reduced as they are cut (ntt_wide_residues)
    ntt_load_coefficients(x, std::max(coefficients, ntt_padded_extent(plan, coefficients, th)), src, len,
                          coefficients, bits, plan.modulus(), th, lanes);
  } else if constexpr (requires { plan.reduce(x, len); }) {
    // Extracted and reduced 2048 at a time, the block still in L1.
    const std::size_t end = std::max(coefficients, ntt_padded_extent(plan, coefficients, th));
    prim::parallel_chunks(end, ntt_grain, th, [&](std::size_t b, std::size_t e) {
      const std::size_t mid = std::min(std::max(b, coefficients), e);
      for (std::size_t k = b; k < mid; k += 2048) {
        const std::size_t ke = std::min(mid, k + 2048);
        ntt_extract_coefficients(x + k, src, len, k, ke, bits, lanes);
        plan.reduce(x + k, ke - k);
      }
      std::fill(x + mid, x + e, fft::u64{0});
    });
  } else {
    ntt_load_coefficients(x, std::max(coefficients, ntt_padded_extent(plan, coefficients, th)), src, len,
                          coefficients, bits, plan.modulus(), th);
  }
}

// Coefficients of an operand's limbs for a plan that fills its first step
// itself (fft::ntt_fill): b-bit pieces (ntt_extract_coefficients), wide
// ones already reduced mod `modulus` (ntt_wide_residues; the plan's own
// reduction leaves a residue as it is), or whole limbs, zero past the limbs.
struct ntt_limb_source {
  const limb_t* src;
  std::size_t len;
  unsigned bits;
  fft::u64 modulus = 0;  // the plan's prime: wide coefficients only
  unsigned lanes = 0;    // the cut's vector width (ntt_wide_residues_lanes; 0: the best)
  static void fill(void* ctx, fft::u64* dst, std::size_t b, std::size_t e) {
    const ntt_limb_source& s = *static_cast<const ntt_limb_source*>(ctx);
    if (s.bits < 64) return ntt_extract_coefficients(dst, s.src, s.len, b, e, s.bits, s.lanes);
    if (s.bits > 64) return ntt_wide_residues_lanes(dst, s.src, s.len, b, e, s.bits, s.modulus, s.lanes);
    const std::size_t copy_end = std::min(e, std::max(b, s.len));
    if (copy_end > b) std::copy(s.src + b, s.src + copy_end, dst);
    std::fill(dst + (copy_end - b), dst + (e - b), fft::u64{0});
  }
};

}  // namespace bigmul::detail
