// SPDX-License-Identifier: LGPL-3.0-or-later
// Per-period arithmetic of coefficient split and join (see coefficients.hpp
// for periods), shared by the CPU code (mul/coefficients.cpp,
// coefficients_impl.hpp) and its CUDA twin (mul/cuda/coefficients_device.cu)
// through BIGMUL_HD. C++17 (nvcc compiles it).
//
// Limbs and digits are read through accessors (load(j) -> limb j, digit(i) ->
// digit i) so the CPU passes plain pointers and the GPU bounds-checked global
// loads (zero past the end) to the same arithmetic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "bigmul/config.hpp"
#include "bigmul/hd.hpp"

namespace bigmul::detail {

BIGMUL_HD constexpr std::uint64_t pow10_u64(unsigned e) {
  std::uint64_t r = 1;
  for (unsigned i = 0; i < e; ++i) r *= 10;
  return r;
}

// ---- binary, B = 2^k --------------------------------------------------------
// Digit i: bits [i k, i k + k) of the limbs. With load() relative to a
// period's first limb, i is the digit's index inside the period; with load()
// over the whole number, its global index (periods are bit-aligned).
template <class Load>
BIGMUL_HD std::uint32_t binary_digit(Load&& load, unsigned k, std::size_t i) {
  const std::size_t bit = i * k, j = bit / 64, off = bit % 64;
  limb_t v = load(j) >> off;
  if (off + k > 64) v |= load(j + 1) << (64 - off);
  return static_cast<std::uint32_t>(v & ((limb_t{1} << k) - 1));
}

// Limb j of joined digits (each < 2^k): the digits overlapping bits
// [64 j, 64 j + 64), shifted into place.
template <class Digit>
BIGMUL_HD limb_t binary_limb(Digit&& digit, unsigned k, std::size_t j) {
  const std::size_t bit0 = 64 * j, i0 = bit0 / k, i1 = (bit0 + 63) / k;
  limb_t v = 0;
  for (std::size_t i = i0; i <= i1; ++i) {
    const std::size_t bit = i * k;
    const limb_t d = digit(i);
    v |= bit >= bit0 ? d << (bit - bit0) : d >> (bit0 - bit);
  }
  return v;
}

// ---- decimal, B = 10^K: a period is K limbs = 19 digits ----------------------
// Digit I of a period: compile-time offsets, so the divisions are by constants.
template <unsigned K, unsigned I, class Load>
BIGMUL_HD std::uint32_t decimal_digit(Load&& load) {
  constexpr unsigned d = I * K, j = d / 19, off = d % 19;
  constexpr std::uint64_t p_off = pow10_u64(off);
  if constexpr (off + K <= 19) {
    constexpr std::uint64_t p_k = pow10_u64(K);
    return static_cast<std::uint32_t>((load(j) / p_off) % p_k);
  } else {
    constexpr unsigned low_digits = 19 - off;
    constexpr std::uint64_t p_high = pow10_u64(K - low_digits), p_low = pow10_u64(low_digits);
    return static_cast<std::uint32_t>(load(j) / p_off + (load(j + 1) % p_high) * p_low);
  }
}

// Calls visit(I, digit I) for I = 0..18 in order.
template <unsigned K, class Load, class Visit, unsigned... I>
BIGMUL_HD void decimal_period_digits(Load&& load, Visit&& visit, std::integer_sequence<unsigned, I...>) {
  (visit(I, decimal_digit<K, I>(load)), ...);
}
template <unsigned K, class Load, class Visit>
BIGMUL_HD void decimal_period_digits(Load&& load, Visit&& visit) {
  decimal_period_digits<K>(load, visit, std::make_integer_sequence<unsigned, 19>{});
}

template <unsigned K, unsigned I, class Digit>
BIGMUL_HD void decimal_put(Digit&& digit, limb_t* L) {
  constexpr unsigned pos = I * K, j = pos / 19, off = pos % 19;
  constexpr std::uint64_t p_off = pow10_u64(off);
  const limb_t d = digit(I);
  if constexpr (off + K <= 19) {
    L[j] += d * p_off;
  } else {
    constexpr unsigned low_digits = 19 - off;
    constexpr std::uint64_t p_low = pow10_u64(low_digits);
    L[j] += (d % p_low) * p_off;
    L[j + 1] += d / p_low;
  }
}

// The K limbs of a period from its 19 digits (each < 10^K), overwriting L[0..K).
template <unsigned K, class Digit, unsigned... I>
BIGMUL_HD void decimal_period_join(Digit&& digit, limb_t* L, std::integer_sequence<unsigned, I...>) {
  for (unsigned j = 0; j < K; ++j) L[j] = 0;
  (decimal_put<K, I>(digit, L), ...);
}
template <unsigned K, class Digit>
BIGMUL_HD void decimal_period_join(Digit&& digit, limb_t* L) {
  decimal_period_join<K>(digit, L, std::make_integer_sequence<unsigned, 19>{});
}

// ---- balanced digits -------------------------------------------------------
// One step of the balanced split's carry chain: plain digit d in [0, B) with
// carry-in c; returns the balanced digit in [-B/2, B/2) and sets c to the
// carry out (d + c >= B/2). 64-bit arithmetic: d + c reaches 2^32 for k = 32.
BIGMUL_HD std::int64_t balanced_step(std::uint32_t d, std::uint32_t& c, std::uint64_t B) {
  const std::uint64_t v = std::uint64_t{d} + c;
  c = v >= B / 2 ? 1u : 0u;
  return static_cast<std::int64_t>(v) - (c ? static_cast<std::int64_t>(B) : 0);
}
// The digit's carry look-ahead flags: generates (carry out whatever the
// carry in) and propagates (carry out == carry in).
BIGMUL_HD bool balanced_generates(std::uint32_t d, std::uint64_t B) { return d >= B / 2; }
BIGMUL_HD bool balanced_propagates(std::uint32_t d, std::uint64_t B) { return std::uint64_t{d} + 1 == B / 2; }

}  // namespace bigmul::detail
