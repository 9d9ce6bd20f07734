// SPDX-License-Identifier: LGPL-3.0-or-later
// The device merge sort's rounds (prim/cuda/device_merge_sort_impl.cuh) on the
// CPU with the same index math (prim/cuda/merge_partition_hd.hpp): the
// partition pass computes every block's split, each block merges the ranges
// its split and the next one (or the pair's end) give, and the round must
// equal std::merge of every pair of runs, stably (keys carry their input
// index; equal keys keep it in order). Small tiles (8, 16) so that blocks
// cross many boundaries; runs of equal keys, disjoint runs both ways, an odd
// run without a partner, sizes off the tile.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "prim/cuda/merge_partition_hd.hpp"

namespace mg = bigmul::prim::merge;

namespace {

struct item {
  std::uint32_t key, index;
  bool operator==(const item& o) const { return key == o.key && index == o.index; }
};
struct key_less {
  bool operator()(const item& a, const item& b) const { return a.key < b.key; }
};

// One round: runs of `width` sorted in `in`; every pair merged into `out`.
std::vector<item> emulate_round(const std::vector<item>& in, std::size_t tile, std::size_t width) {
  const std::size_t n = in.size(), blocks = (n + tile - 1) / tile;
  std::vector<std::size_t> partition(blocks);
  for (std::size_t b = 0; b < blocks; ++b) partition[b] = mg::partition_of(in.data(), b, tile, n, width, key_less{});
  std::vector<item> out(n);
  for (std::size_t b = 0; b < blocks; ++b) {
    const mg::merge_block m = mg::merge_block_of(b, tile, n, width);
    const std::size_t a0 = partition[b], a1 = mg::end_split(m, partition.data(), b);
    const std::size_t b0 = m.d0 - a0, b1 = m.d1 - a1;
    EXPECT_LE(a0, a1);
    EXPECT_LE(b0, b1);
    EXPECT_LE(a1, m.la);
    EXPECT_LE(b1, m.lb);
    std::merge(in.begin() + std::ptrdiff_t(m.a_beg + a0), in.begin() + std::ptrdiff_t(m.a_beg + a1),
               in.begin() + std::ptrdiff_t(m.a_end + b0), in.begin() + std::ptrdiff_t(m.a_end + b1),
               out.begin() + std::ptrdiff_t(b * tile), key_less{});
  }
  return out;
}

void check_rounds(std::vector<item> v, std::size_t tile, const std::string& what) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i].index = std::uint32_t(i);
  // Sorted runs of `tile` first (the base case), then rounds as the device does.
  for (std::size_t s = 0; s < v.size(); s += tile)
    std::stable_sort(v.begin() + std::ptrdiff_t(s), v.begin() + std::ptrdiff_t(std::min(v.size(), s + tile)),
                     key_less{});
  for (std::size_t width = tile; width < v.size(); width *= 2) {
    std::vector<item> want(v.size());
    for (std::size_t p = 0; p < v.size(); p += 2 * width) {
      const std::size_t m = std::min(v.size(), p + width), e = std::min(v.size(), p + 2 * width);
      std::merge(v.begin() + std::ptrdiff_t(p), v.begin() + std::ptrdiff_t(m), v.begin() + std::ptrdiff_t(m),
                 v.begin() + std::ptrdiff_t(e), want.begin() + std::ptrdiff_t(p), key_less{});
    }
    const std::vector<item> got = emulate_round(v, tile, width);
    ASSERT_TRUE(got == want) << what << ": tile " << tile << ", width " << width << ", n " << v.size();
    v = got;
  }
  for (std::size_t i = 1; i < v.size(); ++i)
    ASSERT_TRUE(v[i - 1].key < v[i].key || (v[i - 1].key == v[i].key && v[i - 1].index < v[i].index))
        << what << ": not a stable sort at " << i;
}

TEST(MergePartitionModel, RoundsEqualStdMerge) {
  std::mt19937_64 g(88);
  for (std::size_t tile : {8u, 16u}) {
    for (std::size_t n : {std::size_t{2}, tile - 1, tile + 1, 3 * tile, 5 * tile + 3, 16 * tile, 37 * tile + 5}) {
      std::vector<item> random(n), few(n), same(n), up(n), down(n);
      for (std::size_t i = 0; i < n; ++i) {
        random[i].key = std::uint32_t(g());
        few[i].key = std::uint32_t(g() % 3);
        same[i].key = 5;
        up[i].key = std::uint32_t(i);          // every run below the next: a all before b
        down[i].key = std::uint32_t(n - i);    // every run above the next: b all before a
      }
      const std::string s = " n=" + std::to_string(n);
      check_rounds(random, tile, "random" + s);
      check_rounds(few, tile, "three keys" + s);
      check_rounds(same, tile, "one key" + s);
      check_rounds(up, tile, "ascending" + s);
      check_rounds(down, tile, "descending" + s);
      if (testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(MergePartitionModel, BlockRanges) {
  // n = 40, width 16, tile 8: pairs [0, 32) and [32, 40) (no b run).
  const mg::merge_block m = mg::merge_block_of(3, 8, 40, 16);
  EXPECT_EQ(m.a_beg, 0u);
  EXPECT_EQ(m.a_end, 16u);
  EXPECT_EQ(m.b_end, 32u);
  EXPECT_EQ(m.d0, 24u);
  EXPECT_EQ(m.d1, 32u);
  const mg::merge_block t = mg::merge_block_of(4, 8, 40, 16);
  EXPECT_EQ(t.a_beg, 32u);
  EXPECT_EQ(t.la, 8u);
  EXPECT_EQ(t.lb, 0u);
  EXPECT_EQ(t.d1, 8u);
}

}  // namespace
