// SPDX-License-Identifier: LGPL-3.0-or-later
// CUDA tiled convolution ([DIEGUEZ18 §7.4]): exact c[k] = sum_i x[i] y[k-i] of
// digit vectors (uint32), accumulated as products split into 32-bit halves
// summed in two 64-bit words (lo, hi): exact for up to 2^32 terms per output,
// i.e. min(nx, ny) <= 2^32. c[k] = hi * 2^32 + lo as unsigned __int128.
//
//   tile_pair_atomic   the paper's version: one block per (x-tile, y-tile)
//                      pair computes the 2T-1 partial sums of its tiles (each
//                      thread two outputs, T products in all) and merges them
//                      into global lo/hi arrays with 64-bit atomicAdd; a last
//                      kernel folds lo/hi into unsigned __int128.
//   output_stationary  each block owns T outputs and sweeps the x-tiles that
//                      reach them, staging the x-tile and the 2T-1 y values
//                      it meets in shared memory; no atomics, no temp.
// Both batched: G problems (x at g*nx, y at g*ny, c at g*(nx+ny-1)).
// CUB's shape: d_temp == nullptr asks for temp_bytes; asynchronous on the
// stream; returns a cudaError_t; never throws or synchronizes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "bigmul/hd.hpp"

namespace bigmul::detail::cuda {

enum class tiled_variant { tile_pair_atomic, output_stationary };

inline constexpr unsigned tiled_default_tile = 256;
inline constexpr unsigned tiled_max_tile = 1024;  // one thread per tile element

// tile = T threads per block (0: tiled_default_tile; at most tiled_max_tile,
// else cudaErrorInvalidValue). nx, ny >= 1 (with nx or ny == 0 nothing is
// written).
cudaError_t tiled_convolution_device(void* d_temp, std::size_t& temp_bytes, const std::uint32_t* d_x,
                                     std::size_t nx, const std::uint32_t* d_y, std::size_t ny, std::size_t G,
                                     unsigned __int128* d_c, tiled_variant v, unsigned tile,
                                     cudaStream_t stream = 0);

// ---------------------------------------------------------------------------
// Per-thread arithmetic of the two kernels, host and device (the tests run it
// on the host over every block and thread).
namespace tiled_hd {

// lo/hi accumulation of one product.
BIGMUL_HD void mac(std::uint64_t& lo, std::uint64_t& hi, std::uint32_t a, std::uint32_t b) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  lo += p & 0xffffffffu;
  hi += p >> 32;
}

BIGMUL_HD unsigned __int128 fold(std::uint64_t lo, std::uint64_t hi) {
  return (static_cast<unsigned __int128>(hi) << 32) + lo;
}

// Tile pair: output k (0 <= k < 2T-1) of xs[0..T) * ys[0..T) (zero-padded tiles).
BIGMUL_HD void tile_pair_output(const std::uint32_t* xs, const std::uint32_t* ys, unsigned T, unsigned k,
                                std::uint64_t& lo, std::uint64_t& hi) {
  const unsigned i0 = k >= T ? k - (T - 1) : 0, i1 = k < T - 1 ? k : T - 1;
  for (unsigned i = i0; i <= i1; ++i) mac(lo, hi, xs[i], ys[k - i]);
}

// Output-stationary: the x-tiles [first, end) (tile indices) whose products
// reach outputs [k0, k0 + T): i in [k0 - (ny - 1), k0 + T - 1] within [0, nx).
BIGMUL_HD void os_tile_range(std::size_t k0, unsigned T, std::size_t nx, std::size_t ny, std::size_t& first,
                             std::size_t& end) {
  const std::size_t i_first = k0 >= ny - 1 ? k0 - (ny - 1) : 0;
  const std::size_t i_last = k0 + T - 1 < nx - 1 ? k0 + T - 1 : nx - 1;  // inclusive
  first = i_first / T;
  end = i_first <= i_last ? i_last / T + 1 : first;
}

// The y window of x-tile i0 for outputs [k0, k0 + T): ys2[q] = y[k0 - i0 - (T-1) + q],
// q in [0, 2T-1); returns that y index (may be negative or >= ny: stage 0).
BIGMUL_HD long long os_y_index(std::size_t k0, std::size_t i0, unsigned T, unsigned q) {
  return static_cast<long long>(k0) - static_cast<long long>(i0) - static_cast<long long>(T - 1) + q;
}

// Output k0 + t from x-tile xs[0..T) and its y window ys2[0..2T-1).
BIGMUL_HD void os_output(const std::uint32_t* xs, const std::uint32_t* ys2, unsigned T, unsigned t,
                         std::uint64_t& lo, std::uint64_t& hi) {
  for (unsigned i = 0; i < T; ++i) mac(lo, hi, xs[i], ys2[t + (T - 1) - i]);
}

}  // namespace tiled_hd

}  // namespace bigmul::detail::cuda
