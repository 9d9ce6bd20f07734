// SPDX-License-Identifier: LGPL-3.0-or-later
// One warp-uniform value per warp, published to shared memory and folded in
// warp order by whichever thread needs it: the block's total, or the
// exclusive prefix of the warps below its own. For the few warps of a block
// a serial fold of shared words is cheaper than block_scan.cuh's shuffle
// scan of per-thread values, which warp-uniform values do not need.
#pragma once

#include "prim/cuda/common.cuh"

namespace bigmul::prim::cuda {

template <class T, unsigned Threads>
struct warp_totals {
  static_assert(Threads % 32 == 0 && Threads <= 1024, "whole warps, at most 1024 threads");
  static constexpr unsigned warps = Threads / 32;
  T v[warps];

  // Lane 0 stores its warp's x, then a barrier: every thread of the block calls it.
  __device__ __forceinline__ void publish(const T& x) {
    if ((threadIdx.x & 31) == 0) v[threadIdx.x >> 5] = x;
    __syncthreads();
  }
  // acc op v[0] op ... op v[count - 1], in order (count <= warps).
  template <class Op>
  __device__ __forceinline__ T fold(unsigned count, T acc, Op op) const {
    for (unsigned w = 0; w < count; ++w) acc = op(acc, v[w]);
    return acc;
  }
};

}  // namespace bigmul::prim::cuda
