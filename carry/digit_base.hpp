// SPDX-License-Identifier: LGPL-3.0-or-later
// The digit base B = 2^k or 10^k of carry normalization, and the per-element
// arithmetic on it (floor division with a non-negative remainder), shared by
// the CPU algorithms and their CUDA twins through BIGMUL_HD.
#pragma once

#include <cstdint>
#include <type_traits>

#include "bigmul/hd.hpp"

namespace bigmul::carry {

// B = 2^digits (binary, 1 <= digits <= 32) or 10^digits (decimal, 1 <= digits <= 9).
struct digit_base {
  bool decimal = false;
  unsigned digits = 16;

  BIGMUL_HD bool valid() const { return decimal ? digits >= 1 && digits <= 9 : digits >= 1 && digits <= 32; }
  BIGMUL_HD std::uint64_t value() const {
    std::uint64_t b = 1;
    for (unsigned i = 0; i < digits; ++i) b *= decimal ? 10 : 2;
    return b;
  }
};

// True for signed integer types, __int128 included (std::is_signed is false
// for __int128 in strict C++20 mode).
template <class T>
inline constexpr bool is_signed_int = T(-1) < T(0);

// B = 2^k: shifts and masks. For signed T, >> is floor division (C++20) and
// & (B-1) the non-negative remainder.
struct binary_base {
  unsigned k;
  BIGMUL_HD std::uint64_t base() const { return std::uint64_t{1} << k; }
  template <class T>
  BIGMUL_HD T div_floor(T x, T& rem) const {
    rem = x & static_cast<T>((std::uint64_t{1} << k) - 1);
    return x >> k;
  }
};

// B = 10^K with K a compile-time constant, so the compiler turns the
// divisions into multiplications.
template <unsigned K>
struct decimal_base {
  static constexpr std::uint64_t B = [] {
    std::uint64_t b = 1;
    for (unsigned i = 0; i < K; ++i) b *= 10;
    return b;
  }();
  BIGMUL_HD std::uint64_t base() const { return B; }
  template <class T>
  BIGMUL_HD T div_floor(T x, T& rem) const {
    T q = x / static_cast<T>(B);
    T r = x - q * static_cast<T>(B);
    if constexpr (is_signed_int<T>) {
      if (r < 0) {
        r += static_cast<T>(B);
        --q;
      }
    }
    rem = r;
    return q;
  }
};

// Calls f(std::integral_constant<unsigned, K>{}) for K = k, so that code for
// 10^K digits can be compiled per K. 1 <= k <= 9; callers validate (k > 9
// acts as 9).
template <class F>
decltype(auto) with_decimal_digits(unsigned k, F&& f) {
  switch (k) {
    case 1: return f(std::integral_constant<unsigned, 1>{});
    case 2: return f(std::integral_constant<unsigned, 2>{});
    case 3: return f(std::integral_constant<unsigned, 3>{});
    case 4: return f(std::integral_constant<unsigned, 4>{});
    case 5: return f(std::integral_constant<unsigned, 5>{});
    case 6: return f(std::integral_constant<unsigned, 6>{});
    case 7: return f(std::integral_constant<unsigned, 7>{});
    case 8: return f(std::integral_constant<unsigned, 8>{});
    default: return f(std::integral_constant<unsigned, 9>{});
  }
}

// Calls f(base) with the arithmetic type for b: binary_base or decimal_base<K>.
template <class F>
decltype(auto) with_base(digit_base b, F&& f) {
  if (!b.decimal) return f(binary_base{b.digits});
  return with_decimal_digits(b.digits, [&](auto K) { return f(decimal_base<decltype(K)::value>{}); });
}

// Phase-2 split of a phase-1 position value s >= -1 (see carry_two_phase.hpp):
// s = v + B q with v in [1, B], so that v + q_previous >= 0 even when the
// previous position's q is -1.
template <class Base>
BIGMUL_HD std::int64_t split_high(const Base& base, std::int64_t s, std::int64_t& v) {
  std::int64_t r;
  const std::int64_t q = base.div_floor(s - 1, r);
  v = r + 1;
  return q;
}

}  // namespace bigmul::carry
