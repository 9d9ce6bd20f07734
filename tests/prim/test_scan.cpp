// SPDX-License-Identifier: LGPL-3.0-or-later
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

#include "prim/scan.hpp"
#include "test_support.hpp"

using namespace bigmul::prim;

namespace {
// 2x2 matrix product mod 2^64: associative, not commutative.
using mat = std::array<std::uint64_t, 4>;
mat matmul(const mat& x, const mat& y) {
  return {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
          x[2] * y[1] + x[3] * y[3]};
}
const mat mat_identity{1, 0, 0, 1};
}  // namespace

TEST(Scan, InclusiveMatchesStdForSums) {
  auto g = bigmul::test::rng(1);
  for (unsigned threads : {1u, 2u, 4u}) {
    for (std::size_t n : {0u, 1u, 2u, 1000u, (1u << 16) - 1, (1u << 16) + 1, 300001u}) {
      std::vector<std::uint64_t> in(n), out(n), ref(n);
      for (auto& x : in) x = g();
      std::inclusive_scan(in.begin(), in.end(), ref.begin());
      inclusive_scan(in.data(), out.data(), n, std::plus<>{}, std::uint64_t{0}, threads);
      ASSERT_EQ(out, ref) << "n=" << n << " threads=" << threads;
    }
  }
}

TEST(Scan, ExclusiveMatchesStdAndReturnsTotal) {
  auto g = bigmul::test::rng(2);
  for (unsigned threads : {1u, 3u}) {
    for (std::size_t n : {0u, 1u, 5u, 100000u}) {
      std::vector<std::uint64_t> in(n), out(n), ref(n);
      for (auto& x : in) x = g();
      std::exclusive_scan(in.begin(), in.end(), ref.begin(), std::uint64_t{0});
      const auto total = exclusive_scan(in.data(), out.data(), n, std::plus<>{}, std::uint64_t{0}, threads);
      ASSERT_EQ(out, ref);
      EXPECT_EQ(total, std::accumulate(in.begin(), in.end(), std::uint64_t{0}));
    }
  }
}

TEST(Scan, NonCommutativeMatrixProductInPlace) {
  auto g = bigmul::test::rng(3);
  const std::size_t n = 200003;
  std::vector<mat> in(n);
  for (auto& m : in) m = {g() % 7, g() % 7, g() % 7, g() % 7};
  std::vector<mat> ref(n);
  mat acc = mat_identity;
  for (std::size_t i = 0; i < n; ++i) ref[i] = acc = matmul(acc, in[i]);
  for (unsigned threads : {1u, 2u, 7u}) {
    std::vector<mat> work = in;
    inclusive_scan(work.data(), work.data(), n, matmul, mat_identity, threads);
    ASSERT_EQ(work, ref) << "threads=" << threads;
  }
}
