// SPDX-License-Identifier: LGPL-3.0-or-later
// Per-thread work of the CUDA coefficient kernels (mul/cuda/coefficients_device.cu):
// limb / digit loaders, the period sources that visit a period's digits, the
// visitors that store, fold and emit them, and the modular check's per-chunk
// residue. BIGMUL_HD and free of CUDA headers, so that
// tests/mul/test_mul_kernels_gpu.cu replays the kernels' thread mapping on the
// CPU with these very functors (not copies). C++17.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "bigmul/hd.hpp"
#include "mul/coefficients_period.hpp"
#include "mul/modcheck.hpp"
#include "prim/ops.hpp"

namespace bigmul::detail::cuda::coeff_hd {

// Limb j of a[0..n), zero past the end.
struct limb_loader {
  const limb_t* a;
  std::size_t n;
  BIGMUL_HD limb_t operator()(std::size_t j) const { return j < n ? a[j] : 0; }
};
BIGMUL_HD limb_loader limbs_from(const limb_t* a, std::size_t n, std::size_t first) {
  return limb_loader{a + (first < n ? first : n), n > first ? n - first : 0};
}

// Digit i of d[0..m), zero past the end.
struct digit_loader {
  const std::uint32_t* d;
  std::size_t m;
  BIGMUL_HD limb_t operator()(std::size_t i) const { return i < m ? d[i] : 0; }
};

// ---- period sources: the digits of period p, in order, through visit(t, d) ----
struct binary_src {
  unsigned k;
  std::size_t pd, pl;  // digits and limbs per period
  template <class Visit>
  BIGMUL_HD void operator()(const limb_t* a, std::size_t n, std::size_t p, Visit& visit) const {
    const limb_loader load = limbs_from(a, n, p * pl);
    for (std::size_t t = 0; t < pd; ++t) visit(t, binary_digit(load, k, t));
  }
};
template <unsigned K>
struct decimal_src {
  static constexpr std::size_t pd = 19;
  template <class Visit>
  BIGMUL_HD void operator()(const limb_t* a, std::size_t n, std::size_t p, Visit& visit) const {
    decimal_period_digits<K>(limbs_from(a, n, p * K), visit);
  }
};

// ---- visitors (functors: no extended lambdas needed) ----
// Plain digits of split_digits (decimal: one period per thread).
struct store_visit {
  std::uint32_t* out;
  std::size_t end;
  BIGMUL_HD void operator()(std::size_t t, std::uint32_t d) const {
    if (t < end) out[t] = d;
  }
};
// split_balanced's first phase: the period's (generate, propagate) pair.
struct fold_visit {
  std::uint64_t B;
  std::size_t end;
  prim::carry_gp acc;
  BIGMUL_HD void operator()(std::size_t t, std::uint32_t d) {
    if (t < end)
      acc = prim::carry_op{}(acc, prim::carry_gp{balanced_generates(d, B) ? 1u : 0u,
                                                 balanced_propagates(d, B) ? 1u : 0u});
  }
};
// split_balanced's last phase: balanced digits from the scanned carry-in.
struct emit_visit {
  std::uint64_t B;
  std::size_t end;
  std::uint32_t carry;
  std::int32_t* out;
  BIGMUL_HD void operator()(std::size_t t, std::uint32_t d) {
    if (t < end) out[t] = static_cast<std::int32_t>(balanced_step(d, carry, B));
  }
};

// ---- modular check ----
// Limbs per chunk of the residue kernels.
inline constexpr std::size_t residue_chunk_limbs = 32;

// Chunk c of a[0..n) (limbs c*32 .. c*32+31) by Horner in `base` (the limb base
// mod p), times base_chunk^c (base_chunk = base^32): the chunk's share of the
// value mod 2^61 - 1. Chunks past the end give 0.
BIGMUL_HD std::uint64_t residue_chunk(const limb_t* a, std::size_t n, std::size_t c, std::uint64_t base,
                                      std::uint64_t base_chunk) {
  const std::size_t b = c * residue_chunk_limbs;
  if (b >= n) return 0;
  const std::size_t e = b + residue_chunk_limbs < n ? b + residue_chunk_limbs : n;
  std::uint64_t h = 0;
  for (std::size_t i = e; i-- > b;) h = mod_p_reduce(static_cast<unsigned __int128>(h) * base + a[i]);
  return mod_p_mul(h, mod_p_pow(base_chunk, c));
}

// The three operands of product g in a batch (a: G x an, b: G x bn, r: G x (an+bn)
// limbs back to back): operand s = 0 (a), 1 (b), 2 (r).
struct check_operands {
  const limb_t *a, *b, *r;
  std::size_t an, bn;
  BIGMUL_HD const limb_t* data(std::size_t g, unsigned s) const {
    return s == 0 ? a + g * an : s == 1 ? b + g * bn : r + g * (an + bn);
  }
  BIGMUL_HD std::size_t size(unsigned s) const { return s == 0 ? an : s == 1 ? bn : an + bn; }
  BIGMUL_HD std::size_t chunks(unsigned s) const {
    return (size(s) + residue_chunk_limbs - 1) / residue_chunk_limbs;
  }
};

// The verdict of product g from its three residues: 1 when a*b == r mod p.
BIGMUL_HD int check_verdict(std::uint64_t ra, std::uint64_t rb, std::uint64_t rr) {
  return mod_p_mul(ra, rb) == rr ? 1 : 0;
}

}  // namespace bigmul::detail::cuda::coeff_hd
