// SPDX-License-Identifier: LGPL-3.0-or-later
// AVX-512 IFMA modular arithmetic, 8 lanes of 52-bit residues: the IFMA NTT
// engine's vector helpers (fft/ntt_ifma_*.cpp), as fft/ntt_avx2_arith.hpp is
// the AVX2 engine's. Every vector function carries BIGMUL_IFMA (the including
// translation units are built for plain x86-64) and may only run where
// ntt52_supported() holds. Values are lazy residues in [0, 2p), p < 2^50, so
// sums below 4p fit the 52-bit multiplier lanes.
#pragma once

#include <cstddef>

#include "fft/ntt_arith.hpp"
#include "prim/ifma_target.hpp"

namespace bigmul::fft::ifma {

constexpr u64 mask52 = (u64{1} << 52) - 1;

// Smallest l with 2^l >= t (exact log2 for the powers of two it is used on).
inline unsigned ceil_log2(std::size_t t) {
  unsigned l = 0;
  while ((std::size_t{1} << l) < t) ++l;
  return l;
}

#if defined(BIGMUL_HAVE_IFMA_CODE)

struct vconst {
  __m512i two_p, p_neg52, mask, p, p_neg_inv52, four_p, one, rev;
};

inline long long ll(u64 x) { return static_cast<long long>(x); }

BIGMUL_IFMA inline vconst make_vconst(u64 p) {
  return {_mm512_set1_epi64(ll(2 * p)),          _mm512_set1_epi64(ll(((u64{1} << 52) - p) & mask52)),
          _mm512_set1_epi64(ll(mask52)),         _mm512_set1_epi64(ll(p)),
          _mm512_set1_epi64(ll(neg_inverse_mod_2_64(p) & mask52)), _mm512_set1_epi64(ll(4 * p)),
          _mm512_set1_epi64(1),
          _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7)};  // lane i takes lane 7 - i
}

// x w mod p in [0, 2p) for x < 2^52: q = hi52(x wq), r = lo52(x w) - lo52(q p) mod 2^52.
BIGMUL_IFMA inline __m512i shoup_lazy(__m512i x, __m512i w, __m512i wq, const vconst& c) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i q = _mm512_madd52hi_epu64(zero, x, wq);
  const __m512i lo = _mm512_madd52lo_epu64(zero, x, w);
  return _mm512_and_si512(_mm512_madd52lo_epu64(lo, q, c.p_neg52), c.mask);
}
// [0, 4p) -> [0, 2p): the wrapped difference is huge when s < 2p, so min picks s.
BIGMUL_IFMA inline __m512i reduce_2p(__m512i s, const vconst& c) {
  return _mm512_min_epu64(s, _mm512_sub_epi64(s, c.two_p));
}
// [0, 6p) -> [0, 2p).
BIGMUL_IFMA inline __m512i reduce_6p(__m512i s, const vconst& c) {
  s = _mm512_min_epu64(s, _mm512_sub_epi64(s, c.four_p));
  return reduce_2p(s, c);
}
// x y / 2^52 mod p in [0, 2p) for x, y < 2p (Montgomery, R = 2^52): the low
// half plus lo52(m p) is 0 or exactly 2^52, so the carry is (lo != 0).
BIGMUL_IFMA inline __m512i mont52(__m512i x, __m512i y, const vconst& c) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i lo = _mm512_madd52lo_epu64(zero, x, y);
  const __m512i hi = _mm512_madd52hi_epu64(zero, x, y);
  const __m512i m = _mm512_madd52lo_epu64(zero, lo, c.p_neg_inv52);
  const __m512i r = _mm512_madd52hi_epu64(hi, m, c.p);
  return _mm512_mask_add_epi64(r, _mm512_test_epi64_mask(lo, lo), r, c.one);
}

BIGMUL_IFMA inline void bf_dif(__m512i& x, __m512i& y, __m512i w, __m512i wq, const vconst& c) {
  const __m512i s = _mm512_add_epi64(x, y);
  const __m512i d = _mm512_add_epi64(_mm512_sub_epi64(x, y), c.two_p);
  x = reduce_2p(s, c);
  y = shoup_lazy(d, w, wq, c);
}
BIGMUL_IFMA inline void bf_dit_negated(__m512i& x, __m512i& y, __m512i w, __m512i wq, const vconst& c) {
  const __m512i t = shoup_lazy(y, w, wq, c);
  const __m512i a = _mm512_add_epi64(_mm512_sub_epi64(x, t), c.two_p);
  const __m512i b = _mm512_add_epi64(x, t);
  x = reduce_2p(a, c);
  y = reduce_2p(b, c);
}
// Twiddle 1: (x + y, x - y).
BIGMUL_IFMA inline void bf_plain(__m512i& x, __m512i& y, const vconst& c) {
  const __m512i s = _mm512_add_epi64(x, y);
  const __m512i d = _mm512_add_epi64(_mm512_sub_epi64(x, y), c.two_p);
  x = reduce_2p(s, c);
  y = reduce_2p(d, c);
}

BIGMUL_IFMA inline __m512i load(const u64* p) { return _mm512_loadu_si512(static_cast<const void*>(p)); }
BIGMUL_IFMA inline void store(u64* p, __m512i v) { _mm512_storeu_si512(static_cast<void*>(p), v); }
// Any 64-bit x to [0, 2p): x = hi 2^32 + lo, hi 2^32 as a Shoup product by
// c32 = 2^32 mod p (w, wq: it and its 52-bit companion), plus lo.
BIGMUL_IFMA inline __m512i reduce_u64(__m512i x, __m512i w, __m512i wq, const vconst& c) {
  const __m512i hi = shoup_lazy(_mm512_srli_epi64(x, 32), w, wq, c);
  return reduce_2p(_mm512_add_epi64(hi, _mm512_and_si512(x, _mm512_set1_epi64(0xffffffffll))), c);
}
BIGMUL_IFMA inline __m512i idx(const long long (&i)[8]) { return _mm512_loadu_si512(static_cast<const void*>(i)); }

#endif  // BIGMUL_HAVE_IFMA_CODE

}  // namespace bigmul::fft::ifma
