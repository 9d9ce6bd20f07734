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

// One digit product a b into a column's sums: bits(lo) subtracted, bits(hi) added.
BIGMUL_AVX2 inline void add_product(__m256d a, __m256d b, __m256i& lsum, __m256i& hsum) {
  __m256i h, l;
  split(a, b, h, l);
  lsum = _mm256_sub_epi64(lsum, l);
  hsum = _mm256_add_epi64(hsum, h);
}

// The running state of product scanning: column k's value is its lo terms,
// column k - 1's hi terms (nh of them) and the carry out of column k - 1.
struct column_state {
  __m256i hi_next, carry;
  u64 nh;
};

// Finishes column k (lsum: its nl lo terms; hsum: its hi terms, which go to
// column k + 1): stores its digit in C[k] and moves the state on.
BIGMUL_AVX2 inline void finish_column(u64* C, std::size_t k, __m256i lsum, __m256i hsum, u64 nl, column_state& s) {
  const __m256i v = _mm256_add_epi64(_mm256_add_epi64(_mm256_add_epi64(lsum, s.hi_next), s.carry),
                                     bcast(column_fix(nl, s.nh, k == 0)));
  store_vec(C + 4 * k, _mm256_and_si256(v, bcast(mask52)));
  s.carry = _mm256_srli_epi64(v, 52);
  s.hi_next = hsum;
  s.nh = nl;
}

// Column 2m - 1 (the hi terms of column 2m - 2 and the carry: the product is
// below 2^(104 m), so nothing carries out of it) and the two zero digits.
BIGMUL_AVX2 inline void finish_product(u64* C, std::size_t m, const column_state& s) {
  const __m256i v = _mm256_add_epi64(_mm256_add_epi64(s.hi_next, s.carry), bcast(column_fix(0, s.nh, false)));
  store_vec(C + 4 * (2 * m - 1), _mm256_and_si256(v, bcast(mask52)));
  store_vec(C + 4 * (2 * m), _mm256_setzero_si256());
  store_vec(C + 4 * (2 * m + 1), _mm256_setzero_si256());
}

// Rows [lo, hi] of column k: i from lo to hi, a_i b_(k - i).
inline std::size_t column_lo(std::size_t k, std::size_t m) { return k + 1 > m ? k + 1 - m : 0; }
inline std::size_t column_hi(std::size_t k, std::size_t m) { return std::min(k, m - 1); }

// A A by columns in pairs as product_column_pairs below, each off-diagonal
// product once and counted twice: column k (even) takes rows i < k/2 and the
// diagonal a_(k/2)^2, column k + 1 rows i <= k/2.
BIGMUL_AVX2 inline void square_columns(u64* C, const double* A, std::size_t m) {
  const __m256i zero = _mm256_setzero_si256();
  column_state st{zero, zero, 0};
  std::size_t k = 0;
  for (; k + 2 < 2 * m; k += 2) {
    const std::size_t lo0 = column_lo(k, m), lo1 = column_lo(k + 1, m), half = k / 2;
    __m256i l0 = zero, h0 = zero, l1 = zero, h1 = zero;
    if (lo0 < lo1 && lo0 < half) add_product(_mm256_load_pd(A + 4 * lo0), _mm256_load_pd(A + 4 * (k - lo0)), l0, h0);
    if (lo1 <= half) add_product(_mm256_load_pd(A + 4 * half), _mm256_load_pd(A + 4 * (k + 1 - half)), l1, h1);
    if (lo1 < half) {  // rows lo1 .. half - 1 of both
      const double* pa = A + 4 * lo1;
      const double* pb = A + 4 * (k - lo1);
      __m256d b_next = _mm256_load_pd(pb + 4);
#pragma GCC unroll 2
      for (std::size_t c = half - lo1; c > 0; --c, pa += 4, pb -= 4) {
        const __m256d a = _mm256_load_pd(pa), b = _mm256_load_pd(pb);
        add_product(a, b_next, l1, h1);
        add_product(a, b, l0, h0);
        b_next = b;
      }
    }
    l0 = _mm256_add_epi64(l0, l0);
    h0 = _mm256_add_epi64(h0, h0);
    l1 = _mm256_add_epi64(l1, l1);
    h1 = _mm256_add_epi64(h1, h1);
    const __m256d x = _mm256_load_pd(A + 4 * half);
    add_product(x, x, l0, h0);
    // A square's products counted as added: hi - lo + 1 per column.
    finish_column(C, k, l0, h0, column_hi(k, m) - lo0 + 1, st);
    finish_column(C, k + 1, l1, h1, column_hi(k + 1, m) - lo1 + 1, st);
  }
  // Column 2m - 2: the diagonal a_(m-1)^2 only.
  __m256i l = zero, h = zero;
  const __m256d x = _mm256_load_pd(A + 4 * (m - 1));
  add_product(x, x, l, h);
  finish_column(C, k, l, h, 1, st);
  finish_product(C, m, st);
}

// A B by columns in pairs (k, k + 1): row i's a_i serves both, and b_(k - i)
// serves column k at row i and column k + 1 at row i + 1, so a digit product
// costs one load instead of two and the loop's bookkeeping is shared.
BIGMUL_AVX2 inline void product_column_pairs(u64* C, const double* A, const double* B, std::size_t m) {
  const __m256i zero = _mm256_setzero_si256();
  column_state st{zero, zero, 0};
  std::size_t k = 0;
  for (; k + 2 < 2 * m; k += 2) {
    const std::size_t lo0 = column_lo(k, m), hi0 = column_hi(k, m);
    const std::size_t lo1 = column_lo(k + 1, m), hi1 = column_hi(k + 1, m);  // lo1 - lo0, hi1 - hi0 in {0, 1}
    __m256i l0 = zero, h0 = zero, l1 = zero, h1 = zero;
    if (lo0 < lo1) add_product(_mm256_load_pd(A + 4 * lo0), _mm256_load_pd(B + 4 * (k - lo0)), l0, h0);
    if (hi1 > hi0) add_product(_mm256_load_pd(A + 4 * hi1), _mm256_load_pd(B + 4 * (k + 1 - hi1)), l1, h1);
    const double* pa = A + 4 * lo1;
    const double* pb = B + 4 * (k - lo1);  // b_(k - i) at row i
    __m256d b_next = _mm256_load_pd(pb + 4);  // b_(k + 1 - i): column k + 1's
#pragma GCC unroll 2
    for (std::size_t c = hi0 + 1 - lo1; c > 0; --c, pa += 4, pb -= 4) {  // rows lo1 .. hi0 of both
      const __m256d a = _mm256_load_pd(pa), b = _mm256_load_pd(pb);
      add_product(a, b_next, l1, h1);
      add_product(a, b, l0, h0);
      b_next = b;
    }
    finish_column(C, k, l0, h0, hi0 - lo0 + 1, st);
    finish_column(C, k + 1, l1, h1, hi1 - lo1 + 1, st);
  }
  // Column 2m - 2 (one product) is left over: 2m - 1 columns have products.
  __m256i l = zero, h = zero;
  add_product(_mm256_load_pd(A + 4 * (m - 1)), _mm256_load_pd(B + 4 * (m - 1)), l, h);
  finish_column(C, k, l, h, 1, st);
  finish_product(C, m, st);
}

// C[0 .. 2m) = A * B in normalized 52-bit digits (A, B: m digits as
// doubles), C[2m], C[2m + 1] = 0 (a limb cut may read up to two digits past
// the last). Squares (A == B) take each off-diagonal product once and count it
// twice. Column values stay below 2m 2^52 < 2^62 for m < 1024.
BIGMUL_AVX2 inline void product_columns(u64* C, const double* A, const double* B, std::size_t m) {
  if (A == B) return square_columns(C, A, m);
  product_column_pairs(C, A, B, m);
}

#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace bigmul::detail::lanes_avx2
