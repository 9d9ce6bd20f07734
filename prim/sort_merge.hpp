// SPDX-License-Identifier: LGPL-3.0-or-later
// Stable d-way merge sort ([KOIKE15 ch. 6]), multithreaded.
//
// 1. Runs of `base_run` elements are sorted by binary insertion (stable).
// 2. Rounds of d-way merges: every group of d consecutive runs becomes one
//    run, each merge driven by a loser tree (the paper's d-leaf tree with a
//    key per node: log2 d comparisons per output element). A round reads and
//    writes every element once, so there are log_d(n / base_run) passes
//    instead of the log_2 of a binary merge sort.
// 3. Parallelism: while there are many groups, tasks take whole groups. When
//    a round has fewer groups than tasks (the last rounds, where the paper
//    splits runs by sampled separators), each group's output is cut into
//    equal pieces by exact multi-sequence selection, so pieces merge
//    independently and tasks stay balanced even with all-equal keys.
//
// Ties are broken by (run, position), in the merges and in the selection,
// which is what makes the whole sort stable. O(n) extra memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "prim/parallel.hpp"

namespace bigmul::prim {

inline constexpr std::size_t merge_sort_base_run = 32;
inline constexpr unsigned merge_sort_ways = 8;

namespace detail {

template <class E, class Less>
void binary_insertion_sort(E* a, std::size_t n, const Less& less) {
  for (std::size_t i = 1; i < n; ++i) {
    if (!less(a[i], a[i - 1])) continue;
    E x = std::move(a[i]);
    // First position whose element is greater than x (upper bound: stable).
    std::size_t lo = 0, hi = i - 1;
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (less(x, a[mid])) hi = mid; else lo = mid + 1;
    }
    for (std::size_t j = i; j > lo; --j) a[j] = std::move(a[j - 1]);
    a[lo] = std::move(x);
  }
}

// A sorted input range of a merge.
template <class E>
struct run_span {
  const E* begin;
  const E* end;
};

// Merges k sorted ranges into out (stable: equal keys leave in range order).
template <class E, class Less>
void multiway_merge(run_span<E>* src, unsigned k, E* out, const Less& less) {
  if (k == 1) {
    std::copy(src[0].begin, src[0].end, out);
    return;
  }
  if (k == 2) {
    const E *a = src[0].begin, *ae = src[0].end, *b = src[1].begin, *be = src[1].end;
    while (a != ae && b != be) *out++ = less(*b, *a) ? *b++ : *a++;
    out = std::copy(a, ae, out);
    std::copy(b, be, out);
    return;
  }
  unsigned leaves = 1;
  while (leaves < k) leaves *= 2;
  // beats(x, y): source x's head leaves before source y's head.
  auto beats = [&](unsigned x, unsigned y) {
    const bool xe = x >= k || src[x].begin == src[x].end, ye = y >= k || src[y].begin == src[y].end;
    if (xe) return false;
    if (ye) return true;
    if (less(*src[y].begin, *src[x].begin)) return false;
    if (less(*src[x].begin, *src[y].begin)) return true;
    return x < y;
  };
  std::vector<unsigned> loser(leaves), win(2 * leaves);
  for (unsigned i = 0; i < leaves; ++i) win[leaves + i] = i;
  for (unsigned v = leaves - 1; v >= 1; --v) {
    const unsigned l = win[2 * v], r = win[2 * v + 1];
    if (beats(l, r)) { win[v] = l; loser[v] = r; } else { win[v] = r; loser[v] = l; }
  }
  std::size_t total = 0;
  for (unsigned i = 0; i < k; ++i) total += static_cast<std::size_t>(src[i].end - src[i].begin);
  unsigned w = win[1];
  for (std::size_t t = 0; t < total; ++t) {
    *out++ = *src[w].begin++;
    for (unsigned v = (leaves + w) / 2; v >= 1; v /= 2)
      if (beats(loser[v], w)) std::swap(loser[v], w);
  }
}

// Split of k sorted runs at global rank r of the order (key, run, position):
// pos[i] = how many elements of run i come before rank r.
template <class E, class Less>
void multiway_select(const run_span<E>* runs, unsigned k, std::size_t r, std::size_t* pos, const Less& less) {
  std::size_t total = 0;
  for (unsigned i = 0; i < k; ++i) total += static_cast<std::size_t>(runs[i].end - runs[i].begin);
  if (r >= total) {
    for (unsigned i = 0; i < k; ++i) pos[i] = static_cast<std::size_t>(runs[i].end - runs[i].begin);
    return;
  }
  // rank of element q of run j: q + #(key <= v) in earlier runs + #(key < v) in later runs.
  auto rank_of = [&](unsigned j, std::size_t q, std::size_t* split) {
    const E& v = runs[j].begin[q];
    std::size_t rank = q;
    for (unsigned i = 0; i < k; ++i) {
      std::size_t c;
      if (i == j) c = q;
      else if (i < j) c = static_cast<std::size_t>(std::upper_bound(runs[i].begin, runs[i].end, v, less) - runs[i].begin);
      else c = static_cast<std::size_t>(std::lower_bound(runs[i].begin, runs[i].end, v, less) - runs[i].begin);
      if (split) split[i] = c;
      if (i != j) rank += c;
    }
    return rank;
  };
  // The element of rank r lies in exactly one run; rank_of is increasing in q.
  for (unsigned j = 0; j < k; ++j) {
    std::size_t lo = 0, hi = static_cast<std::size_t>(runs[j].end - runs[j].begin);
    while (lo < hi) {  // first q with rank_of(j, q) >= r
      const std::size_t mid = (lo + hi) / 2;
      if (rank_of(j, mid, nullptr) < r) lo = mid + 1; else hi = mid;
    }
    if (lo < static_cast<std::size_t>(runs[j].end - runs[j].begin) && rank_of(j, lo, pos) == r) return;
  }
}

template <class E, class Less>
void merge_sort_impl(E* a, std::size_t n, const Less& less, unsigned threads, unsigned ways) {
  if (n < 2) return;
  if (ways < 2) ways = 2;
  const std::size_t base = merge_sort_base_run;
  parallel_chunks((n + base - 1) / base, 256, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t r = b; r < e; ++r)
      binary_insertion_sort(a + r * base, std::min(n, (r + 1) * base) - r * base, less);
  });
  if (n <= base) return;
  std::vector<E> tmp(n);
  E* src = a;
  E* dst = tmp.data();
  const std::size_t tasks_wanted = resolve_threads(threads) > 1 ? std::size_t{resolve_threads(threads)} * 4 : 1;
  constexpr std::size_t min_piece = 1 << 13;
  for (std::size_t run = base; run < n; run *= ways) {
    const std::size_t group = run * ways;
    const std::size_t groups = (n + group - 1) / group;
    std::size_t pieces = groups >= tasks_wanted ? 1 : (tasks_wanted + groups - 1) / groups;
    pieces = std::max<std::size_t>(1, std::min(pieces, group / min_piece));
    parallel_for(groups * pieces, threads, [&](std::size_t task) {
      const std::size_t g = task / pieces, piece = task % pieces;
      const std::size_t gb = g * group, ge = std::min(n, gb + group);
      run_span<E> runs[64] = {};
      unsigned k = 0;
      for (std::size_t b = gb; b < ge; b += run) runs[k++] = {src + b, src + std::min(ge, b + run)};
      const std::size_t len = ge - gb;
      const std::size_t rb = len * piece / pieces, re = len * (piece + 1) / pieces;
      std::size_t lo[64] = {}, hi[64] = {};
      multiway_select(runs, k, rb, lo, less);
      multiway_select(runs, k, re, hi, less);
      run_span<E> sub[64] = {};
      for (unsigned i = 0; i < k; ++i) sub[i] = {runs[i].begin + lo[i], runs[i].begin + hi[i]};
      multiway_merge(sub, k, dst + gb + rb, less);
    });
    std::swap(src, dst);
  }
  if (src != a)
    parallel_chunks(n, 1 << 16, threads, [&](std::size_t b, std::size_t e) {
      std::move(src + b, src + e, a + b);
    });
}

}  // namespace detail

// Stable sort of keys[0..n) by comp. `ways` (2..64) is the merge fan-in d.
template <class K, class Comp = std::less<>>
void merge_sort(K* keys, std::size_t n, Comp comp = {}, unsigned threads = 0, unsigned ways = merge_sort_ways) {
  detail::merge_sort_impl(keys, n, comp, threads, std::min(ways, 64u));
}

// Stable sort of (keys[i], values[i]) pairs by key.
template <class K, class V, class Comp = std::less<>>
void merge_sort_pairs(K* keys, V* values, std::size_t n, Comp comp = {}, unsigned threads = 0,
                      unsigned ways = merge_sort_ways) {
  using E = std::pair<K, V>;
  std::vector<E> pairs(n);
  parallel_chunks(n, 1 << 16, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) pairs[i] = E{keys[i], values[i]};
  });
  detail::merge_sort_impl(pairs.data(), n, [&comp](const E& x, const E& y) { return comp(x.first, y.first); },
                          threads, std::min(ways, 64u));
  parallel_chunks(n, 1 << 16, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      keys[i] = std::move(pairs[i].first);
      values[i] = std::move(pairs[i].second);
    }
  });
}

}  // namespace bigmul::prim
