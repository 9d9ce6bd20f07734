// SPDX-License-Identifier: LGPL-3.0-or-later
// The bitonic sorting network in its all-ascending form, shared by the CPU
// sorts and their CUDA twins.
//
// Stage s (1 <= s <= log2 n) merges sorted runs of 2^(s-1) into runs of 2^s:
// first the "flip" step pairs i with i ^ (2^s - 1) (the mirror element in the
// block of 2^s), then half-cleaner steps pair i with i ^ 2^c, c = s-2 .. 0.
// Every comparator puts the smaller key at the smaller index. That is what
// makes non-power-of-two n free: treat indices >= n as +infinity; a
// comparator whose upper index is >= n would leave both keys where they are,
// so it is skipped, and the first n slots end up sorted (no padding copies).
//
// A step is (mask, lead): partner = i ^ mask, and of a pair the element whose
// index has bit `lead` clear is the lower one.
#pragma once

#include <cstdint>

#include "bigmul/hd.hpp"

namespace bigmul::prim {

struct bitonic_step {
  std::uint64_t mask;
  std::uint32_t lead;
};

// Steps of stage s, in order: index 0 is the flip, index k >= 1 the
// half-cleaner on bit s-1-k. A stage has s steps.
BIGMUL_HD bitonic_step bitonic_stage_step(unsigned s, unsigned k) {
  if (k == 0) return bitonic_step{(std::uint64_t{1} << s) - 1, s - 1};
  const unsigned c = s - 1 - k;
  return bitonic_step{std::uint64_t{1} << c, c};
}

// Inserts a 0 bit at position `pos` of x (INSAT(x, 0, pos) of [CAPANNINI10]).
BIGMUL_HD std::uint64_t insert_zero_bit(std::uint64_t x, unsigned pos) {
  const std::uint64_t low = x & ((std::uint64_t{1} << pos) - 1);
  return ((x - low) << 1) | low;
}

// Compare-exchange of keys at indices lo < hi under virtual +infinity padding
// beyond n; `swap` exchanges the keys (and any payload).
template <class Key, class Comp>
BIGMUL_HD bool bitonic_should_swap(const Key& lo_key, const Key& hi_key, std::uint64_t hi_index,
                                   std::uint64_t n, const Comp& comp) {
  return hi_index < n && comp(hi_key, lo_key);
}

}  // namespace bigmul::prim
