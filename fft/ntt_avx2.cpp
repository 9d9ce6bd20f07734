// NTT on AVX2 + FMA: see fft/ntt_avx2.hpp; the arithmetic and its exactness
// bounds are in fft/ntt_avx2_arith.hpp.
//
// The vector code lives in functions with a target attribute (BIGMUL_AVX2),
// not in a file compiled with -mavx2, so nothing AVX2 can leak into code
// that runs on older processors; ntt_avx2_supported() gates every call.
//
// Ranges (multiples of p, doubles): every value stored between passes lies in
// [-2p, 2p]. The forward radix-4 step reduces x0 to p/2 + 1 and multiplies
// the rest (products <= 0.58p); after two levels the outputs are <= 1.65p.
// The inverse step reduces the first level's sums (<= 4p) and multiplies its
// differences (< 2^52); its outputs are <= 1.25p. u64 residues in [0, 2p)
// enter as x - p and leave reduced, as r + p.
#include "fft/ntt_avx2.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fft/ntt_crt.hpp"
#include "prim/cpu_features.hpp"
#include "prim/parallel.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BIGMUL_HAVE_AVX2_CODE 1
#include "fft/ntt_avx2_arith.hpp"
#endif

namespace bigmul::fft {
namespace {

// Sub-transforms of at most this many values (16 KiB) run pass by pass in
// L1; larger ones recurse. Measured with bench_ntt (bench/fft).
constexpr std::size_t leaf_size = std::size_t{1} << 11;
constexpr std::size_t vector_grain = std::size_t{1} << 11;  // 4-lane butterflies per parallel task

// Smallest l with 2^l >= t (exact log2 for the powers of two it is used on).
unsigned ceil_log2(std::size_t t) {
  unsigned l = 0;
  while ((std::size_t{1} << l) < t) ++l;
  return l;
}

std::size_t bit_reverse(std::size_t j, unsigned bits) {
  std::size_t r = 0;
  for (unsigned b = 0; b < bits; ++b, j >>= 1) r = (r << 1) | (j & 1);
  return r;
}

// The representative of v mod p in [-(p-1)/2, (p-1)/2], as a double.
double signed_rep(u64 v, u64 p) {
  return v > (p - 1) / 2 ? static_cast<double>(v) - static_cast<double>(p) : static_cast<double>(v);
}

// ---- m < 16: scalar u64 butterflies on the same twisted tree ------------------

void scalar_forward(u64* a, std::size_t m, u64 p, const u64* w, const u64* ws) {
  for (std::size_t s = m; s >= 2; s /= 2) {
    const std::size_t t = s / 2;
    for (std::size_t b = 0; b < m / s; ++b)
      for (std::size_t j = 0; j < t; ++j) {
        u64& x = a[b * s + j];
        u64& y = a[b * s + j + t];
        const u64 v = mul_shoup_lazy(y, w[b], ws[b], p);  // [0, 2p)
        const u64 x0 = x;
        x = reduce_4p_to_2p(x0 + v, p);
        y = reduce_4p_to_2p(x0 + 2 * p - v, p);
      }
  }
}
void scalar_inverse(u64* a, std::size_t m, u64 p, const u64* w, const u64* ws) {
  for (std::size_t s = 2; s <= m; s *= 2) {
    const std::size_t t = s / 2;
    for (std::size_t b = 0; b < m / s; ++b)
      for (std::size_t j = 0; j < t; ++j) {
        u64& x = a[b * s + j];
        u64& y = a[b * s + j + t];
        const u64 x0 = x, y0 = y;
        x = reduce_4p_to_2p(x0 + y0, p);
        y = mul_shoup_lazy(x0 + 2 * p - y0, w[b], ws[b], p);
      }
  }
}

#if defined(BIGMUL_HAVE_AVX2_CODE)

using namespace avx2;

// The twiddle tables of one direction: w[k] and w[k] / p.
struct tables {
  const double* w;
  const double* wp;
};

BIGMUL_AVX2 inline __m256d ld(const double* p) { return _mm256_loadu_pd(p); }
BIGMUL_AVX2 inline void st(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
template <bool U64>
BIGMUL_AVX2 inline __m256d ld_as(const double* p, const vconst& c) {
  if constexpr (U64)
    return load_u64(reinterpret_cast<const u64*>(p), c);
  else
    return ld(p);
}
BIGMUL_AVX2 inline __m256d bc(const double* p) { return _mm256_broadcast_sd(p); }

// Forward radix-4 step of block k: level (x0, x2), (x1, x3) with w[k], then
// (x0, x1) with w[2k] and (x2, x3) with w[2k + 1]. In [-2p, 2p], out <= 1.65p:
// only x0 needs reducing (to p/2 + 1); x1 +- w x3 (<= 2.57p < 2^52) is only
// ever multiplied, giving <= 0.58p, so x0'' <= p/2 + 1 + 0.5625p + 0.58p.
// ReduceX0 = false (the last levels, whose outputs are reduced anyway): out
// <= 2p + 0.5625p + 0.58p = 3.15p < 2^52.
template <bool ReduceX0 = true>
BIGMUL_AVX2 inline void fwd4(__m256d& x0, __m256d& x1, __m256d& x2, __m256d& x3, __m256d w1, __m256d w1p, __m256d w2,
                             __m256d w2p, __m256d w3, __m256d w3p, const vconst& c) {
  if constexpr (ReduceX0) x0 = reduce(x0, c);
  __m256d t = mulmod_shoup(x2, w1, w1p, c);
  x2 = _mm256_sub_pd(x0, t);
  x0 = _mm256_add_pd(x0, t);
  t = mulmod_shoup(x3, w1, w1p, c);
  x3 = _mm256_sub_pd(x1, t);
  x1 = _mm256_add_pd(x1, t);
  t = mulmod_shoup(x1, w2, w2p, c);  // |x1| <= 2.57p
  x1 = _mm256_sub_pd(x0, t);
  x0 = _mm256_add_pd(x0, t);
  t = mulmod_shoup(x3, w3, w3p, c);
  x3 = _mm256_sub_pd(x2, t);
  x2 = _mm256_add_pd(x2, t);
}
// Its inverse (times 4) with w1 = w[k]^-1, w2 = w[2k]^-1, w3 = w[2k + 1]^-1.
// In [-2p, 2p], out <= 1.25p.
BIGMUL_AVX2 inline void inv4(__m256d& x0, __m256d& x1, __m256d& x2, __m256d& x3, __m256d w1, __m256d w1p, __m256d w2,
                             __m256d w2p, __m256d w3, __m256d w3p, const vconst& c) {
  __m256d s = _mm256_add_pd(x0, x1);
  x1 = mulmod_shoup(_mm256_sub_pd(x0, x1), w2, w2p, c);  // |x0 - x1| <= 4p < 2^52
  x0 = reduce(s, c);
  s = _mm256_add_pd(x2, x3);
  x3 = mulmod_shoup(_mm256_sub_pd(x2, x3), w3, w3p, c);
  x2 = reduce(s, c);
  s = _mm256_add_pd(x0, x2);
  x2 = mulmod_shoup(_mm256_sub_pd(x0, x2), w1, w1p, c);
  x0 = s;
  s = _mm256_add_pd(x1, x3);
  x3 = mulmod_shoup(_mm256_sub_pd(x1, x3), w1, w1p, c);
  x1 = s;
}

// Block 0 of a level (every transform's first step): w[0] = 1, so only
// (x1 - x3) w[1] is a product. In [-2p, 2p] (sums < 4p < 2^52), out <= 1.13p.
// zero_top: x2 = x3 = 0 (the upper half of a zero-padded input), in [-p, p):
// out <= 2p without reductions.
template <bool InU64, bool ZeroTop>
BIGMUL_AVX2 void pass4_forward_first(double* a, std::size_t h, const tables& T, const vconst& c) {
  const __m256d w3 = bc(T.w + 1), w3p = bc(T.wp + 1);
  for (std::size_t j = 0; j < h; j += 4) {
    const __m256d x0 = ld_as<InU64>(a + j, c), x1 = ld_as<InU64>(a + j + h, c);
    __m256d y0, y1, y2, t;
    if constexpr (ZeroTop) {
      y0 = _mm256_add_pd(x0, x1);
      y1 = _mm256_sub_pd(x0, x1);
      y2 = x0;
      t = mulmod_shoup(x1, w3, w3p, c);
    } else {
      const __m256d x2 = ld_as<InU64>(a + j + 2 * h, c), x3 = ld_as<InU64>(a + j + 3 * h, c);
      const __m256d s02 = reduce(_mm256_add_pd(x0, x2), c), s13 = reduce(_mm256_add_pd(x1, x3), c);
      y0 = _mm256_add_pd(s02, s13);
      y1 = _mm256_sub_pd(s02, s13);
      y2 = reduce(_mm256_sub_pd(x0, x2), c);
      t = mulmod_shoup(_mm256_sub_pd(x1, x3), w3, w3p, c);
    }
    st(a + j, y0);
    st(a + j + h, y1);
    st(a + j + 2 * h, _mm256_add_pd(y2, t));
    st(a + j + 3 * h, _mm256_sub_pd(y2, t));
  }
}

// One radix-4 step over a block of 4h values (h a multiple of 4), block index k.
template <bool InU64>
BIGMUL_AVX2 void pass4_forward(double* a, std::size_t h, const tables& T, std::size_t k, const vconst& c) {
  if (k == 0) return pass4_forward_first<InU64, false>(a, h, T, c);
  const __m256d w1 = bc(T.w + k), w1p = bc(T.wp + k), w2 = bc(T.w + 2 * k), w2p = bc(T.wp + 2 * k),
                w3 = bc(T.w + 2 * k + 1), w3p = bc(T.wp + 2 * k + 1);
  for (std::size_t j = 0; j < h; j += 4) {
    __m256d x0 = ld_as<InU64>(a + j, c), x1 = ld_as<InU64>(a + j + h, c), x2 = ld_as<InU64>(a + j + 2 * h, c),
            x3 = ld_as<InU64>(a + j + 3 * h, c);
    fwd4(x0, x1, x2, x3, w1, w1p, w2, w2p, w3, w3p, c);
    st(a + j, x0);
    st(a + j + h, x1);
    st(a + j + 2 * h, x2);
    st(a + j + 3 * h, x3);
  }
}
// Block 0 of an inverse level pair (every transform's last step): the
// inverse twiddles w[0]^-1 = 1 leave one product, (x2 - x3) w[1]^-1. In
// [-2p, 2p], out <= 1.13p, or reduced as u64.
template <bool OutU64>
BIGMUL_AVX2 void pass4_inverse_first(double* a, std::size_t h, const tables& T, const vconst& c) {
  const __m256d w3 = bc(T.w + 1), w3p = bc(T.wp + 1);
  for (std::size_t j = 0; j < h; j += 4) {
    const __m256d x0 = ld(a + j), x1 = ld(a + j + h), x2 = ld(a + j + 2 * h), x3 = ld(a + j + 3 * h);
    const __m256d s01 = reduce(_mm256_add_pd(x0, x1), c), s23 = reduce(_mm256_add_pd(x2, x3), c);
    const __m256d d01 = reduce(_mm256_sub_pd(x0, x1), c);
    const __m256d t = mulmod_shoup(_mm256_sub_pd(x2, x3), w3, w3p, c);
    const __m256d y0 = _mm256_add_pd(s01, s23), y1 = _mm256_add_pd(d01, t), y2 = _mm256_sub_pd(s01, s23),
                  y3 = _mm256_sub_pd(d01, t);
    if constexpr (OutU64) {
      u64* b = reinterpret_cast<u64*>(a);
      store_u64(b + j, reduce(y0, c), c);
      store_u64(b + j + h, reduce(y1, c), c);
      store_u64(b + j + 2 * h, reduce(y2, c), c);
      store_u64(b + j + 3 * h, reduce(y3, c), c);
    } else {
      st(a + j, y0);
      st(a + j + h, y1);
      st(a + j + 2 * h, y2);
      st(a + j + 3 * h, y3);
    }
  }
}

template <bool OutU64>
BIGMUL_AVX2 void pass4_inverse(double* a, std::size_t h, const tables& T, std::size_t k, const vconst& c) {
  if (k == 0) return pass4_inverse_first<OutU64>(a, h, T, c);
  const __m256d w1 = bc(T.w + k), w1p = bc(T.wp + k), w2 = bc(T.w + 2 * k), w2p = bc(T.wp + 2 * k),
                w3 = bc(T.w + 2 * k + 1), w3p = bc(T.wp + 2 * k + 1);
  for (std::size_t j = 0; j < h; j += 4) {
    __m256d x0 = ld(a + j), x1 = ld(a + j + h), x2 = ld(a + j + 2 * h), x3 = ld(a + j + 3 * h);
    inv4(x0, x1, x2, x3, w1, w1p, w2, w2p, w3, w3p, c);
    if constexpr (OutU64) {
      u64* b = reinterpret_cast<u64*>(a);
      store_u64(b + j, reduce(x0, c), c);
      store_u64(b + j + h, reduce(x1, c), c);
      store_u64(b + j + 2 * h, reduce(x2, c), c);
      store_u64(b + j + 3 * h, reduce(x3, c), c);
    } else {
      st(a + j, x0);
      st(a + j + h, x1);
      st(a + j + 2 * h, x2);
      st(a + j + 3 * h, x3);
    }
  }
}

// One radix-2 level on butterflies (x[j], y[j]), j < len (a multiple of 4),
// twiddle w (or its inverse), w_p = w / p.
template <bool InU64>
BIGMUL_AVX2 void level_forward_run(double* x, double* y, std::size_t len, const double* w, const double* wp,
                                   const vconst& c) {
  const __m256d W = bc(w), WP = bc(wp);
  for (std::size_t j = 0; j < len; j += 4) {
    const __m256d X = reduce(ld_as<InU64>(x + j, c), c);
    const __m256d t = mulmod_shoup(ld_as<InU64>(y + j, c), W, WP, c);
    st(x + j, _mm256_add_pd(X, t));
    st(y + j, _mm256_sub_pd(X, t));
  }
}
template <bool OutU64>
BIGMUL_AVX2 void level_inverse_run(double* x, double* y, std::size_t len, const double* w, const double* wp,
                                   const vconst& c) {
  const __m256d W = bc(w), WP = bc(wp);
  for (std::size_t j = 0; j < len; j += 4) {
    const __m256d X = ld(x + j), Y = ld(y + j);
    const __m256d s = reduce(_mm256_add_pd(X, Y), c);
    const __m256d d = mulmod_shoup(_mm256_sub_pd(X, Y), W, WP, c);
    if constexpr (OutU64) {
      store_u64(reinterpret_cast<u64*>(x + j), s, c);
      store_u64(reinterpret_cast<u64*>(y + j), reduce(d, c), c);
    } else {
      st(x + j, s);
      st(y + j, d);
    }
  }
}

// 4 x 4 transpose: row b of the input is lane b of the output.
BIGMUL_AVX2 inline void transpose4(__m256d& r0, __m256d& r1, __m256d& r2, __m256d& r3) {
  const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
  const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
  r0 = _mm256_permute2f128_pd(t0, t2, 0x20);
  r1 = _mm256_permute2f128_pd(t1, t3, 0x20);
  r2 = _mm256_permute2f128_pd(t0, t2, 0x31);
  r3 = _mm256_permute2f128_pd(t1, t3, 0x31);
}
// Table entries 2k and 2k + 1 for the four k of a vector: p[2k0 .. 2k0 + 8)
// split into evens and odds.
BIGMUL_AVX2 inline void load_pairs(const double* p, __m256d& even, __m256d& odd) {
  const __m256d A = ld(p), B = ld(p + 4);
  even = _mm256_permute4x64_pd(_mm256_unpacklo_pd(A, B), 0xD8);
  odd = _mm256_permute4x64_pd(_mm256_unpackhi_pd(A, B), 0xD8);
}

// The last two forward levels in registers: blocks of 4 values, four blocks
// (16 values) a step, transposed so that each lane is one block; k0 = the
// index of the first block. Output reduced, as u64 in [0, 2p).
BIGMUL_AVX2 void last_levels_forward(double* a, std::size_t size, const tables& T, std::size_t k0, const vconst& c) {
  for (std::size_t g = 0; g < size; g += 16) {
    const std::size_t k = k0 + g / 4;
    __m256d x0 = ld(a + g), x1 = ld(a + g + 4), x2 = ld(a + g + 8), x3 = ld(a + g + 12);
    transpose4(x0, x1, x2, x3);
    __m256d w2, w3, w2p, w3p;
    load_pairs(T.w + 2 * k, w2, w3);
    load_pairs(T.wp + 2 * k, w2p, w3p);
    fwd4<false>(x0, x1, x2, x3, ld(T.w + k), ld(T.wp + k), w2, w2p, w3, w3p, c);
    x0 = reduce(x0, c);
    x1 = reduce(x1, c);
    x2 = reduce(x2, c);
    x3 = reduce(x3, c);
    transpose4(x0, x1, x2, x3);
    u64* b = reinterpret_cast<u64*>(a + g);
    store_u64(b, x0, c);
    store_u64(b + 4, x1, c);
    store_u64(b + 8, x2, c);
    store_u64(b + 12, x3, c);
  }
}
// The first two inverse levels, u64 in [0, 2p) in, doubles out.
BIGMUL_AVX2 void first_levels_inverse(double* a, std::size_t size, const tables& T, std::size_t k0, const vconst& c) {
  for (std::size_t g = 0; g < size; g += 16) {
    const std::size_t k = k0 + g / 4;
    __m256d x0 = ld_as<true>(a + g, c), x1 = ld_as<true>(a + g + 4, c), x2 = ld_as<true>(a + g + 8, c),
            x3 = ld_as<true>(a + g + 12, c);
    transpose4(x0, x1, x2, x3);
    __m256d w2, w3, w2p, w3p;
    load_pairs(T.w + 2 * k, w2, w3);
    load_pairs(T.wp + 2 * k, w2p, w3p);
    inv4(x0, x1, x2, x3, ld(T.w + k), ld(T.wp + k), w2, w2p, w3, w3p, c);
    transpose4(x0, x1, x2, x3);
    st(a + g, x0);
    st(a + g + 4, x1);
    st(a + g + 8, x2);
    st(a + g + 12, x3);
  }
}

// A whole in-cache block of `size` values (16 <= size <= leaf_size), block
// index kb at its level: radix-4 passes while blocks hold >= 16 values, one
// radix-2 level when log2(size) is odd, then the last two levels in registers.
template <bool InU64, bool ZeroTop = false>
BIGMUL_AVX2 void leaf_forward(double* a, std::size_t size, std::size_t kb, const tables& T, u64 p) {
  const vconst c = make_vconst(p);
  if constexpr (ZeroTop)
    pass4_forward_first<InU64, true>(a, size / 4, T, c);
  else
    pass4_forward<InU64>(a, size / 4, T, kb, c);
  std::size_t s = size / 4;
  for (; s >= 16; s /= 4)
    for (std::size_t b = 0; b < size / s; ++b) pass4_forward<false>(a + b * s, s / 4, T, kb * (size / s) + b, c);
  if (s == 8)
    for (std::size_t b = 0; b < size / 8; ++b) {
      const std::size_t k = kb * (size / 8) + b;
      level_forward_run<false>(a + 8 * b, a + 8 * b + 4, 4, T.w + k, T.wp + k, c);
    }
  last_levels_forward(a, size, T, kb * (size / 4), c);
}
template <bool OutU64>
BIGMUL_AVX2 void leaf_inverse(double* a, std::size_t size, std::size_t kb, const tables& T, u64 p) {
  const vconst c = make_vconst(p);
  first_levels_inverse(a, size, T, kb * (size / 4), c);
  std::size_t s = 16;
  if (ceil_log2(size) % 2 == 1) {
    for (std::size_t b = 0; b < size / 8; ++b) {
      const std::size_t k = kb * (size / 8) + b;
      level_inverse_run<false>(a + 8 * b, a + 8 * b + 4, 4, T.w + k, T.wp + k, c);
    }
    s = 32;
  }
  for (; s < size; s *= 4)
    for (std::size_t b = 0; b < size / s; ++b) pass4_inverse<false>(a + b * s, s / 4, T, kb * (size / s) + b, c);
  pass4_inverse<OutU64>(a, size / 4, T, kb, c);
}

// Entry points taking the prime (the constants built once a call).
template <bool InU64>
BIGMUL_AVX2 void pass4_forward_p(double* a, std::size_t h, const tables& T, std::size_t k, u64 p) {
  pass4_forward<InU64>(a, h, T, k, make_vconst(p));
}
template <bool OutU64>
BIGMUL_AVX2 void pass4_inverse_p(double* a, std::size_t h, const tables& T, std::size_t k, u64 p) {
  pass4_inverse<OutU64>(a, h, T, k, make_vconst(p));
}
template <bool InU64>
BIGMUL_AVX2 void level_forward_p(double* x, double* y, std::size_t len, const double* w, const double* wp, u64 p) {
  level_forward_run<InU64>(x, y, len, w, wp, make_vconst(p));
}
template <bool OutU64>
BIGMUL_AVX2 void level_inverse_p(double* x, double* y, std::size_t len, const double* w, const double* wp, u64 p) {
  level_inverse_run<OutU64>(x, y, len, w, wp, make_vconst(p));
}

// Depth first: a radix-4 step over the block, then its quarters.
template <bool InU64>
void rec_forward(double* a, std::size_t size, std::size_t k, const tables& T, u64 p) {
  if (size <= leaf_size) return leaf_forward<InU64>(a, size, k, T, p);
  pass4_forward_p<InU64>(a, size / 4, T, k, p);
  for (std::size_t q = 0; q < 4; ++q) rec_forward<false>(a + q * (size / 4), size / 4, 4 * k + q, T, p);
}
// The whole transform, the upper half of its u64 input zero (a zero-padded operand).
BIGMUL_AVX2 void forward_zero_top(double* a, std::size_t size, const tables& T, u64 p) {
  if (size <= leaf_size) return leaf_forward<true, true>(a, size, 0, T, p);
  pass4_forward_first<true, true>(a, size / 4, T, make_vconst(p));
  for (std::size_t q = 0; q < 4; ++q) rec_forward<false>(a + q * (size / 4), size / 4, q, T, p);
}
template <bool OutU64>
void rec_inverse(double* a, std::size_t size, std::size_t k, const tables& T, u64 p) {
  if (size <= leaf_size) return leaf_inverse<OutU64>(a, size, k, T, p);
  for (std::size_t q = 0; q < 4; ++q) rec_inverse<false>(a + q * (size / 4), size / 4, 4 * k + q, T, p);
  pass4_inverse_p<OutU64>(a, size / 4, T, k, p);
}

using radix3_tables = ntt_avx2_plan::radix3_tables;

// Radix-3 forward on j in [j_begin, j_end) (multiples of 4; j_begin of 64),
// u64 in, doubles out: y0 = x0 + x1 + x2, y1 = (x0 - x2 + u) w^j,
// y2 = (x0 - x1 - u) w^2j with u = w3 (x1 - x2). base1, base2: w^j_begin,
// w^2j_begin in [0, p). Ranges: x in [-p, p), |u| <= 0.5625p, |w^j| <= 0.52p
// (a base times a table entry), |x0 - x2 + u| <= 2.57p, so the products have
// |a b| <= 1.34 p^2 and |y1|, |y2| <= 0.84p (fft/ntt_avx2_arith.hpp).
// nonzero: a[nonzero ..) is zero (a zero-padded operand): blocks whose x2, or
// x1 and x2, are all zero skip their terms (x1 = x2 = 0: y_r = x0 w^jr).
BIGMUL_AVX2 void radix3_forward_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, u64 base1, u64 base2, u64 p, std::size_t nonzero) {
  const vconst c = make_vconst(p);
  const __m256d c3 = _mm256_set1_pd(T.cube[0]), c3p = _mm256_set1_pd(T.cube_p[0]);
  for (std::size_t j0 = j_begin; j0 < j_end; j0 += radix3_tables::block) {
    const __m256d b1 = _mm256_set1_pd(signed_rep(base1, p)), b2 = _mm256_set1_pd(signed_rep(base2, p));
    const std::size_t len = std::min(radix3_tables::block, j_end - j0);
    const bool zero1 = j0 + m >= nonzero, zero2 = j0 + 2 * m >= nonzero;
    for (std::size_t i = 0; i < len; i += 4) {
      u64* x = a + j0 + i;
      const __m256d w1 = mulmod_shoup(b1, ld(T.tw[0][0] + i), ld(T.tw_p[0][0] + i), c);
      const __m256d w2 = mulmod_shoup(b2, ld(T.tw[0][1] + i), ld(T.tw_p[0][1] + i), c);
      const __m256d x0 = load_u64(x, c);
      __m256d y0, y1, y2;
      if (zero1) {
        y0 = x0;
        y1 = mulmod(x0, w1, c);
        y2 = mulmod(x0, w2, c);
      } else if (zero2) {
        const __m256d x1 = load_u64(x + m, c);
        const __m256d u = mulmod_shoup(x1, c3, c3p, c);
        y0 = reduce(_mm256_add_pd(x0, x1), c);
        y1 = mulmod(_mm256_add_pd(x0, u), w1, c);
        y2 = mulmod(_mm256_sub_pd(_mm256_sub_pd(x0, x1), u), w2, c);
      } else {
        const __m256d x1 = load_u64(x + m, c), x2 = load_u64(x + 2 * m, c);
        const __m256d u = mulmod_shoup(_mm256_sub_pd(x1, x2), c3, c3p, c);
        y0 = reduce(_mm256_add_pd(_mm256_add_pd(x0, x1), x2), c);
        y1 = mulmod(_mm256_add_pd(_mm256_sub_pd(x0, x2), u), w1, c);
        y2 = mulmod(_mm256_sub_pd(_mm256_sub_pd(x0, x1), u), w2, c);
      }
      double* d = reinterpret_cast<double*>(x);
      st(d, y0);
      st(d + m, y1);
      st(d + 2 * m, y2);
    }
    base1 = mul_shoup(base1, T.step[0][0], T.step_shoup[0][0], p);
    base2 = mul_shoup(base2, T.step[0][1], T.step_shoup[0][1], p);
  }
}

// The inverse, doubles in (|y| <= 2p), u64 out: z_r = y_r w^-jr,
// x_l = sum_r z_r w3^-lr (times 3). |z1|, |z2| <= 0.77p, sums < 3.6p, reduced.
BIGMUL_AVX2 void radix3_inverse_run(u64* a, std::size_t m, std::size_t j_begin, std::size_t j_end,
                                    const radix3_tables& T, u64 base1, u64 base2, u64 p, std::size_t) {
  const vconst c = make_vconst(p);
  const __m256d c3 = _mm256_set1_pd(T.cube[1]), c3p = _mm256_set1_pd(T.cube_p[1]);
  for (std::size_t j0 = j_begin; j0 < j_end; j0 += radix3_tables::block) {
    const __m256d b1 = _mm256_set1_pd(signed_rep(base1, p)), b2 = _mm256_set1_pd(signed_rep(base2, p));
    const std::size_t len = std::min(radix3_tables::block, j_end - j0);
    for (std::size_t i = 0; i < len; i += 4) {
      double* x = reinterpret_cast<double*>(a + j0 + i);
      const __m256d w1 = mulmod_shoup(b1, ld(T.tw[1][0] + i), ld(T.tw_p[1][0] + i), c);
      const __m256d w2 = mulmod_shoup(b2, ld(T.tw[1][1] + i), ld(T.tw_p[1][1] + i), c);
      const __m256d z0 = ld(x), z1 = mulmod(ld(x + m), w1, c), z2 = mulmod(ld(x + 2 * m), w2, c);
      const __m256d u = mulmod_shoup(_mm256_sub_pd(z1, z2), c3, c3p, c);
      u64* y = a + j0 + i;
      store_u64(y, reduce(_mm256_add_pd(_mm256_add_pd(z0, z1), z2), c), c);
      store_u64(y + m, reduce(_mm256_add_pd(_mm256_sub_pd(z0, z2), u), c), c);
      store_u64(y + 2 * m, reduce(_mm256_sub_pd(_mm256_sub_pd(z0, z1), u), c), c);
    }
    base1 = mul_shoup(base1, T.step[1][0], T.step_shoup[1][0], p);
    base2 = mul_shoup(base2, T.step[1][1], T.step_shoup[1][1], p);
  }
}

// x = (x y) (1/n) for i in [b, e) (multiples of 4): |x y| <= p^2 after the
// shift to [-p, p), so the product is <= 0.75p + 1 and the scaled one < 0.53p.
BIGMUL_AVX2 void pointwise_run(u64* x, const u64* y, std::size_t b, std::size_t e, double scale, double scale_p,
                               u64 p) {
  const vconst c = make_vconst(p);
  const __m256d s = _mm256_set1_pd(scale), sp = _mm256_set1_pd(scale_p);
  for (std::size_t i = b; i < e; i += 4)
    store_u64(x + i, mulmod_shoup(mulmod(load_u64(x + i, c), load_u64(y + i, c), c), s, sp, c), c);
}

// dst[i] = src[i] mod p in [0, 2p) for i in [b, e) (multiples of 4): a limb
// is hi 2^32 + lo, both exact doubles; hi (2^32 mod p) is a Shoup product
// of |x| < 2^32 (<= p/2 + 1), plus lo < 2^32: in [-p, p), as u64 r + p.
BIGMUL_AVX2 void load_run(u64* dst, const u64* src, std::size_t b, std::size_t e, double c32, double c32_p, u64 p) {
  const vconst c = make_vconst(p);
  const __m256d w = _mm256_set1_pd(c32), wp = _mm256_set1_pd(c32_p), two52v = _mm256_set1_pd(two52);
  const __m256i low32 = _mm256_set1_epi64x(0xffffffffll);
  for (std::size_t i = b; i < e; i += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256d lo = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(x, low32), c.exp52)), two52v);
    const __m256d hi = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(x, 32), c.exp52)), two52v);
    store_u64(dst + i, _mm256_add_pd(mulmod_shoup(hi, w, wp, c), lo), c);
  }
}

// Garner digits of 4 coefficients a step (count a multiple of 4): each step
// t = (t - v_j) p_j^{-1} mod p_k is a Shoup product of |t - v_j| < 3 p_k.
struct garner_avx2 {
  u64 p[4];
  double inv[4][4], inv_p[4][4];  // p_j^{-1} mod p_k (signed) and / p_k
};

BIGMUL_AVX2 void mixed_radix_run(const garner_avx2& G, const u64* const res[], std::size_t i, std::size_t count,
                                 u64* v, unsigned used) {
  const vconst c[4] = {make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2]), make_vconst(G.p[3])};
  const __m256d zero = _mm256_setzero_pd(), two52v = _mm256_set1_pd(two52);
  for (std::size_t q = 0; q < count; q += 4) {
    __m256d d[4];
    for (unsigned k = 0; k < used; ++k) {
      __m256d r = load_u64(res[k] + i + q, c[k]);  // [-p, p)
      for (unsigned j = 0; j < k; ++j)
        r = mulmod_shoup(_mm256_sub_pd(r, d[j]), _mm256_set1_pd(G.inv[k][j]), _mm256_set1_pd(G.inv_p[k][j]), c[k]);
      // (-p, p) -> [0, p): the digit.
      r = _mm256_add_pd(r, _mm256_and_pd(_mm256_cmp_pd(r, zero, _CMP_LT_OQ), c[k].p));
      d[k] = r;
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(v + k * count + q),
                          _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(r, two52v)), c[k].exp52));
    }
  }
}

BIGMUL_AVX2 void lanes(const double* x, const double* y, double w, double w_p, u64 p, double* r, int op) {
  const vconst c = make_vconst(p);
  const __m256d X = ld(x);
  if (op == 0) st(r, mulmod_shoup(X, _mm256_set1_pd(w), _mm256_set1_pd(w_p), c));
  if (op == 1) st(r, mulmod(X, ld(y), c));
  if (op == 2) st(r, reduce(X, c));
}

#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace

#if defined(BIGMUL_HAVE_AVX2_CODE)
void ntt_avx2_mulmod_shoup_lanes(const double x[4], double w, double w_p, u64 p, double r[4]) {
  lanes(x, nullptr, w, w_p, p, r, 0);
}
void ntt_avx2_mulmod_lanes(const double a[4], const double b[4], u64 p, double r[4]) { lanes(a, b, 0, 0, p, r, 1); }
void ntt_avx2_reduce_lanes(const double x[4], u64 p, double r[4]) { lanes(x, nullptr, 0, 0, p, r, 2); }
#else
void ntt_avx2_mulmod_shoup_lanes(const double*, double, double, u64, double*) { throw std::logic_error("no AVX2 code"); }
void ntt_avx2_mulmod_lanes(const double*, const double*, u64, double*) { throw std::logic_error("no AVX2 code"); }
void ntt_avx2_reduce_lanes(const double*, u64, double*) { throw std::logic_error("no AVX2 code"); }
#endif

bool ntt_avx2_supported() {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  return prim::cpu_has_avx2_fma();
#else
  return false;
#endif
}

void ntt_avx2_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
  static const garner_constants<4> scalar(ntt52_primes);
#if defined(BIGMUL_HAVE_AVX2_CODE)
  static const garner_avx2 G = [] {
    garner_avx2 g{};
    for (unsigned k = 0; k < 4; ++k) g.p[k] = ntt52_primes[k].p;
    for (unsigned k = 0; k < 4; ++k)
      for (unsigned j = 0; j < k; ++j) {
        g.inv[k][j] = signed_rep(scalar.inv[k][j], g.p[k]);
        g.inv_p[k][j] = g.inv[k][j] / static_cast<double>(g.p[k]);
      }
    return g;
  }();
  if (count % 4 == 0 && ntt_avx2_supported()) return mixed_radix_run(G, res, i, count, v, used);
#endif
  scalar.digits(res, i, count, v, used);
}

ntt_avx2_plan::ntt_avx2_plan(unsigned prime, std::size_t length) : prime_(prime), n_(length) {
  if (prime >= ntt52_prime_count) throw std::invalid_argument("ntt_avx2_plan: prime index out of range");
  if (length == 0 || ntt_fit_length(length) != length)
    throw std::invalid_argument("ntt_avx2_plan: length " + std::to_string(length) + " is not 2^k or 3*2^k <= 3*2^32");
  p_ = ntt52_primes[prime].p;
  m_ = n_ % 3 == 0 ? n_ / 3 : n_;
  const u64 root_n = pow_mod(ntt52_primes[prime].generator, (p_ - 1) / n_, p_);
  const u64 root_m = n_ == m_ ? root_n : pow_mod(root_n, 3, p_);
  const double pd = static_cast<double>(p_);
  if (m_ >= 2) {
    // w[j] = w_m^bitrev(j) for j < m/2 (log2(m) - 1 bits), w[j]^-1 = -w_m^(m/2 - bitrev(j)).
    const std::size_t half = m_ / 2;
    const unsigned bits = ceil_log2(half);
    std::vector<u64> pw(half);
    const u64 root_shoup = shoup_companion(root_m, p_);
    prim::parallel_chunks(half, std::size_t{1} << 12, 0, [&](std::size_t b, std::size_t e) {
      u64 w = pow_mod(root_m, b, p_);
      for (std::size_t j = b; j < e; ++j) {
        pw[j] = w;
        w = mul_shoup(w, root_m, root_shoup, p_);
      }
    });
    const auto inv_of = [&](std::size_t e) { return e == 0 ? u64{1} : p_ - pw[half - e]; };
    if (m_ >= 16) {
      fw_.resize(half);
      fw_p_.resize(half);
      iw_.resize(half);
      iw_p_.resize(half);
      prim::parallel_chunks(half, std::size_t{1} << 12, 0, [&](std::size_t b, std::size_t e) {
        for (std::size_t j = b; j < e; ++j) {
          const std::size_t r = bit_reverse(j, bits);
          fw_[j] = signed_rep(pw[r], p_);
          fw_p_[j] = fw_[j] / pd;
          iw_[j] = signed_rep(inv_of(r), p_);
          iw_p_[j] = iw_[j] / pd;
        }
      });
    } else {
      for (std::size_t j = 0; j < half; ++j) {
        const std::size_t r = bit_reverse(j, bits);
        sfw_.push_back(pw[r]);
        sfw_shoup_.push_back(shoup_companion(pw[r], p_));
        siw_.push_back(inv_of(r));
        siw_shoup_.push_back(shoup_companion(inv_of(r), p_));
      }
    }
  }
  pointwise_ = ntt_pointwise_scale(p_, n_);
  scale_ = signed_rep(inv_mod(n_ % p_, p_), p_);
  scale_p_ = scale_ / pd;
  if (n_ != m_) {
    radix3_ = ntt_radix3_stage(p_, ntt52_primes[prime].generator, n_);
    auto& T = radix3_vec_;
    for (int d = 0; d < 2; ++d) {
      const u64 w = d == 0 ? radix3_.root_n : radix3_.root_n_inv;
      for (int r = 0; r < 2; ++r) {
        const u64 wr = pow_mod(w, r + 1, p_);
        u64 x = 1;
        for (std::size_t i = 0; i < radix3_tables::block; ++i, x = mul_mod(x, wr, p_)) {
          T.tw[d][r][i] = signed_rep(x, p_);
          T.tw_p[d][r][i] = T.tw[d][r][i] / pd;
        }
        T.step[d][r] = x;  // wr^block
        T.step_shoup[d][r] = shoup_companion(x, p_);
      }
      T.cube[d] = signed_rep(d == 0 ? radix3_.cube_root : radix3_.cube_root_inv, p_);
      T.cube_p[d] = T.cube[d] / pd;
    }
  }
}

std::shared_ptr<const ntt_avx2_plan> ntt_avx2_plan::get(unsigned prime, std::size_t length) {
  return cached_ntt_plan<ntt_avx2_plan>(prime, length, 4 * 24);  // radix conversion trees use one or two lengths a level
}

// With several threads: whole-array radix-2 levels until there are enough
// independent sub-transforms to share out, then one task per sub-transform.
void ntt_avx2_plan::pow2_forward(u64* a, unsigned threads, bool in_u64, bool zero_top) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  double* d = reinterpret_cast<double*>(a);
  const tables T{fw_.data(), fw_p_.data()};
  if (threads <= 1 || m_ <= leaf_size) {
    if (zero_top && in_u64) return forward_zero_top(d, m_, T, p_);
    return in_u64 ? rec_forward<true>(d, m_, 0, T, p_) : rec_forward<false>(d, m_, 0, T, p_);
  }
  const std::size_t size = ntt_task_size(m_, leaf_size, threads);
  for (std::size_t s = m_; s > size; s /= 2) {
    const std::size_t t = s / 2;
    const bool first = s == m_ && in_u64;
    ntt_parallel_level(m_, t, 4, vector_grain, threads, [&](std::size_t at, std::size_t, std::size_t len) {
      const std::size_t k = at / s;
      (first ? level_forward_p<true> : level_forward_p<false>)(d + at, d + at + t, len, T.w + k, T.wp + k, p_);
    });
  }
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_forward<false>(d + b * size, size, b, T, p_); });
#else
  (void)a, (void)threads, (void)in_u64, (void)zero_top;
#endif
}

void ntt_avx2_plan::pow2_inverse(u64* a, unsigned threads, bool out_u64) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  double* d = reinterpret_cast<double*>(a);
  const tables T{iw_.data(), iw_p_.data()};
  if (threads <= 1 || m_ <= leaf_size)
    return out_u64 ? rec_inverse<true>(d, m_, 0, T, p_) : rec_inverse<false>(d, m_, 0, T, p_);
  std::size_t size = ntt_task_size(m_, leaf_size, threads);
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_inverse<false>(d + b * size, size, b, T, p_); });
  for (; size < m_; size *= 2) {
    const std::size_t t = size;
    const bool last = 2 * t == m_ && out_u64;
    ntt_parallel_level(m_, t, 4, vector_grain, threads, [&](std::size_t at, std::size_t, std::size_t len) {
      const std::size_t k = at / (2 * t);
      (last ? level_inverse_p<true> : level_inverse_p<false>)(d + at, d + at + t, len, T.w + k, T.wp + k, p_);
    });
  }
#else
  (void)a, (void)threads, (void)out_u64;
#endif
}

// Chunks of whole 64-j blocks; each starts its bases at w^(+-j0).
void ntt_avx2_plan::radix3_vector(u64* a, unsigned threads, bool inverse, std::size_t nonzero) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  const u64 root = inverse ? radix3_.root_n_inv : radix3_.root_n;
  const std::size_t block = radix3_tables::block, blocks = (m_ + block - 1) / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    const std::size_t j0 = b0 * block, j1 = std::min(m_, b1 * block);
    const u64 base1 = pow_mod(root, j0, p_), base2 = pow_mod(root, 2 * j0, p_);
    (inverse ? radix3_inverse_run : radix3_forward_run)(a, m_, j0, j1, radix3_vec_, base1, base2, p_, nonzero);
  });
#else
  (void)a, (void)threads, (void)inverse, (void)nonzero;
#endif
}

void ntt_avx2_plan::forward(u64* a, unsigned threads) const { forward(a, threads, n_); }

void ntt_avx2_plan::forward(u64* a, unsigned threads, std::size_t nonzero) const {
  if (!ntt_avx2_supported()) throw std::logic_error("ntt_avx2_plan: this processor has no AVX2 and FMA");
  threads = prim::resolve_threads(threads);
  if (m_ < 16) {
    if (n_ != m_) radix3_.forward(a, threads);
    for (std::size_t r = 0; r < n_ / m_; ++r) scalar_forward(a + r * m_, m_, p_, sfw_.data(), sfw_shoup_.data());
    return;
  }
  if (n_ == m_) return pow2_forward(a, threads, true, nonzero <= m_ / 2);
  radix3_vector(a, threads, false, nonzero);
  for (int r = 0; r < 3; ++r) pow2_forward(a + r * m_, threads, false, false);
}

void ntt_avx2_plan::inverse(u64* a, unsigned threads) const {
  if (!ntt_avx2_supported()) throw std::logic_error("ntt_avx2_plan: this processor has no AVX2 and FMA");
  threads = prim::resolve_threads(threads);
  if (m_ < 16) {
    for (std::size_t r = 0; r < n_ / m_; ++r) scalar_inverse(a + r * m_, m_, p_, siw_.data(), siw_shoup_.data());
    if (n_ != m_) radix3_.inverse(a, threads);
    return;
  }
  if (n_ == m_) return pow2_inverse(a, threads, true);
  for (int r = 0; r < 3; ++r) pow2_inverse(a + r * m_, threads, false);
  radix3_vector(a, threads, true, n_);
}

void ntt_avx2_plan::load(u64* dst, const u64* src, std::size_t len, unsigned threads) const {
  threads = prim::resolve_threads(threads);
  const u64 one_shoup = shoup_companion(1, p_);
  const double c32 = signed_rep((u64{1} << 32) % p_, p_), c32_p = c32 / static_cast<double>(p_);
  prim::parallel_chunks(n_, std::size_t{1} << 13, threads, [&](std::size_t b, std::size_t e) {
    const std::size_t mid = std::min(std::max(b, len), e);
    std::size_t i = b;
#if defined(BIGMUL_HAVE_AVX2_CODE)
    if (ntt_avx2_supported()) {
      const std::size_t vec_end = b + (mid - b) / 4 * 4;
      load_run(dst, src, b, vec_end, c32, c32_p, p_);
      i = vec_end;
    }
#else
    (void)c32, (void)c32_p;
#endif
    for (; i < mid; ++i) dst[i] = mul_shoup_lazy(src[i], 1, one_shoup, p_);
    std::fill(dst + mid, dst + e, u64{0});
  });
}

void ntt_avx2_plan::pointwise(u64* x, const u64* y, unsigned threads) const {
  threads = prim::resolve_threads(threads);
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (n_ % 4 == 0 && ntt_avx2_supported()) {
    prim::parallel_chunks(n_ / 4, 2048, threads, [&](std::size_t b, std::size_t e) {
      pointwise_run(x, y, 4 * b, 4 * e, scale_, scale_p_, p_);
    });
    return;
  }
#endif
  pointwise_.run(x, y, threads);
}

}  // namespace bigmul::fft
