// SPDX-License-Identifier: LGPL-3.0-or-later
// Segmented scan: one inclusive or exclusive scan per segment, segments
// marked by head flags (flags[i] != 0 starts a new segment at i; index 0
// always starts one).
//
// Three phases like prim/scan.hpp, over the lifted (value, head) operator of
// prim/ops.hpp: each chunk computes its total since its last head and whether
// it has one; a serial scan of the chunk summaries gives each chunk the value
// carried in from its left; a rescan restarts at every head.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "prim/parallel.hpp"
#include "prim/scan.hpp"

namespace bigmul::prim {

namespace detail {

// Carries for every chunk: carry[c] = running value entering chunk c (the
// identity when a head opens chunk c's first segment before anything of it).
template <class T, class IsHead, class Op>
std::vector<T> segmented_carries(const T* in, std::size_t n, std::size_t chunks, const IsHead& is_head,
                                 const Op& op, const T& identity, unsigned threads) {
  std::vector<T> tail(chunks, identity);
  std::vector<std::uint8_t> has_head(chunks, 0);
  parallel_for(chunks, threads, [&](std::size_t c) {
    T acc = identity;
    bool head = false;
    for (std::size_t i = n * c / chunks, e = n * (c + 1) / chunks; i < e; ++i) {
      if (is_head(i)) {
        acc = identity;
        head = true;
      }
      acc = op(acc, in[i]);
    }
    tail[c] = acc;
    has_head[c] = head;
  });
  std::vector<T> carry(chunks, identity);
  T run = identity;
  for (std::size_t c = 0; c < chunks; ++c) {
    carry[c] = run;
    run = has_head[c] ? tail[c] : op(run, tail[c]);
  }
  return carry;
}

template <bool Inclusive, class T, class IsHead, class Op>
void segmented_scan_impl(const T* in, T* out, std::size_t n, const IsHead& is_head, const Op& op,
                         const T& identity, unsigned threads) {
  const std::size_t chunks = chunk_count(n, scan_grain, threads);
  auto rescan = [&](std::size_t b, std::size_t e, T acc) {
    for (std::size_t i = b; i < e; ++i) {
      if (is_head(i)) acc = identity;
      const T x = in[i];
      if constexpr (Inclusive) {
        out[i] = acc = op(acc, x);
      } else {
        out[i] = acc;
        acc = op(acc, x);
      }
    }
  };
  if (chunks <= 1) {
    rescan(0, n, identity);
    return;
  }
  const std::vector<T> carry = segmented_carries(in, n, chunks, is_head, op, identity, threads);
  parallel_for(chunks, threads, [&](std::size_t c) { rescan(n * c / chunks, n * (c + 1) / chunks, carry[c]); });
}

}  // namespace detail

// out[i] = in[h] op ... op in[i], h = the last head at or before i. `out` may equal `in`.
template <class T, class Op>
void segmented_inclusive_scan(const T* in, const std::uint8_t* heads, T* out, std::size_t n, Op op,
                              const T& identity, unsigned threads = 0) {
  detail::segmented_scan_impl<true>(in, out, n, [heads](std::size_t i) { return heads[i] != 0; }, op,
                                    identity, threads);
}

// out[i] = in[h] op ... op in[i-1] (identity at a head). `out` may equal `in`.
template <class T, class Op>
void segmented_exclusive_scan(const T* in, const std::uint8_t* heads, T* out, std::size_t n, Op op,
                              const T& identity, unsigned threads = 0) {
  detail::segmented_scan_impl<false>(in, out, n, [heads](std::size_t i) { return heads[i] != 0; }, op,
                                     identity, threads);
}

}  // namespace bigmul::prim
