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

namespace detail {

// One step of either scan: out[i] gets the running value before (exclusive)
// or after (inclusive) in[i] joins it; in[i] is read first since out may be in.
template <bool Inclusive, class T, class Op>
inline void scan_step(const T* in, T* out, std::size_t i, T& acc, Op& op) {
  const T x = in[i];
  if constexpr (!Inclusive) out[i] = acc;
  acc = op(acc, x);
  if constexpr (Inclusive) out[i] = acc;
}

// Both scans: serial below the grain, else the three phases. Returns the total
// of all n elements (the inclusive scan skips the last chunk's total in phase
// 1, so its return value is meaningful only for the exclusive scan).
template <bool Inclusive, class T, class Op>
T scan(const T* in, T* out, std::size_t n, Op op, const T& identity, unsigned threads) {
  const std::size_t chunks = chunk_count(n, scan_grain, threads);
  if (chunks <= 1) {
    T acc = identity;
    for (std::size_t i = 0; i < n; ++i) scan_step<Inclusive>(in, out, i, acc, op);
    return acc;
  }
  // Phase 1: total of each chunk (the inclusive scan never needs the last one).
  std::vector<T> totals(chunks, identity);
  parallel_for(Inclusive ? chunks - 1 : chunks, threads, [&](std::size_t c) {
    T a = identity;
    for (std::size_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i) a = op(a, in[i]);
    totals[c] = a;
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
    for (std::size_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i) scan_step<Inclusive>(in, out, i, a, op);
  });
  return acc;
}

}  // namespace detail

// out[i] = in[0] op in[1] op ... op in[i]. `out` may equal `in`.
template <class T, class Op>
void inclusive_scan(const T* in, T* out, std::size_t n, Op op, const T& identity,
                    unsigned threads = 0) {
  detail::scan<true>(in, out, n, op, identity, threads);
}

// out[0] = identity, out[i] = in[0] op ... op in[i-1]. `out` may equal `in`.
// Returns the total of all n elements.
template <class T, class Op>
T exclusive_scan(const T* in, T* out, std::size_t n, Op op, const T& identity,
                 unsigned threads = 0) {
  return detail::scan<false>(in, out, n, op, identity, threads);
}

}  // namespace bigmul::prim
