// SPDX-License-Identifier: LGPL-3.0-or-later
// Block-level scan and reduction over a "blocked" arrangement: thread t holds
// Items consecutive elements. Thread values are folded serially, warps scan
// the thread totals with shuffles, one warp scans the warp totals.
#pragma once

#include "prim/cuda/common.cuh"
#include "prim/cuda/warp_scan.cuh"

namespace bigmul::prim::cuda {

template <class T, int Threads, warp_scan_kind Kind = warp_scan_kind::ladner_fischer>
struct block_scan {
  static_assert(Threads % 32 == 0 && Threads <= 1024, "whole warps, at most 1024 threads");
  static constexpr int warps = Threads / 32;
  struct storage {
    T warp_total[warps];
    T block_total;
  };

  storage& s;
  __device__ explicit block_scan(storage& st) : s(st) {}

  // Exclusive prefix of `x` among the threads of the block (identity for
  // thread 0), and the block total in `total`. Contains __syncthreads().
  template <class Op>
  __device__ T exclusive(const T& x, Op op, const T& identity, T& total) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const T incl = warp_inclusive_scan<Kind>(x, op);
    if (lane == 31) s.warp_total[warp] = incl;
    T excl = shfl_up(incl, 1);
    if (lane == 0) excl = identity;
    __syncthreads();
    if (warp == 0) {
      T w = lane < warps ? s.warp_total[lane] : identity;
      const T wi = warp_inclusive_scan<Kind>(w, op);
      T we = shfl_up(wi, 1);
      if (lane == 0) we = identity;
      if (lane < warps) s.warp_total[lane] = we;
      if (lane == 31) s.block_total = wi;
    }
    __syncthreads();
    const T prefix = op(s.warp_total[warp], excl);
    total = s.block_total;
    __syncthreads();  // storage may be reused right after
    return prefix;
  }
};

// Ordered block reduction; the total is returned to every thread.
template <class T, int Threads>
struct block_reduce {
  static constexpr int warps = Threads / 32;
  struct storage {
    T warp_total[warps];
    T total;
  };
  storage& s;
  __device__ explicit block_reduce(storage& st) : s(st) {}

  template <class Op>
  __device__ T reduce(const T& x, Op op, const T& identity) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const T w = warp_reduce(x, op);
    if (lane == 0) s.warp_total[warp] = w;
    __syncthreads();
    if (warp == 0) {
      const T t = warp_reduce(lane < warps ? s.warp_total[lane] : identity, op);
      if (lane == 0) s.total = t;
    }
    __syncthreads();
    const T r = s.total;
    __syncthreads();
    return r;
  }
};

// Items per thread so that a tile of T is 64 bytes per thread (16 KiB of
// shared memory at 256 threads), at least 1, at most 16.
template <class T>
inline constexpr int items_for = sizeof(T) >= 64 ? 1 : (64 / sizeof(T) > 16 ? 16 : int(64 / sizeof(T)));

// Shared-memory slot of tile element i: one padding word per 32 elements so
// the blocked (thread t reads t*Items + j) pattern does not hit one bank.
__device__ __forceinline__ int padded(int i) { return i + (i >> 5); }

}  // namespace bigmul::prim::cuda
