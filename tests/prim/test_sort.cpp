// SPDX-License-Identifier: LGPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "prim/bitonic_plan.hpp"
#include "prim/sort_bitonic.hpp"
#include "prim/sort_bitonic_batched.hpp"
#include "prim/sort_merge.hpp"
#include "prim_test_util.hpp"

using namespace bigmul::prim;
using bigmul::prim::test::make_keys;
using bigmul::prim::test::name;
using bigmul::prim::test::patterns;
using bigmul::prim::test::sizes;
using bigmul::prim::test::thread_counts;

TEST(BitonicPlan, PhasesCoverEveryStepOnceInOrder) {
  for (unsigned log_n : {1u, 5u, 12u, 13u, 20u}) {
    for (unsigned log_part : {3u, 8u, 12u}) {
      const auto phases = plan_bitonic_phases(log_n, log_part, 3);
      std::size_t steps = 0;
      for (const auto& ph : phases) {
        ASSERT_LE(ph.basis.size(), std::min(log_part, log_n));
        const auto off = bitonic_part_offsets(ph);
        for (const auto& st : ph.steps) {
          // The local mask maps to the next expected global step.
          std::size_t left = steps;
          unsigned s = 1;
          while (left >= s) left -= s++;
          const unsigned k = static_cast<unsigned>(left);
          const bitonic_step want = bitonic_stage_step(s, k);
          EXPECT_EQ(off[st.local_mask], want.mask) << "log_n=" << log_n << " step " << steps;
          EXPECT_EQ(st.lead, want.lead);
          ++steps;
        }
      }
      EXPECT_EQ(steps, std::size_t{log_n} * (log_n + 1) / 2);
    }
  }
}

TEST(BitonicPlan, PartsTileTheIndexSpace) {
  const unsigned log_n = 14;
  for (const auto& ph : plan_bitonic_phases(log_n, 6, 2)) {
    const auto off = bitonic_part_offsets(ph);
    std::vector<int> seen(std::size_t{1} << log_n, 0);
    for (std::uint64_t q = 0; q < seen.size() / off.size(); ++q) {
      const std::uint64_t base = bitonic_part_base(ph, log_n, q);
      for (auto o : off) ++seen[base ^ o];
    }
    for (int s : seen) ASSERT_EQ(s, 1);
  }
}

TEST(BitonicSort, MatchesStdSort) {
  auto g = bigmul::test::rng(301);
  for (std::size_t n : sizes(17)) {
    for (auto p : patterns) {
      const auto in = make_keys<std::int32_t>(p, n, g);
      auto ref = in;
      std::sort(ref.begin(), ref.end());
      for (unsigned t : thread_counts) {
        auto v = in;
        bitonic_sort(v.data(), n, std::less<>{}, t);
        ASSERT_EQ(v, ref) << "n=" << n << " " << name(p) << " t=" << t;
      }
    }
  }
}

TEST(BitonicSort, CustomComparatorAndPairs) {
  auto g = bigmul::test::rng(302);
  for (std::size_t n : {1000u, 4097u, 65537u}) {
    auto keys = make_keys<std::uint64_t>(bigmul::prim::test::pattern::few_distinct, n, g);
    std::vector<std::uint32_t> vals(n);
    std::iota(vals.begin(), vals.end(), 0u);
    const auto orig = keys;
    bitonic_sort_pairs(keys.data(), vals.data(), n, std::greater<>{}, 3);
    ASSERT_TRUE(std::is_sorted(keys.begin(), keys.end(), std::greater<>{}));
    std::vector<int> used(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(orig[vals[i]], keys[i]) << "value left its key";
      ASSERT_EQ(used[vals[i]]++, 0);
    }
  }
}

TEST(BatchedBitonicSort, EveryProblemSorted) {
  auto g = bigmul::test::rng(303);
  const std::size_t shapes[][2] = {{0, 8}, {5, 0}, {5, 1}, {1, 2}, {3, 3}, {100, 7}, {64, 64}, {17, 1000},
                                   {8, 1024}, {4, 4095}, {3, 4096}, {2, 5000}};
  for (const auto& shape : shapes) {
    const std::size_t G = shape[0], N = shape[1];
    for (auto p : patterns) {
      const auto in = make_keys<std::int64_t>(p, G * N, g);
      auto ref = in;
      for (std::size_t q = 0; q < G; ++q) std::sort(ref.begin() + q * N, ref.begin() + (q + 1) * N);
      for (unsigned t : thread_counts) {
        auto v = in;
        batched_bitonic_sort(v.data(), G, N, std::less<>{}, t);
        ASSERT_EQ(v, ref) << "G=" << G << " N=" << N << " " << name(p) << " t=" << t;
      }
    }
  }
}

TEST(BatchedBitonicSort, PairsFollowKeys) {
  auto g = bigmul::test::rng(304);
  const std::size_t G = 37, N = 300;
  auto keys = make_keys<std::int32_t>(bigmul::prim::test::pattern::random, G * N, g);
  std::vector<std::uint32_t> vals(G * N);
  std::iota(vals.begin(), vals.end(), 0u);
  const auto orig = keys;
  batched_bitonic_sort_pairs(keys.data(), vals.data(), G, N, std::less<>{}, 2);
  for (std::size_t q = 0; q < G; ++q) {
    ASSERT_TRUE(std::is_sorted(keys.begin() + q * N, keys.begin() + (q + 1) * N));
    for (std::size_t i = q * N; i < (q + 1) * N; ++i) {
      ASSERT_EQ(orig[vals[i]], keys[i]);
      ASSERT_EQ(vals[i] / N, q) << "value left its problem";
    }
  }
}

TEST(MergeSort, MatchesStdSortAllPatterns) {
  auto g = bigmul::test::rng(305);
  for (std::size_t n : sizes()) {
    for (auto p : patterns) {
      const auto in = make_keys<std::int64_t>(p, n, g);
      auto ref = in;
      std::sort(ref.begin(), ref.end());
      for (unsigned t : thread_counts) {
        auto v = in;
        merge_sort(v.data(), n, std::less<>{}, t);
        ASSERT_EQ(v, ref) << "n=" << n << " " << name(p) << " t=" << t;
      }
    }
  }
}

TEST(MergeSort, StableLikeStdStableSortForEveryFanIn) {
  auto g = bigmul::test::rng(306);
  struct rec {
    std::uint32_t key, id;
    bool operator==(const rec&) const = default;
  };
  const auto by_key = [](const rec& a, const rec& b) { return a.key < b.key; };
  for (std::size_t n : {0u, 1u, 33u, 1000u, 65537u, 200003u}) {
    for (auto p : patterns) {
      const auto keys = make_keys<std::uint32_t>(p, n, g);
      std::vector<rec> in(n);
      for (std::size_t i = 0; i < n; ++i) in[i] = {keys[i], static_cast<std::uint32_t>(i)};
      auto ref = in;
      std::stable_sort(ref.begin(), ref.end(), by_key);
      for (unsigned ways : {2u, 4u, 8u, 16u}) {
        for (unsigned t : thread_counts) {
          auto v = in;
          merge_sort(v.data(), n, by_key, t, ways);
          ASSERT_EQ(v, ref) << "n=" << n << " " << name(p) << " ways=" << ways << " t=" << t;
        }
      }
    }
  }
}

TEST(MergeSort, PairsStableWithDescendingComparator) {
  auto g = bigmul::test::rng(307);
  const std::size_t n = 100001;
  auto keys = make_keys<std::int32_t>(bigmul::prim::test::pattern::few_distinct, n, g);
  std::vector<std::uint64_t> vals(n);
  std::iota(vals.begin(), vals.end(), 0u);
  std::vector<std::pair<std::int32_t, std::uint64_t>> ref(n);
  for (std::size_t i = 0; i < n; ++i) ref[i] = {keys[i], vals[i]};
  std::stable_sort(ref.begin(), ref.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  merge_sort_pairs(keys.data(), vals.data(), n, std::greater<>{}, 3);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(keys[i], ref[i].first);
    ASSERT_EQ(vals[i], ref[i].second);
  }
}
