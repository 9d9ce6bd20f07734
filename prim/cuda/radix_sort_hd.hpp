// SPDX-License-Identifier: LGPL-3.0-or-later
// Index math of the GPU LSD radix sort for integer keys
// (prim/cuda/device_radix_sort.cuh): digits, the digit-major count table and
// the stable rank of an element in its tile. Plain C++17 with BIGMUL_HD
// functions, so that tests/prim/test_radix_sort_model.cpp runs the same
// passes on the CPU (blocks, warps and rounds emulated) against std::sort.
//
// A pass over digit p ([KNUTH98 §5.2.5], least significant digit first):
//   count    block b counts the digits of its tile: count[d * blocks + b]
//   scan     one exclusive scan of that digit-major table gives every
//            (digit, block) its first output position: all of digit d's
//            elements after all smaller digits', block b's after earlier
//            blocks'
//   scatter  block b walks its tile in rounds of `threads` consecutive
//            elements (thread t takes element r * threads + t), so element
//            order is (round, warp, lane); an element goes to
//            offset[d] + earlier rounds' d's + earlier warps' d's this round
//            + earlier lanes' d's in its warp (a warp match), which keeps
//            equal digits in input order: the pass is stable, so the passes
//            compose into a sort.
// Signed keys are sorted as unsigned ones with the sign bit flipped (an
// order-preserving bijection), flipped on the first load and the last store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "bigmul/hd.hpp"

namespace bigmul::prim::radix {

inline constexpr unsigned digit_bits = 8;
inline constexpr unsigned radix = 1u << digit_bits;
inline constexpr unsigned threads = 256;  // per block; one thread per digit where digits are walked
inline constexpr unsigned warps = threads / 32;
inline constexpr unsigned rounds = 8;     // tile = threads * rounds elements
inline constexpr std::size_t tile = std::size_t{threads} * rounds;

template <class K>
using bits_of = std::make_unsigned_t<K>;

template <class K>
inline constexpr unsigned passes = unsigned(sizeof(K) * 8 / digit_bits);

// The key as sortable bits: signed keys with the sign bit flipped.
template <class K>
BIGMUL_HD bits_of<K> sign_flip() {
  return std::is_signed_v<K> ? bits_of<K>(bits_of<K>(1) << (sizeof(K) * 8 - 1)) : bits_of<K>(0);
}

template <class U>
BIGMUL_HD unsigned digit(U bits, unsigned pass) {
  return unsigned(bits >> (pass * digit_bits)) & (radix - 1);
}

BIGMUL_HD std::size_t tiles_for(std::size_t n) { return (n + tile - 1) / tile; }

// Slot of (digit d, block b) in the count table.
BIGMUL_HD std::size_t count_index(unsigned d, std::size_t b, std::size_t blocks) { return d * blocks + b; }

// Element of thread t in round r of block b.
BIGMUL_HD std::size_t element_of(std::size_t b, unsigned r, unsigned t) { return b * tile + r * threads + t; }

// Output position of an element: base = the (digit, block) offset from the
// scan plus the digit's count in the block's earlier rounds; then the digit's
// count in earlier warps of this round and in earlier lanes of this warp.
BIGMUL_HD std::size_t scatter_position(std::size_t base, unsigned earlier_warps, unsigned earlier_lanes) {
  return base + earlier_warps + earlier_lanes;
}

// Which buffer pass p writes, so that the last pass writes the output: the
// output when (passes - 1 - p) is even, else the scratch buffer (ping-pong).
BIGMUL_HD bool pass_writes_output(unsigned p, unsigned npasses) { return (npasses - 1 - p) % 2 == 0; }

}  // namespace bigmul::prim::radix
