// SPDX-License-Identifier: LGPL-3.0-or-later
// The residue arrays an NTT product allocates (the driver's, and the
// estimates ntt_heap_bytes and ntt_table_bytes of mul/ntt_mul.hpp).
#pragma once

#include <cstddef>

#include "fft/ntt.hpp"
#include "mul/ntt_mul.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {

// Whole forward transforms as tasks (both operands, every prime: 2 x primes
// arrays) only up to this length, where the memory is small; above it the
// two operands' forward transforms of one prime run side by side (two
// threads) and the inverse is split over the threads: primes + 1 arrays.
inline constexpr std::size_t ntt_by_task_max_length = std::size_t{1} << 16;

// The residue arrays a product allocates (each max(n, count) u64) and where
// b's transforms go. By task: 2 x primes arrays. Otherwise prime k's in
// res[k] and b's for prime k in res[k + 1], still unused; the last prime's b
// in the result r when max(n, count) <= an + bn (nothing in r is read before
// Garner's output overwrites it), else in res[0] with prime 0's finished
// residues parked, packed, in r meanwhile (pack_first), else in one more
// array. Peak heap: primes x max(n, count) u64, about 3 (binary) or 4
// (decimal, past 2.7 10^8 digits) times the operands' bytes.
struct ntt_arrays {
  std::size_t arrays = 0, points = 0;
  bool by_task = false, last_b_in_result = false, pack_first = false;
};
// Bits of a residue below p (the packed width of prime 0's parked residues).
inline unsigned ntt_residue_width(fft::u64 p) { return 64 - static_cast<unsigned>(__builtin_clzll(p)); }
// The arrays of a product with this layout on `threads` threads, p0 its first prime.
ntt_arrays ntt_plan_arrays(const ntt_layout& l, fft::u64 p0, std::size_t an, std::size_t bn, unsigned threads,
                           bool square);

// Below 2^13 points a product is a few hundred microseconds: the thread
// hand-offs cost more than a second core gains.
inline unsigned ntt_threads(std::size_t n, unsigned requested) {
  return n < (std::size_t{1} << 13) ? 1u : prim::resolve_threads(requested);
}

}  // namespace bigmul::detail
