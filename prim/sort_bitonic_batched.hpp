// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched small sort ([DIEGUEZ18 ch. 4], BMCS): G independent problems of N keys
// stored back to back, each sorted by the bitonic network in a local buffer,
// many problems per task. Like the GPU kernel's "4 keys per thread", two
// consecutive steps of a stage are fused: the four keys p, p^m1, p^m2,
// p^m1^m2 are loaded once, exchanged twice in registers and stored once, so
// a stage costs half the passes over the buffer. N need not be a power of two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "prim/bitonic_network.hpp"
#include "prim/parallel.hpp"

namespace bigmul::prim {

namespace detail {

template <class E, class Less>
inline void cx(E& lo, E& hi, std::uint64_t hi_index, std::uint64_t n, const Less& less) {
  if (hi_index < n && less(hi, lo)) std::swap(lo, hi);
}

// Sorts buf[0..n) in place with the all-ascending bitonic network over the
// next power of two, fusing step pairs.
template <class E, class Less>
void bitonic_sort_local(E* buf, std::size_t n, const Less& less) {
  unsigned log_n = 0;
  while ((std::size_t{1} << log_n) < n) ++log_n;
  const std::size_t np = std::size_t{1} << log_n;
  for (unsigned s = 1; s <= log_n; ++s) {
    unsigned k = 0;
    for (; k + 1 < s; k += 2) {
      const bitonic_step a = bitonic_stage_step(s, k), b = bitonic_stage_step(s, k + 1);
      // b.mask = 2^b.lead with b.lead < a.lead: p has both lead bits clear.
      const bool b_flips_a = (a.mask >> b.lead) & 1;
      for (std::size_t j = 0; j < np / 4; ++j) {
        const std::uint64_t p = insert_zero_bit(insert_zero_bit(j, b.lead), a.lead);
        const std::uint64_t i0 = p, i1 = p ^ b.mask, i2 = p ^ a.mask, i3 = p ^ a.mask ^ b.mask;
        if (i0 >= n) continue;  // every other index of the quad is larger
        E x0 = buf[i0], x1 = i1 < n ? buf[i1] : E{}, x2 = i2 < n ? buf[i2] : E{}, x3 = i3 < n ? buf[i3] : E{};
        cx(x0, x2, i2, n, less);  // step a: i0, i1 have bit a.lead clear
        cx(x1, x3, i3, n, less);
        cx(x0, x1, i1, n, less);  // step b: i0 has bit b.lead clear
        if (b_flips_a)
          cx(x3, x2, i2, n, less);  // i2 = p ^ flip has bit b.lead set
        else
          cx(x2, x3, i3, n, less);
        buf[i0] = std::move(x0);
        if (i1 < n) buf[i1] = std::move(x1);
        if (i2 < n) buf[i2] = std::move(x2);
        if (i3 < n) buf[i3] = std::move(x3);
      }
    }
    if (k < s) {  // odd step left: plain pairs
      const bitonic_step a = bitonic_stage_step(s, k);
      for (std::size_t j = 0; j < np / 2; ++j) {
        const std::uint64_t lo = insert_zero_bit(j, a.lead), hi = lo ^ a.mask;
        if (hi < n && less(buf[hi], buf[lo])) std::swap(buf[lo], buf[hi]);
      }
    }
  }
}

}  // namespace detail

// Sorts each of the G problems keys[g*N .. g*N+N) independently.
template <class K, class Comp = std::less<>>
void batched_bitonic_sort(K* keys, std::size_t G, std::size_t N, Comp comp = {}, unsigned threads = 0) {
  if (N < 2) return;
  parallel_chunks(G, (std::size_t{1} << 14) / N + 1, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t g = b; g < e; ++g) detail::bitonic_sort_local(keys + g * N, N, comp);
  });
}

// Key-value version: values move with their keys.
template <class K, class V, class Comp = std::less<>>
void batched_bitonic_sort_pairs(K* keys, V* values, std::size_t G, std::size_t N, Comp comp = {},
                                unsigned threads = 0) {
  if (N < 2) return;
  using E = std::pair<K, V>;
  const auto less = [&comp](const E& a, const E& b) { return comp(a.first, b.first); };
  parallel_chunks(G, (std::size_t{1} << 14) / N + 1, threads, [&](std::size_t b, std::size_t e) {
    std::vector<E> buf(N);
    for (std::size_t g = b; g < e; ++g) {
      for (std::size_t i = 0; i < N; ++i) buf[i] = E{keys[g * N + i], values[g * N + i]};
      detail::bitonic_sort_local(buf.data(), N, less);
      for (std::size_t i = 0; i < N; ++i) {
        keys[g * N + i] = std::move(buf[i].first);
        values[g * N + i] = std::move(buf[i].second);
      }
    }
  });
}

}  // namespace bigmul::prim
