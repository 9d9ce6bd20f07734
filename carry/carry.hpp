// SPDX-License-Identifier: LGPL-3.0-or-later
// Carry normalization: product coefficients (any sign, any width) -> digits
// in [0, B), B = 2^k or 10^k.
//   carry_normalize_sequential   the reference (carry/carry_sequential.hpp)
//   carry_normalize_two_phase    bounded spread + carry look-ahead scan
//   carry_normalize              what the multipliers call: the two-phase one
// Each writes the digits of V = sum_i c[i] B^i into out[0..m) and returns true
// when 0 <= V < B^m; a false return means the product is not what the caller
// believes (an FFT that went wrong) and out must not be used.
#pragma once

#include <cstddef>
#include <cstdint>

#include "carry/digit_base.hpp"

namespace bigmul::carry {

// Positions per chunk of the two-phase algorithm's parallel passes.
inline constexpr std::size_t two_phase_grain = 1 << 14;

template <class T>
bool carry_normalize_sequential(const T* c, std::size_t nc, digit_base b, std::uint32_t* out, std::size_t m);

// max_abs > 0 promises |c[i]| <= max_abs (fewer digits to spread); 0: T's range.
template <class T>
bool carry_normalize_two_phase(const T* c, std::size_t nc, digit_base b, std::uint32_t* out, std::size_t m,
                               unsigned threads, std::uint64_t max_abs = 0);

template <class T>
bool carry_normalize(const T* c, std::size_t nc, digit_base b, std::uint32_t* out, std::size_t m,
                     unsigned threads, std::uint64_t max_abs = 0) {
  return carry_normalize_two_phase(c, nc, b, out, m, threads, max_abs);
}

// Instantiated in carry/carry.cpp for the coefficient types the multipliers
// produce: int64 (rounded FFT output) and unsigned __int128 (exact tiled sums).
#define BIGMUL_CARRY_EXTERN(T)                                                                              \
  extern template bool carry_normalize_sequential<T>(const T*, std::size_t, digit_base, std::uint32_t*,     \
                                                     std::size_t);                                          \
  extern template bool carry_normalize_two_phase<T>(const T*, std::size_t, digit_base, std::uint32_t*,      \
                                                    std::size_t, unsigned, std::uint64_t);
BIGMUL_CARRY_EXTERN(std::int64_t)
BIGMUL_CARRY_EXTERN(unsigned __int128)
#undef BIGMUL_CARRY_EXTERN

}  // namespace bigmul::carry
