// SPDX-License-Identifier: LGPL-3.0-or-later
// Prefix scan on the CPU: inclusive and exclusive, any associative operator.
//
// Multithreaded as the three-phase reduce-then-scan of [DIEGUEZ18 ch. 5] (chunk
// reduce -> scan of chunk totals -> rescan with the carried-in prefix). The
// operator is only ever applied as op(earlier, later), so operators that are
// associative but not commutative (carry look-ahead, matrix products) are
// scanned correctly. Chunk boundaries depend on n and the thread count, so an
// operator that is not truly associative (floating-point +) may give results
// that differ in the last bits between thread counts; exact operators do not.
#pragma once

#include <cstddef>
#include <vector>

#include "prim/parallel.hpp"

namespace bigmul::prim {

// Below this many elements per thread the scan runs serially.
inline constexpr std::size_t scan_grain = 1 << 14;

// out[i] = in[0] op in[1] op ... op in[i]. `out` may equal `in`.
template <class T, class Op>
void inclusive_scan(const T* in, T* out, std::size_t n, Op op, const T& identity,
                    unsigned threads = 0) {
  const std::size_t chunks = chunk_count(n, scan_grain, threads);
  if (chunks <= 1) {
    T acc = identity;
    for (std::size_t i = 0; i < n; ++i) out[i] = acc = op(acc, in[i]);
    return;
  }
  // Phase 1: total of each chunk (the last chunk's total is never needed).
  std::vector<T> totals(chunks, identity);
  parallel_for(chunks - 1, threads, [&](std::size_t c) {
    T acc = identity;
    for (std::size_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i) acc = op(acc, in[i]);
    totals[c] = acc;
  });
  // Phase 2: exclusive scan of the chunk totals (few elements: serial).
  T acc = identity;
  for (std::size_t c = 0; c < chunks; ++c) {
    T t = totals[c];
    totals[c] = acc;
    acc = op(acc, t);
  }
  // Phase 3: rescan each chunk starting from its carried-in prefix.
  parallel_for(chunks, threads, [&](std::size_t c) {
    T a = totals[c];
    for (std::size_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i) out[i] = a = op(a, in[i]);
  });
}

// out[0] = identity, out[i] = in[0] op ... op in[i-1]. `out` may equal `in`.
// Returns the total of all n elements.
template <class T, class Op>
T exclusive_scan(const T* in, T* out, std::size_t n, Op op, const T& identity,
                 unsigned threads = 0) {
  const std::size_t chunks = chunk_count(n, scan_grain, threads);
  if (chunks <= 1) {
    T acc = identity;
    for (std::size_t i = 0; i < n; ++i) {
      T x = in[i];
      out[i] = acc;
      acc = op(acc, x);
    }
    return acc;
  }
  std::vector<T> totals(chunks, identity);
  parallel_for(chunks, threads, [&](std::size_t c) {
    T a = identity;
    for (std::size_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i) a = op(a, in[i]);
    totals[c] = a;
  });
  T acc = identity;
  for (std::size_t c = 0; c < chunks; ++c) {
    T t = totals[c];
    totals[c] = acc;
    acc = op(acc, t);
  }
  parallel_for(chunks, threads, [&](std::size_t c) {
    T a = totals[c];
    for (std::size_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i) {
      T x = in[i];
      out[i] = a;
      a = op(a, x);
    }
  });
  return acc;
}

}  // namespace bigmul::prim
