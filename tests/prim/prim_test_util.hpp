// SPDX-License-Identifier: LGPL-3.0-or-later
// Sizes and inputs shared by the prim tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "prim/ops.hpp"
#include "test_support.hpp"

namespace bigmul::prim::test {

// 0, 1, 2, and 2^k - 1, 2^k, 2^k + 1 up to 2^max_log (2^24 with heavy()).
inline std::vector<std::size_t> sizes(unsigned max_log = 18) {
  if (bigmul::test::heavy()) max_log = 24;
  std::vector<std::size_t> s{0, 1, 2, 3};
  for (unsigned k = 2; k <= max_log; k += (k < 8 ? 1 : 3)) {
    const std::size_t p = std::size_t{1} << k;
    s.push_back(p - 1);
    s.push_back(p);
    s.push_back(p + 1);
  }
  return s;
}

inline const unsigned thread_counts[] = {1, 2, 3};

// A random 2x2 matrix of determinant 1, so long products stay invertible mod
// 2^64 instead of collapsing to 0 (which would hide an order bug).
inline mat2 random_mat(std::mt19937_64& g) {
  const std::uint64_t a = g(), b = g();
  return mat2{1 + a * b, a, b, 1};
}

enum class pattern { random, sorted, reversed, all_equal, few_distinct };
inline const pattern patterns[] = {pattern::random, pattern::sorted, pattern::reversed, pattern::all_equal,
                                   pattern::few_distinct};
inline const char* name(pattern p) {
  switch (p) {
    case pattern::random: return "random";
    case pattern::sorted: return "sorted";
    case pattern::reversed: return "reversed";
    case pattern::all_equal: return "all_equal";
    case pattern::few_distinct: return "few_distinct";
  }
  return "?";
}

template <class T>
std::vector<T> make_keys(pattern p, std::size_t n, std::mt19937_64& g) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (p) {
      case pattern::random: v[i] = static_cast<T>(g()); break;
      case pattern::sorted: v[i] = static_cast<T>(i / 3); break;
      case pattern::reversed: v[i] = static_cast<T>(n - i); break;
      case pattern::all_equal: v[i] = T{7}; break;
      case pattern::few_distinct: v[i] = static_cast<T>(g() % 4); break;
    }
  }
  return v;
}

}  // namespace bigmul::prim::test
