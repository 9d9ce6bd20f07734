// SPDX-License-Identifier: LGPL-3.0-or-later
// Stream compaction built from a scan ([KOIKE15 ch. 5]): flags = pred(x),
// exclusive scan of the flags = destinations, scatter. Stable: kept elements
// stay in input order.
//
// The flags are never stored: each chunk counts its kept elements (the
// reduce of the flags), an exclusive scan of the counts gives every chunk its
// first destination, and the rescan of the flags is fused with the scatter.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "prim/parallel.hpp"
#include "prim/scan.hpp"

namespace bigmul::prim {

// Copies the x in in[0..n) with pred(x) to out, in order; returns how many.
// `out` must hold that many and must not overlap `in` (unless out == in: then
// the result is the compacted prefix of the array, computed serially).
template <class T, class Pred>
std::size_t copy_if(const T* in, std::size_t n, T* out, Pred pred, unsigned threads = 0) {
  const std::size_t chunks = out == in ? 1 : chunk_count(n, scan_grain, threads);
  if (chunks <= 1) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (pred(in[i])) out[k++] = in[i];
    return k;
  }
  std::vector<std::size_t> start(chunks, 0);
  parallel_for(chunks, threads, [&](std::size_t c) {
    std::size_t k = 0;
    for (std::size_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i) k += pred(in[i]) ? 1 : 0;
    start[c] = k;
  });
  const std::size_t total = exclusive_scan(start.data(), start.data(), chunks, std::plus<std::size_t>{},
                                           std::size_t{0}, 1);
  parallel_for(chunks, threads, [&](std::size_t c) {
    std::size_t k = start[c];
    for (std::size_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i)
      if (pred(in[i])) out[k++] = in[i];
  });
  return total;
}

}  // namespace bigmul::prim
