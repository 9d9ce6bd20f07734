// SPDX-License-Identifier: LGPL-3.0-or-later
// The exact 52 x 52-bit digit product of the AVX2 crypto lanes
// (mul/batched_avx2.cpp, src/arith/montgomery_avx2.cpp): AVX2 has no 64-bit
// multiply-high, so each product a b (a, b < 2^52 held exactly as doubles) is
// split with two FMAs (an FMA rounds once, so a b - s is exact when it fits
// 53 bits, the error-free product fft/ntt_avx2_arith.hpp rests on too):
//   hi = fma(a, b, 2^104)       = 2^104 + H 2^52, H = round(a b / 2^52)
//                                 (in [2^104, 2^105] the doubles step by 2^52);
//   s  = hi - (2^104 - 3 2^51)  = (2 H + 3) 2^51, exact (2 H + 3 < 2^53);
//   lo = fnmadd(a, b, s)        = 3 2^51 - L, L = a b - H 2^52 in [-2^51, 2^51],
//                                 an integer in [2^52, 2^53]: exact.
// The bit patterns are then integers: bits(hi) = hi_bias + H and bits(lo) =
// lo_bias - L, so a digit accumulator adds bits(hi) and subtracts bits(lo) with
// 64-bit integer adds (wrapping) and removes the biases once, from the known
// count of terms. The values never leave normal doubles (integers, 0 or at
// least 2^52 in magnitude): no subnormal operand can make an FMA slower, so
// the run time does not depend on the digits.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "fft/ntt_avx2_arith.hpp"  // BIGMUL_AVX2, BIGMUL_HAVE_AVX2_CODE

namespace bigmul::detail::lanes_avx2 {

using u64 = std::uint64_t;

inline constexpr u64 mask52 = (u64{1} << 52) - 1;
inline constexpr u64 bits_2p52 = 0x4330000000000000;                 // the double 2^52
inline constexpr u64 hi_bias = 0x4670000000000000;                   // the double 2^104
inline constexpr u64 lo_bias = bits_2p52 + (u64{1} << 51);           // bits(lo) = lo_bias - L
// A carry taken as the logical shift of a value biased by 2^63 (AVX2 has no
// 64-bit arithmetic shift) comes out 2^11 too large.
inline constexpr u64 shift_bias = u64{1} << 63, carry_bias = u64{1} << 11;

#if defined(BIGMUL_HAVE_AVX2_CODE)

BIGMUL_AVX2 inline __m256i bcast(u64 v) { return _mm256_set1_epi64x(static_cast<long long>(v)); }

// Digits d < 2^52 (64-bit lanes) as doubles: 2^52 + d by the exponent's bits, minus 2^52.
BIGMUL_AVX2 inline __m256d to_double(__m256i d) {
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(d, bcast(bits_2p52))), _mm256_set1_pd(0x1p52));
}

// hi and lo of a b as above (a, b: integer doubles below 2^52).
BIGMUL_AVX2 inline void split(__m256d a, __m256d b, __m256i& hi, __m256i& lo) {
  const __m256d h = _mm256_fmadd_pd(a, b, _mm256_set1_pd(0x1p104));
  const __m256d s = _mm256_sub_pd(h, _mm256_set1_pd(0x1p104 - 0x3p51));
  hi = _mm256_castpd_si256(h);
  lo = _mm256_castpd_si256(_mm256_fnmadd_pd(a, b, s));
}

BIGMUL_AVX2 inline void store_vec(u64* p, __m256i v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }

// The constant that turns column k's wrapped sum (lo terms subtracted: nl of
// them; hi terms added: nh; a carry 2^11 too large unless k = 0) into its
// value + 2^63.
inline constexpr u64 column_fix(u64 nl, u64 nh, bool first) {
  return nl * lo_bias - nh * hi_bias + shift_bias - (first ? 0 : carry_bias);
}

// C[0 .. 2m) = A * B in normalized 52-bit digits (A, B: m digits as
// doubles), C[2m], C[2m + 1] = 0 (a limb cut may read up to two digits past
// the last). Squares (A == B) take each off-diagonal product once and count it
// twice. Column values stay below 2m 2^52 < 2^62 for m < 1024.
BIGMUL_AVX2 inline void product_columns(u64* C, const double* A, const double* B, std::size_t m) {
  const bool square = A == B;
  const __m256i zero = _mm256_setzero_si256(), mask = bcast(mask52);
  __m256i hi_next = zero;  // the hi terms of column k - 1's products
  __m256i carry = zero;
  u64 nh = 0;              // how many
  for (std::size_t k = 0; k + 1 < 2 * m; ++k) {
    const std::size_t lo = k + 1 > m ? k + 1 - m : 0, hi = std::min(k, m - 1);
    // Rows [lo, last); a square's: those with i < k - i, the diagonal apart.
    const std::size_t last = !square ? hi + 1 : k == 0 ? lo : std::max(lo, (k - 1) / 2 + 1);
    __m256i lsum = zero, hsum = zero;
    const double* pa = A + 4 * lo;
    const double* pb = B + 4 * (k - lo);
    // Unrolled: one digit product is five vector operations, and the loop's
    // own bookkeeping would otherwise take as many issue slots.
#pragma GCC unroll 4
    for (std::size_t c = last > lo ? last - lo : 0; c > 0; --c, pa += 4, pb -= 4) {
      __m256i h, l;
      split(_mm256_load_pd(pa), _mm256_load_pd(pb), h, l);
      lsum = _mm256_sub_epi64(lsum, l);
      hsum = _mm256_add_epi64(hsum, h);
    }
    if (square) {
      lsum = _mm256_add_epi64(lsum, lsum);
      hsum = _mm256_add_epi64(hsum, hsum);
      if (k % 2 == 0) {  // the diagonal product a_(k/2)^2
        __m256i h, l;
        const __m256d x = _mm256_load_pd(A + 4 * (k / 2));
        split(x, x, h, l);
        lsum = _mm256_sub_epi64(lsum, l);
        hsum = _mm256_add_epi64(hsum, h);
      }
    }
    const u64 nl = hi - lo + 1;  // digit products in column k (a square's counted as added)
    const __m256i v = _mm256_add_epi64(_mm256_add_epi64(_mm256_add_epi64(lsum, hi_next), carry),
                                       bcast(column_fix(nl, nh, k == 0)));
    store_vec(C + 4 * k, _mm256_and_si256(v, mask));
    carry = _mm256_srli_epi64(v, 52);
    hi_next = hsum;
    nh = nl;
  }
  // Column 2m - 1: the hi terms of column 2m - 2 and the carry; the product
  // is below 2^(104 m), so nothing carries out of it.
  const __m256i v = _mm256_add_epi64(_mm256_add_epi64(hi_next, carry), bcast(column_fix(0, nh, false)));
  store_vec(C + 4 * (2 * m - 1), _mm256_and_si256(v, mask));
  store_vec(C + 4 * (2 * m), zero);
  store_vec(C + 4 * (2 * m + 1), zero);
}

#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace bigmul::detail::lanes_avx2
