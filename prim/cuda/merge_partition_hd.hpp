// SPDX-License-Identifier: LGPL-3.0-or-later
// Index math of the device merge sort's merge rounds
// (prim/cuda/device_merge_sort_impl.cuh): the merge path [GREEN12], the pair
// of runs and the output diagonals of a block, and the partition that a
// kernel of its own computes before each round (one thread per block
// boundary), so that a merge block reads its two splits instead of searching
// them. Plain C++17 with BIGMUL_HD functions: tests/prim/test_merge_partition_model.cpp
// replays a round on the CPU against std::merge.
#pragma once

#include <cstddef>

#include "bigmul/hd.hpp"

namespace bigmul::prim::merge {

// How many of the first `diag` outputs of merging a[0..la) and b[0..lb) come
// from a (ties from a: the merge is stable).
template <class K, class Comp>
BIGMUL_HD std::size_t merge_path(const K* a, std::size_t la, const K* b, std::size_t lb, std::size_t diag,
                                 const Comp& comp) {
  std::size_t lo = diag > lb ? diag - lb : 0, hi = diag < la ? diag : la;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (!comp(b[diag - 1 - mid], a[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Block `block` of a round merging pairs of sorted runs of `width` (a
// multiple of `tile`) writes outputs [block * tile, block * tile + tile): its
// pair's runs a = [a_beg, a_end), b = [a_end, b_end) and its diagonals
// [d0, d1) within the pair.
struct merge_block {
  std::size_t a_beg, a_end, b_end, la, lb, d0, d1;
};

BIGMUL_HD merge_block merge_block_of(std::size_t block, std::size_t tile, std::size_t n, std::size_t width) {
  merge_block m;
  const std::size_t o = block * tile;
  m.a_beg = o / (2 * width) * (2 * width);
  m.a_end = m.a_beg + width < n ? m.a_beg + width : n;
  m.b_end = m.a_beg + 2 * width < n ? m.a_beg + 2 * width : n;
  m.la = m.a_end - m.a_beg;
  m.lb = m.b_end - m.a_end;
  m.d0 = o - m.a_beg;
  m.d1 = m.d0 + tile < m.la + m.lb ? m.d0 + tile : m.la + m.lb;
  return m;
}

// The partition of block b: its split on diagonal d0 (outputs before it taken from a).
template <class K, class Comp>
BIGMUL_HD std::size_t partition_of(const K* in, std::size_t block, std::size_t tile, std::size_t n,
                                   std::size_t width, const Comp& comp) {
  const merge_block m = merge_block_of(block, tile, n, width);
  return merge_path(in + m.a_beg, m.la, in + m.a_end, m.lb, m.d0, comp);
}

// The split at a block's end diagonal d1: all of a where the block ends its
// pair, else the next block's partition (its d0 is this block's d1).
BIGMUL_HD std::size_t end_split(const merge_block& m, const std::size_t* partition, std::size_t block) {
  return m.d1 == m.la + m.lb ? m.la : partition[block + 1];
}

}  // namespace bigmul::prim::merge
