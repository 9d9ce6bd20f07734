// SPDX-License-Identifier: LGPL-3.0-or-later
// Phase planner of the K-model bitonic sort ([CAPANNINI10 §V]).
//
// Several consecutive network steps can run in one pass over memory if the
// index sets they touch split into independent parts that fit in fast memory
// (L1/L2 on a CPU, shared memory on a GPU). For steps with partner masks
// m_1..m_k, a part is a coset of the span of the masks (over GF(2)): the
// paper fixes the index bits outside a set Gamma; our flip steps (masks
// 2^s - 1) are not single bits, so we keep a general basis with distinct
// leading bits instead. Steps are added greedily while the span stays within
// 2^log_part elements. Every phase starts from the "coalescing seed" bits
// 0..log_run-1, so a part is made of runs of 2^log_run consecutive elements
// (a warp's coalesced segment on the GPU, a cache line on the CPU).
//
// Host code only; the CUDA sort copies phases into kernel parameters.
#pragma once

#include <cstdint>
#include <vector>

#include "prim/bitonic_network.hpp"

namespace bigmul::prim {

struct bitonic_phase {
  // Basis of the part: element l of part q has global index
  // base(q) ^ offset(l), offset(l) = XOR of basis[j] for the set bits j of l.
  std::vector<std::uint64_t> basis;
  // Leading bit of every basis vector (distinct); base(q) deposits the bits
  // of q into the other bit positions, ascending.
  std::vector<unsigned> leads;
  struct step {
    std::uint32_t local_mask;  // partner = l ^ local_mask
    std::uint32_t lead;        // global bit that tells the lower element
  };
  std::vector<step> steps;
};

namespace detail {
inline unsigned top_bit(std::uint64_t x) {
  unsigned t = 0;
  while (x >>= 1) ++t;
  return t;
}
}  // namespace detail

// Plan for 2^log_n elements; parts hold 2^log_part elements.
inline std::vector<bitonic_phase> plan_bitonic_phases(unsigned log_n, unsigned log_part, unsigned log_run) {
  if (log_part > log_n) log_part = log_n;
  if (log_part == 0) return {};
  // A fresh phase must have room for one step beyond its seed.
  if (log_run >= log_part) log_run = log_part - 1;
  std::vector<bitonic_phase> phases;
  auto open_phase = [&] {
    bitonic_phase ph;
    for (unsigned b = 0; b < log_run; ++b) {
      ph.basis.push_back(std::uint64_t{1} << b);
      ph.leads.push_back(b);
    }
    phases.push_back(ph);
  };
  // Coordinates of m in the basis, or false when m is outside the span (then
  // `residual` is what is left of it).
  auto reduce = [](const bitonic_phase& ph, std::uint64_t m, std::uint32_t& coords, std::uint64_t& residual) {
    coords = 0;
    for (unsigned bit = 64; bit-- > 0;) {
      if (!((m >> bit) & 1)) continue;
      for (std::size_t j = 0; j < ph.leads.size(); ++j)
        if (ph.leads[j] == bit) {
          m ^= ph.basis[j];
          coords ^= std::uint32_t{1} << j;
          break;
        }
    }
    residual = m;
    return m == 0;
  };
  open_phase();
  for (unsigned s = 1; s <= log_n; ++s) {
    for (unsigned k = 0; k < s; ++k) {
      const bitonic_step st = bitonic_stage_step(s, k);
      for (;;) {
        bitonic_phase& ph = phases.back();
        std::uint32_t coords;
        std::uint64_t residual;
        if (reduce(ph, st.mask, coords, residual)) {
          ph.steps.push_back({coords, st.lead});
          break;
        }
        if (ph.basis.size() < log_part) {
          ph.basis.push_back(residual);
          ph.leads.push_back(detail::top_bit(residual));
          continue;  // now in the span
        }
        open_phase();
      }
    }
  }
  // A phase opened last may hold no step (only when log_n == 0).
  if (!phases.empty() && phases.back().steps.empty()) phases.pop_back();
  return phases;
}

// base(q): the bits of q deposited, ascending, into the positions below
// log_n that are not leading bits of the phase.
inline std::uint64_t bitonic_part_base(const bitonic_phase& ph, unsigned log_n, std::uint64_t q) {
  std::uint64_t base = 0;
  unsigned used = 0;
  for (unsigned bit = 0; bit < log_n; ++bit) {
    bool lead = false;
    for (unsigned l : ph.leads) lead |= l == bit;
    if (lead) continue;
    base |= ((q >> used++) & 1) << bit;
  }
  return base;
}

// offset(l) for every local index l.
inline std::vector<std::uint64_t> bitonic_part_offsets(const bitonic_phase& ph) {
  std::vector<std::uint64_t> off(std::size_t{1} << ph.basis.size(), 0);
  for (std::size_t l = 1; l < off.size(); ++l) {
    const unsigned j = detail::top_bit(l);
    off[l] = off[l ^ (std::size_t{1} << j)] ^ ph.basis[j];
  }
  return off;
}

}  // namespace bigmul::prim
