// SPDX-License-Identifier: LGPL-3.0-or-later
// Kernels and templates behind prim/cuda/device_reduce.cuh.
#pragma once

#include "prim/cuda/block_scan.cuh"
#include "prim/cuda/common.cuh"
#include "prim/cuda/device_reduce.cuh"
#include "prim/ops.hpp"

namespace bigmul::prim::cuda {

inline constexpr int reduce_threads = 256;
inline constexpr unsigned reduce_max_blocks = 1024;

namespace reduce_detail {

template <class T, class Op>
__global__ void __launch_bounds__(reduce_threads) cascading_kernel(const T* in, std::size_t n, Op op, T identity,
                                                                   T* partial) {
  __shared__ typename block_reduce<T, reduce_threads>::storage st;
  T acc = identity;
  const std::size_t stride = std::size_t(gridDim.x) * reduce_threads;
  for (std::size_t i = std::size_t(blockIdx.x) * reduce_threads + threadIdx.x; i < n; i += stride)
    acc = op(acc, in[i]);
  const T r = block_reduce<T, reduce_threads>(st).reduce(acc, op, identity);
  if (threadIdx.x == 0) partial[blockIdx.x] = r;
}

// Block b folds [begin, end) of its contiguous range in tiles of
// reduce_threads * Items: striped loads through shared memory, blocked folds,
// an ordered block tree, the tile total appended to the running value.
template <class T, int Items, class Op>
__global__ void __launch_bounds__(reduce_threads) ordered_kernel(const T* in, std::size_t n, std::size_t per_block,
                                                                 Op op, T identity, T* partial) {
  constexpr int tile = reduce_threads * Items;
  __shared__ T sm[tile + tile / 32];
  __shared__ typename block_reduce<T, reduce_threads>::storage st;
  const std::size_t begin = std::size_t(blockIdx.x) * per_block;
  const std::size_t end = begin + per_block < n ? begin + per_block : n;
  T running = identity;
  for (std::size_t base = begin; base < end; base += tile) {
#pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int i = j * reduce_threads + int(threadIdx.x);
      sm[padded(i)] = base + i < end ? in[base + i] : identity;
    }
    __syncthreads();
    T acc = identity;
#pragma unroll
    for (int j = 0; j < Items; ++j) acc = op(acc, sm[padded(int(threadIdx.x) * Items + j)]);
    running = op(running, block_reduce<T, reduce_threads>(st).reduce(acc, op, identity));
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = running;
}

// One block, in order, over the partials.
template <class T, class Op>
__global__ void __launch_bounds__(reduce_threads) final_kernel(const T* partial, unsigned count, Op op, T identity,
                                                               T* out) {
  __shared__ typename block_reduce<T, reduce_threads>::storage st;
  T running = identity;
  for (unsigned b = 0; b < count; b += reduce_threads) {
    const unsigned i = b + threadIdx.x;
    running = op(running, block_reduce<T, reduce_threads>(st).reduce(i < count ? partial[i] : identity, op, identity));
  }
  if (threadIdx.x == 0) *out = running;
}

}  // namespace reduce_detail

template <class T, class Op>
cudaError_t device_reduce(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::size_t n, Op op,
                          T identity, operand_order order, cudaStream_t stream) {
  constexpr int items = items_for<T>;
  constexpr std::size_t tile = std::size_t(reduce_threads) * items;
  const std::size_t tiles = ceil_div(n, tile);
  const unsigned blocks = unsigned(tiles < reduce_max_blocks ? (tiles ? tiles : 1) : reduce_max_blocks);
  temp_carver carve(d_temp);
  T* partial = carve.take<T>(blocks);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (n == 0) {
    reduce_detail::final_kernel<T><<<1, reduce_threads, 0, stream>>>(partial, 0u, op, identity, d_out);
    return cudaPeekAtLastError();
  }
  if (order == operand_order::commutative) {
    reduce_detail::cascading_kernel<T><<<blocks, reduce_threads, 0, stream>>>(d_in, n, op, identity, partial);
  } else {
    const std::size_t per_block = ceil_div(tiles, blocks) * tile;
    const unsigned used = unsigned(ceil_div(n, per_block));
    reduce_detail::ordered_kernel<T, items><<<used, reduce_threads, 0, stream>>>(d_in, n, per_block, op, identity,
                                                                               partial);
    reduce_detail::final_kernel<T><<<1, reduce_threads, 0, stream>>>(partial, used, op, identity, d_out);
    return cudaPeekAtLastError();
  }
  reduce_detail::final_kernel<T><<<1, reduce_threads, 0, stream>>>(partial, blocks, op, identity, d_out);
  return cudaPeekAtLastError();
}

}  // namespace bigmul::prim::cuda
