// SPDX-License-Identifier: LGPL-3.0-or-later
// Exact modular arithmetic in double precision with FMA, 4 lanes (AVX2):
// the AVX2 NTT engine's arithmetic (fft/ntt_avx2*.cpp). The vector part exists
// only where BIGMUL_HAVE_AVX2_CODE (x86-64, GCC or Clang); every function carries
// BIGMUL_AVX2 (target avx2, fma) and must only run where
// ntt_avx2_supported() holds.
//
// Values are doubles holding integers, signed, for a prime p < 2^50.
// The technique is Shoup's multiplication by a constant with a precomputed
// quotient (here w / p in floating point) and the FMA error-free product of
// FLINT's fft_small [FFTSMALL] and the Harvey [HARVEY14] / van der Hoeven literature; the bounds
// below are ours.
//
// Facts used (IEEE binary64, round to nearest, no underflow for integers):
//  (F1) For integers a, b with |a b| < 2^106, h = fl(a b) is an integer and
//       l = fma(a, b, -h) = a b - h exactly (the FMA error-free product).
//  (F2) With M = 1.5 * 2^52, fl(y + M) - M = round(y), the nearest integer,
//       for any real y computed inside one FMA with |y| < 2^51 - 1: y + M
//       lies in (2^52, 2^53), where doubles are exactly the integers.
//  (F3) An integer of magnitude <= 2^53 is a double; a sum, difference or
//       FMA whose exact result is such an integer is computed exactly.
//
// mulmod_shoup(x, w, w_p): r = x w - q p with q = round(x w_p) (one FMA with
// M), w an integer with |w| <= (p - 1) / 2 and w_p = fl(w / p), so
// |w_p| <= 1/2 and |w / p - w_p| <= 2^-55 (half an ulp below 1/2).
//   Precondition |x| < 2^52 (e.g. any |x| <= 4p): |x w_p| < 2^51, so (F2)
//   gives q exactly. h = fl(x w), l = x w - h exactly (F1, |x w| < 2^101).
//   |x w / p - q| <= |x| |w / p - w_p| + 1/2 <= |x| 2^-55 + 1/2, so
//   |x w - q p| <= p (1/2 + |x| 2^-55) <= 0.625 p (|x| < 2^52), 0.5625 p
//   (|x| <= 2^51, e.g. |x| <= 2p). Then fma(-q, p, h) = h - q p =
//   (x w - q p) - l, an integer of magnitude < 0.625 p + 2^48 < 2^53,
//   exact (F3); adding l gives x w - q p exactly (F3).
//   So r == x w (mod p) exactly and |r| <= p (1/2 + |x| 2^-55).
//
// mulmod(a, b): r = a b - q p with q = round(fl(a b) * p_inv) (one FMA with
// M), p_inv = fl(1 / p).
//   Precondition |a b| <= 2 p^2: then |h p_inv| <= 2p (1 + 2^-51) < 2^51 - 1
//   and (F2) gives q exactly. h p_inv = (a b / p)(1 + e), |e| <= 2^-52 +
//   2^-105 (one rounding in h, one in p_inv), so |a b / p - q| <= 1/2 +
//   (|a b| / p) 2^-52 (1 + 2^-50), and r = a b - q p exactly as above:
//   |r| <= p / 2 + (|a b| / p) p 2^-52 (1 + 2^-50) (<= 0.75 p + 1 for
//   |a|, |b| <= p; <= p + 1 for |a b| <= 2 p^2).
//
// reduce(x): x - round(x p_inv) p, for |x| < 2^52: |x p_inv| < 2^51 - 1, q
// exact (F2); |x / p - q| <= 1/2 + |x / p| 2^-53, so |r| <= p / 2 + 1.
//
// Conversions: a u64 residue x < 2^51 becomes the double x - p in [-p, p)
// by OR-ing the exponent of 2^52 in (2^52 + x, exact) and subtracting
// 2^52 + p (exact, F3); a double r with 0 <= r + p < 2^52 becomes the u64
// r + p as the low bits of 2^52 + p + r.
#pragma once

#include <cstddef>
#include <cstdint>

// BIGMUL_HAVE_AVX2_CODE: this compiler can build the vector functions below.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BIGMUL_HAVE_AVX2_CODE 1
#include <immintrin.h>
#define BIGMUL_AVX2 __attribute__((target("avx2,fma")))
#endif

namespace bigmul::fft::avx2 {

// Scalar helpers of the engine's tables (any compiler).

// Smallest l with 2^l >= t (exact log2 for the powers of two it is used on).
inline unsigned ceil_log2(std::size_t t) {
  unsigned l = 0;
  while ((std::size_t{1} << l) < t) ++l;
  return l;
}

inline std::size_t bit_reverse(std::size_t j, unsigned bits) {
  std::size_t r = 0;
  for (unsigned b = 0; b < bits; ++b, j >>= 1) r = (r << 1) | (j & 1);
  return r;
}

// The representative of v mod p in [-(p-1)/2, (p-1)/2], as a double.
inline double signed_rep(std::uint64_t v, std::uint64_t p) {
  return v > (p - 1) / 2 ? static_cast<double>(v) - static_cast<double>(p) : static_cast<double>(v);
}

#if defined(BIGMUL_HAVE_AVX2_CODE)

inline constexpr double magic_round = 6755399441055744.0;  // 1.5 * 2^52
inline constexpr double two52 = 4503599627370496.0;        // 2^52

// The per-prime constants, broadcast once per kernel call.
struct vconst {
  __m256d p, p_inv, magic, conv;  // conv = 2^52 + p
  __m256i exp52;                  // the bits of 2^52
};

BIGMUL_AVX2 inline vconst make_vconst(std::uint64_t p) {
  const double pd = static_cast<double>(p);
  return {_mm256_set1_pd(pd), _mm256_set1_pd(1.0 / pd), _mm256_set1_pd(magic_round), _mm256_set1_pd(two52 + pd),
          _mm256_set1_epi64x(0x4330000000000000ll)};
}

// round(y) for |y| < 2^51 - 1, y = a b exactly inside the FMA (F2).
BIGMUL_AVX2 inline __m256d round_product(__m256d a, __m256d b, const vconst& c) {
  return _mm256_sub_pd(_mm256_fmadd_pd(a, b, c.magic), c.magic);
}

// x w mod p, |x| < 2^52, |w| <= (p - 1) / 2, w_p = fl(w / p): |r| <= p (1/2 + |x| 2^-55).
BIGMUL_AVX2 inline __m256d mulmod_shoup(__m256d x, __m256d w, __m256d w_p, const vconst& c) {
  const __m256d h = _mm256_mul_pd(x, w);
  const __m256d q = round_product(x, w_p, c);
  const __m256d l = _mm256_fmsub_pd(x, w, h);
  return _mm256_add_pd(_mm256_fnmadd_pd(q, c.p, h), l);
}

// a b mod p for |a b| <= 2 p^2: |r| <= p / 2 + |a b| 2^-52 (1 + 2^-50).
BIGMUL_AVX2 inline __m256d mulmod(__m256d a, __m256d b, const vconst& c) {
  const __m256d h = _mm256_mul_pd(a, b);
  const __m256d l = _mm256_fmsub_pd(a, b, h);
  const __m256d q = round_product(h, c.p_inv, c);
  return _mm256_add_pd(_mm256_fnmadd_pd(q, c.p, h), l);
}

// x mod p into [-p/2 - 1, p/2 + 1] for |x| < 2^52.
BIGMUL_AVX2 inline __m256d reduce(__m256d x, const vconst& c) {
  return _mm256_fnmadd_pd(round_product(x, c.p_inv, c), c.p, x);
}

// fl(x / p), correctly rounded, for an integer |x| <= (p - 1) / 2: a Shoup
// quotient w_p without a division (vdivpd issues far less often than an
// FMA). q0 = fl(x p_inv), then one correction q = fl(q0 + r p_inv) with
// r = x - q0 p.
//   Let t = x / p, u = ulp(t), e = p p_inv - 1 (|e| <= 2^-53). q0 = t (1 +
//   d), |d| <= 2^-52 + 2^-106, so |t - q0| < 2^53 u (2^-52 + 2^-106) <
//   (2 + 2^-52) u. r: x and q0 p are multiples of ulp(q0) >= u / 2, and
//   |x - q0 p| = p |t - q0| < (4 + 2^-51) p ulp(q0) < 2^53 ulp(q0), so the
//   FMA computes r exactly (F3). The second FMA rounds q0 + r p_inv = t +
//   (t - q0) e once, and |(t - q0) e| < (2 + 2^-52) u 2^-53 = u 2^-52 (1 +
//   2^-53). Every midpoint m between doubles near t is an odd multiple of
//   2^(F - 1) with 2^F >= u / 2, and p (t - m) = x - p m is a nonzero
//   multiple of 2^(F - 1) (zero would need p | x): |t - m| >= u / (4 p) >
//   u 2^-52 (1 + 2^-50) for p < 2^50. So no midpoint lies between t and t +
//   (t - q0) e, and q = fl(t). (x = 0 gives 0.)
BIGMUL_AVX2 inline __m256d quotient(__m256d x, const vconst& c) {
  const __m256d q0 = _mm256_mul_pd(x, c.p_inv);
  return _mm256_fmadd_pd(_mm256_fnmadd_pd(q0, c.p, x), c.p_inv, q0);
}

// u64 residues in [0, 2p) -> doubles x - p in [-p, p).
BIGMUL_AVX2 inline __m256d from_u64(__m256i x, const vconst& c) {
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, c.exp52)), c.conv);
}
// Doubles r with -p <= r < p (any reduce() output) -> u64 r + p in [0, 2p).
BIGMUL_AVX2 inline __m256i to_u64(__m256d r, const vconst& c) {
  return _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(r, c.conv)), c.exp52);
}

BIGMUL_AVX2 inline __m256d load_u64(const std::uint64_t* p, const vconst& c) {
  return from_u64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), c);
}
BIGMUL_AVX2 inline void store_u64(std::uint64_t* p, __m256d r, const vconst& c) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), to_u64(r, c));
}

// The multiply's operands read straight from their limbs (any 64-bit
// values) by the forward transform's first step, instead of a pass that
// stores their residues first: 4 limbs, each hi 2^32 + lo with both halves
// exact doubles; hi (2^32 mod p) is a Shoup product of |x| < 2^32 (within
// p/2 + 1), plus lo < 2^32: in [-p, p) (p > 2^34), the value x - p that
// load_u64 gives for the stored residue. c32 = 2^32 mod p (signed), c32_p = c32 / p.
struct limb_source {
  const std::uint64_t* src;
  std::size_t len;  // src[len ..) reads as zero
  __m256d c32, c32_p;
};
BIGMUL_AVX2 inline __m256d from_limbs(__m256i x, const limb_source& s, const vconst& c) {
  const __m256d two52v = _mm256_set1_pd(two52);
  const __m256i low32 = _mm256_set1_epi64x(0xffffffffll);
  const __m256d lo = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(x, low32), c.exp52)), two52v);
  const __m256d hi = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(x, 32), c.exp52)), two52v);
  return _mm256_add_pd(mulmod_shoup(hi, s.c32, s.c32_p, c), lo);
}
// Values i .. i + 4, zero from len on (a vector across len reads its limbs one by one).
BIGMUL_AVX2 inline __m256d load_limbs(const limb_source& s, std::size_t i, const vconst& c) {
  if (i + 4 <= s.len) return from_limbs(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s.src + i)), s, c);
  if (i >= s.len) return _mm256_setzero_pd();
  alignas(32) std::uint64_t t[4] = {0, 0, 0, 0};
  for (std::size_t l = 0; i + l < s.len; ++l) t[l] = s.src[i + l];
  return from_limbs(_mm256_load_si256(reinterpret_cast<const __m256i*>(t)), s, c);
}

BIGMUL_AVX2 inline __m256d ld(const double* p) { return _mm256_loadu_pd(p); }
BIGMUL_AVX2 inline void st(double* p, __m256d v) { _mm256_storeu_pd(p, v); }

#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace bigmul::fft::avx2
