// SPDX-License-Identifier: LGPL-3.0-or-later
// How far ahead the vector NTT engines' passes over memory prefetch
// (fft/ntt_avx2_transform.cpp, fft/ntt_avx2_radix3.cpp,
// fft/ntt_ifma_transform.cpp, fft/ntt_ifma_radix3.cpp).
#pragma once

#include <cstddef>

namespace bigmul::fft {

// The prefetch distance, in 8-byte words, of a transform's passes over
// blocks of `points` (a power-of-two part, or a radix-3 stage's third):
// 2 KiB from 2^20 points on, where the passes stream the data from memory
// and each step's arithmetic leaves too few loads in flight for the
// hardware prefetcher alone (past a block's end the prefetches reach the
// next block, the one a depth-first recursion visits next); 0 below, where
// the data stays in the caches and, with two threads, a prefetch past a
// block's end pulls lines away from the thread writing the next block.
inline constexpr std::size_t ntt_prefetch_ahead(std::size_t points) {
  return points >= (std::size_t{1} << 20) ? 256 : 0;
}

}  // namespace bigmul::fft
