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

#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace bigmul::detail::lanes_avx2
