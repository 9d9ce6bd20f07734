// SPDX-License-Identifier: LGPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "prim/ops.hpp"
#include "prim/reduce.hpp"
#include "prim_test_util.hpp"

using namespace bigmul::prim;
using bigmul::prim::test::sizes;
using bigmul::prim::test::random_mat;
using bigmul::prim::test::thread_counts;

namespace {

}  // namespace

TEST(Reduce, SumsMatchStdReduce) {
  auto g = bigmul::test::rng(101);
  for (std::size_t n : sizes()) {
    std::vector<std::uint64_t> in(n);
    for (auto& x : in) x = g();
    const std::uint64_t ref = std::reduce(in.begin(), in.end(), std::uint64_t{0});
    for (unsigned t : thread_counts) {
      EXPECT_EQ(cascading_reduce(in.data(), n, plus_op{}, std::uint64_t{0}, t), ref) << "n=" << n << " t=" << t;
      EXPECT_EQ(pipeline_reduce(in.data(), n, plus_op{}, std::uint64_t{0}, t), ref) << "n=" << n << " t=" << t;
      EXPECT_EQ(tree_reduce(in.data(), n, plus_op{}, std::uint64_t{0}, t), ref) << "n=" << n << " t=" << t;
    }
  }
}

TEST(Reduce, Int32MaxAndMin) {
  auto g = bigmul::test::rng(102);
  for (std::size_t n : {1u, 17u, 100000u}) {
    std::vector<std::int32_t> in(n);
    for (auto& x : in) x = static_cast<std::int32_t>(g());
    for (unsigned t : thread_counts) {
      EXPECT_EQ(reduce(in.data(), n, max_op{}, INT32_MIN, operand_order::commutative, t),
                *std::max_element(in.begin(), in.end()));
      EXPECT_EQ(reduce(in.data(), n, min_op{}, INT32_MAX, operand_order::ordered, t),
                *std::min_element(in.begin(), in.end()));
    }
  }
}

TEST(Reduce, MatrixProductKeepsOrder) {
  auto g = bigmul::test::rng(103);
  for (std::size_t n : sizes(17)) {
    std::vector<mat2> in(n);
    for (auto& m : in) m = random_mat(g);
    const mat2 ref = std::accumulate(in.begin(), in.end(), mat2_identity, mat2_mul_op{});
    for (unsigned t : thread_counts) {
      EXPECT_EQ(pipeline_reduce(in.data(), n, mat2_mul_op{}, mat2_identity, t), ref) << "n=" << n << " t=" << t;
      EXPECT_EQ(tree_reduce(in.data(), n, mat2_mul_op{}, mat2_identity, t), ref) << "n=" << n << " t=" << t;
      EXPECT_EQ(reduce(in.data(), n, mat2_mul_op{}, mat2_identity, operand_order::ordered, t), ref);
    }
  }
}

TEST(Reduce, MatrixProductIsReallyNonCommutative) {
  // Guards the test above: reversing the operands must change the product.
  auto g = bigmul::test::rng(104);
  std::vector<mat2> in(1000);
  for (auto& m : in) m = random_mat(g);
  const mat2 fwd = std::accumulate(in.begin(), in.end(), mat2_identity, mat2_mul_op{});
  const mat2 bwd = std::accumulate(in.rbegin(), in.rend(), mat2_identity, mat2_mul_op{});
  EXPECT_FALSE(fwd == bwd);
}

TEST(Reduce, CarryPairsKeepOrder) {
  auto g = bigmul::test::rng(105);
  for (std::size_t n : sizes(17)) {
    std::vector<carry_gp> in(n);
    // Mostly propagate, so the answer depends on the few generate/kill runs.
    for (auto& x : in) {
      const unsigned r = g() % 16;
      x = r == 0 ? carry_gp{1, 0} : r == 1 ? carry_gp{0, 0} : carry_gp{0, 1};
    }
    const carry_gp ref = std::accumulate(in.begin(), in.end(), carry_identity, carry_op{});
    for (unsigned t : thread_counts) {
      EXPECT_EQ(pipeline_reduce(in.data(), n, carry_op{}, carry_identity, t), ref) << "n=" << n;
      EXPECT_EQ(tree_reduce(in.data(), n, carry_op{}, carry_identity, t), ref) << "n=" << n;
    }
  }
}

TEST(Reduce, MaximumSegmentSumByTransformReduce) {
  // [KOIKE15 §4.2]'s example: [3,-1,-4,1,5,-9,2] -> 6.
  const std::int64_t example[] = {3, -1, -4, 1, 5, -9, 2};
  EXPECT_EQ(transform_reduce<mss>(example, 7, mss_of{}, mss_op{}, mss_identity).best, 6);
  auto g = bigmul::test::rng(106);
  for (std::size_t n : sizes(17)) {
    std::vector<std::int64_t> in(n);
    for (auto& x : in) x = static_cast<std::int64_t>(g() % 201) - 100;
    // Kadane's algorithm as the oracle.
    std::int64_t best = 0, cur = 0;
    for (std::int64_t x : in) {
      cur = std::max<std::int64_t>(0, cur + x);
      best = std::max(best, cur);
    }
    for (unsigned t : thread_counts)
      EXPECT_EQ(transform_reduce<mss>(in.data(), n, mss_of{}, mss_op{}, mss_identity, operand_order::ordered, t).best,
                best)
          << "n=" << n << " t=" << t;
  }
}

TEST(Reduce, TransformReduceCommutative) {
  std::vector<std::int32_t> in(70001);
  std::iota(in.begin(), in.end(), -35000);
  const auto sq = [](std::int32_t x) { return static_cast<std::int64_t>(x) * x; };
  const std::int64_t ref = std::transform_reduce(in.begin(), in.end(), std::int64_t{0}, std::plus<>{}, sq);
  for (unsigned t : thread_counts)
    EXPECT_EQ(transform_reduce<std::int64_t>(in.data(), in.size(), sq, plus_op{}, std::int64_t{0},
                                             operand_order::commutative, t),
              ref);
}
