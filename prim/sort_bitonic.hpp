// SPDX-License-Identifier: LGPL-3.0-or-later
// K-model bitonic sort ([CAPANNINI10]) on the CPU: the network of
// prim/bitonic_network.hpp run phase by phase as planned by
// prim/bitonic_plan.hpp. A phase gathers each part (2^log_part elements,
// runs of 2^log_run consecutive ones) into a small local buffer that stays in
// L1/L2, runs all of its steps there, and scatters it back; parts are
// independent, so they run in parallel. O(n log^2 n) comparisons and
// O(log^2 n / log part) passes over memory. Not stable.
//
// n need not be a power of two (virtual +infinity padding, see
// bitonic_network.hpp). Comparator: a strict weak order, comp(a, b) = a < b.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "prim/bitonic_network.hpp"
#include "prim/bitonic_plan.hpp"
#include "prim/parallel.hpp"

namespace bigmul::prim {

inline constexpr unsigned bitonic_log_part = 12;  // 4096 elements per part
inline constexpr unsigned bitonic_log_run = 3;    // 8 consecutive elements

namespace detail {

// Runs the planned network over `count` positions; the element type is
// abstract: load(g) -> E, store(g, E), less(E, E).
template <class E, class Load, class Store, class Less>
void bitonic_network_run(std::size_t n, unsigned threads, const Load& load, const Store& store,
                         const Less& less) {
  if (n < 2) return;
  unsigned log_n = 0;
  while ((std::size_t{1} << log_n) < n) ++log_n;
  const std::vector<bitonic_phase> phases = plan_bitonic_phases(log_n, bitonic_log_part, bitonic_log_run);
  for (const bitonic_phase& ph : phases) {
    const std::vector<std::uint64_t> off = bitonic_part_offsets(ph);
    const std::size_t part = off.size();
    const std::size_t parts = (std::size_t{1} << log_n) / part;
    parallel_for(chunk_count(parts, 1, threads), threads, [&](std::size_t task) {
      const std::size_t tasks = chunk_count(parts, 1, threads);
      std::vector<E> buf(part);
      std::vector<std::uint64_t> index(part);
      for (std::size_t q = parts * task / tasks, qe = parts * (task + 1) / tasks; q < qe; ++q) {
        const std::uint64_t base = bitonic_part_base(ph, log_n, q);
        bool any = false;
        for (std::size_t l = 0; l < part; ++l) {
          index[l] = base ^ off[l];
          if (index[l] < n) {
            buf[l] = load(index[l]);
            any = true;
          }
        }
        if (!any) continue;
        for (const bitonic_phase::step& st : ph.steps) {
          const unsigned hb = detail::top_bit(st.local_mask);
          for (std::size_t j = 0; j < part / 2; ++j) {
            std::size_t a = insert_zero_bit(j, hb), b = a ^ st.local_mask;
            if ((index[a] >> st.lead) & 1) std::swap(a, b);  // a = lower global index
            if (index[b] < n && less(buf[b], buf[a])) std::swap(buf[a], buf[b]);
          }
        }
        for (std::size_t l = 0; l < part; ++l)
          if (index[l] < n) store(index[l], std::move(buf[l]));
      }
    });
  }
}

}  // namespace detail

template <class K, class Comp = std::less<>>
void bitonic_sort(K* keys, std::size_t n, Comp comp = {}, unsigned threads = 0) {
  detail::bitonic_network_run<K>(
      n, threads, [keys](std::size_t g) { return keys[g]; },
      [keys](std::size_t g, K&& k) { keys[g] = std::move(k); }, comp);
}

// Sorts keys and moves values[i] along with keys[i].
template <class K, class V, class Comp = std::less<>>
void bitonic_sort_pairs(K* keys, V* values, std::size_t n, Comp comp = {}, unsigned threads = 0) {
  using E = std::pair<K, V>;
  detail::bitonic_network_run<E>(
      n, threads, [keys, values](std::size_t g) { return E{keys[g], values[g]}; },
      [keys, values](std::size_t g, E&& e) {
        keys[g] = std::move(e.first);
        values[g] = std::move(e.second);
      },
      [&comp](const E& a, const E& b) { return comp(a.first, b.first); });
}

}  // namespace bigmul::prim
