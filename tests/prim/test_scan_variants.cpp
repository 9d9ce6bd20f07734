// SPDX-License-Identifier: LGPL-3.0-or-later
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "prim/copy_if.hpp"
#include "prim/ops.hpp"
#include "prim/scan.hpp"
#include "prim/scan_batched.hpp"
#include "prim/scan_segmented.hpp"
#include "prim_test_util.hpp"

using namespace bigmul::prim;
using bigmul::prim::test::sizes;
using bigmul::prim::test::random_mat;
using bigmul::prim::test::thread_counts;

namespace {

template <class T, class Op>
std::vector<T> serial_segmented(const std::vector<T>& in, const std::vector<std::uint8_t>& heads, Op op, T id,
                                bool inclusive) {
  std::vector<T> out(in.size());
  T acc = id;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i == 0 || heads[i]) acc = id;
    if (inclusive) {
      out[i] = acc = op(acc, in[i]);
    } else {
      out[i] = acc;
      acc = op(acc, in[i]);
    }
  }
  return out;
}

}  // namespace

TEST(ScanVariants, InclusiveAndExclusiveInt32AllSizes) {
  auto g = bigmul::test::rng(201);
  for (std::size_t n : sizes()) {
    std::vector<std::int32_t> in(n), out(n), ref(n), eref(n);
    for (auto& x : in) x = static_cast<std::int32_t>(g() % 1000) - 500;
    std::inclusive_scan(in.begin(), in.end(), ref.begin());
    std::exclusive_scan(in.begin(), in.end(), eref.begin(), 0);
    for (unsigned t : thread_counts) {
      inclusive_scan(in.data(), out.data(), n, plus_op{}, 0, t);
      ASSERT_EQ(out, ref) << "n=" << n << " t=" << t;
      exclusive_scan(in.data(), out.data(), n, plus_op{}, 0, t);
      ASSERT_EQ(out, eref) << "n=" << n << " t=" << t;
    }
  }
}

TEST(ScanVariants, CarryOperatorMatchesSerial) {
  auto g = bigmul::test::rng(202);
  for (std::size_t n : sizes(17)) {
    std::vector<carry_gp> in(n), ref(n), out(n);
    for (auto& x : in) {
      const unsigned r = g() % 8;
      x = r == 0 ? carry_gp{1, 0} : r == 1 ? carry_gp{0, 0} : carry_gp{0, 1};
    }
    carry_gp acc = carry_identity;
    for (std::size_t i = 0; i < n; ++i) ref[i] = acc = carry_op{}(acc, in[i]);
    for (unsigned t : thread_counts) {
      inclusive_scan(in.data(), out.data(), n, carry_op{}, carry_identity, t);
      ASSERT_EQ(out, ref) << "n=" << n << " t=" << t;
    }
  }
}

TEST(ScanVariants, BatchedMatchesPerProblemScan) {
  auto g = bigmul::test::rng(203);
  const std::size_t shapes[][2] = {{0, 5}, {3, 0}, {1, 1}, {1, 100003}, {7, 1}, {1000, 3}, {33, 4097}, {5, 70001}, {4096, 64}};
  for (const auto& shape : shapes) {
    const std::size_t G = shape[0], N = shape[1];
    std::vector<mat2> in(G * N), ref(G * N), eref(G * N), out(G * N);
    for (auto& m : in) m = random_mat(g);
    for (std::size_t p = 0; p < G; ++p) {
      mat2 acc = mat2_identity;
      for (std::size_t i = p * N; i < (p + 1) * N; ++i) {
        eref[i] = acc;
        ref[i] = acc = mat2_mul_op{}(acc, in[i]);
      }
    }
    for (unsigned t : thread_counts) {
      batched_inclusive_scan(in.data(), out.data(), G, N, mat2_mul_op{}, mat2_identity, t);
      ASSERT_EQ(out, ref) << "G=" << G << " N=" << N << " t=" << t;
      batched_exclusive_scan(in.data(), out.data(), G, N, mat2_mul_op{}, mat2_identity, t);
      ASSERT_EQ(out, eref) << "G=" << G << " N=" << N << " t=" << t;
      out = in;
      batched_inclusive_scan(out.data(), out.data(), G, N, mat2_mul_op{}, mat2_identity, t);
      ASSERT_EQ(out, ref) << "in place, G=" << G << " N=" << N << " t=" << t;
    }
  }
}

TEST(ScanVariants, SegmentedMatchesSerial) {
  auto g = bigmul::test::rng(204);
  for (std::size_t n : sizes()) {
    for (unsigned density : {0u, 2u, 1000u, 100000u}) {  // head every ~density elements (0: none)
      std::vector<std::uint64_t> in(n), out(n);
      std::vector<std::uint8_t> heads(n, 0);
      for (auto& x : in) x = g();
      if (density)
        for (auto& h : heads) h = g() % density == 0;
      const auto ref = serial_segmented(in, heads, std::plus<>{}, std::uint64_t{0}, true);
      const auto eref = serial_segmented(in, heads, std::plus<>{}, std::uint64_t{0}, false);
      for (unsigned t : thread_counts) {
        segmented_inclusive_scan(in.data(), heads.data(), out.data(), n, plus_op{}, std::uint64_t{0}, t);
        ASSERT_EQ(out, ref) << "n=" << n << " density=" << density << " t=" << t;
        segmented_exclusive_scan(in.data(), heads.data(), out.data(), n, plus_op{}, std::uint64_t{0}, t);
        ASSERT_EQ(out, eref) << "n=" << n << " density=" << density << " t=" << t;
      }
    }
  }
}

TEST(ScanVariants, SegmentedNonCommutative) {
  auto g = bigmul::test::rng(205);
  const std::size_t n = 150001;
  std::vector<mat2> in(n), out(n);
  std::vector<std::uint8_t> heads(n);
  for (auto& m : in) m = random_mat(g);
  for (auto& h : heads) h = g() % 5000 == 0;
  const auto ref = serial_segmented(in, heads, mat2_mul_op{}, mat2_identity, true);
  for (unsigned t : thread_counts) {
    segmented_inclusive_scan(in.data(), heads.data(), out.data(), n, mat2_mul_op{}, mat2_identity, t);
    ASSERT_EQ(out, ref) << "t=" << t;
  }
}

TEST(CopyIf, MatchesStdCopyIf) {
  auto g = bigmul::test::rng(206);
  for (std::size_t n : sizes()) {
    std::vector<std::int64_t> in(n);
    for (auto& x : in) x = static_cast<std::int64_t>(g() % 1000);
    for (int keep : {0, 1, 500, 1000}) {  // keep x < keep: none, few, half, all
      const auto pred = [keep](std::int64_t x) { return x < keep; };
      std::vector<std::int64_t> ref;
      std::copy_if(in.begin(), in.end(), std::back_inserter(ref), pred);
      for (unsigned t : thread_counts) {
        std::vector<std::int64_t> out(n + 1, -1);
        const std::size_t k = copy_if(in.data(), n, out.data(), pred, t);
        ASSERT_EQ(k, ref.size()) << "n=" << n << " keep=" << keep << " t=" << t;
        ASSERT_TRUE(std::equal(ref.begin(), ref.end(), out.begin()));
        ASSERT_EQ(out[k], -1) << "wrote past the end";
      }
    }
  }
}

TEST(CopyIf, InPlaceCompacts) {
  std::vector<int> v(100);
  std::iota(v.begin(), v.end(), 0);
  const std::size_t k = copy_if(v.data(), v.size(), v.data(), [](int x) { return x % 3 == 0; }, 3);
  ASSERT_EQ(k, 34u);
  for (std::size_t i = 0; i < k; ++i) EXPECT_EQ(v[i], static_cast<int>(3 * i));
}
