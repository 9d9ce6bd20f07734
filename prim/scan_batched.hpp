// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched scan: G independent problems of length N stored back to back
// (problem g is in[g*N .. g*N+N)), scanned in one call ([DIEGUEZ18 ch. 5],
// "G problems per call").
//
// The work is cut into equal chunks of the whole G*N range, not per problem,
// so one huge problem and many tiny ones balance the same way. A chunk that
// starts inside a problem needs the carry from the chunks to its left in that
// problem: the same three phases as the segmented scan, with the heads at
// multiples of N known from the index (no flag array).
#pragma once

#include <cstddef>
#include <vector>

#include "prim/parallel.hpp"
#include "prim/scan.hpp"

namespace bigmul::prim {

namespace detail {

// Runs body(b, e, first) over [begin, end) cut at problem boundaries;
// first = b starts a problem.
template <class Body>
void for_problem_pieces(std::size_t begin, std::size_t end, std::size_t N, const Body& body) {
  std::size_t i = begin;
  while (i < end) {
    const std::size_t next = (i / N + 1) * N;
    const std::size_t e = next < end ? next : end;
    body(i, e, i % N == 0);
    i = e;
  }
}

template <bool Inclusive, class T, class Op>
void batched_scan_impl(const T* in, T* out, std::size_t G, std::size_t N, const Op& op, const T& identity,
                       unsigned threads) {
  const std::size_t n = G * N;
  if (n == 0) return;
  auto rescan = [&](std::size_t b, std::size_t e, T carry) {
    for_problem_pieces(b, e, N, [&](std::size_t pb, std::size_t pe, bool first) {
      T acc = first ? identity : carry;
      for (std::size_t i = pb; i < pe; ++i) {
        const T x = in[i];
        if constexpr (Inclusive) {
          out[i] = acc = op(acc, x);
        } else {
          out[i] = acc;
          acc = op(acc, x);
        }
      }
    });
  };
  const std::size_t chunks = chunk_count(n, scan_grain, threads);
  if (chunks <= 1) {
    rescan(0, n, identity);
    return;
  }
  // Phase 1: the total of each chunk's last piece, and whether the chunk
  // crosses into a new problem (then the carry to its right restarts).
  std::vector<T> tail(chunks, identity);
  std::vector<unsigned char> restarts(chunks, 0);
  parallel_for(chunks, threads, [&](std::size_t c) {
    const std::size_t b = n * c / chunks, e = n * (c + 1) / chunks;
    std::size_t last = b;
    for_problem_pieces(b, e, N, [&](std::size_t pb, std::size_t, bool first) {
      last = pb;
      if (first) restarts[c] = 1;
    });
    T acc = identity;
    for (std::size_t i = last; i < e; ++i) acc = op(acc, in[i]);
    tail[c] = acc;
  });
  // Phase 2: carries into each chunk, serial over the chunk summaries.
  std::vector<T> carry(chunks, identity);
  T run = identity;
  for (std::size_t c = 0; c < chunks; ++c) {
    carry[c] = run;
    run = restarts[c] ? tail[c] : op(run, tail[c]);
  }
  // Phase 3.
  parallel_for(chunks, threads, [&](std::size_t c) { rescan(n * c / chunks, n * (c + 1) / chunks, carry[c]); });
}

}  // namespace detail

// Inclusive scan of each of the G problems of length N. `out` may equal `in`.
template <class T, class Op>
void batched_inclusive_scan(const T* in, T* out, std::size_t G, std::size_t N, Op op, const T& identity,
                            unsigned threads = 0) {
  if (N == 0) return;
  detail::batched_scan_impl<true>(in, out, G, N, op, identity, threads);
}

// Exclusive scan of each of the G problems of length N. `out` may equal `in`.
template <class T, class Op>
void batched_exclusive_scan(const T* in, T* out, std::size_t G, std::size_t N, Op op, const T& identity,
                            unsigned threads = 0) {
  if (N == 0) return;
  detail::batched_scan_impl<false>(in, out, G, N, op, identity, threads);
}

}  // namespace bigmul::prim
