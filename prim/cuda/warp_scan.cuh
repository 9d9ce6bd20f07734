// SPDX-License-Identifier: LGPL-3.0-or-later
// Warp-level scans and reductions with shuffles ([DIEGUEZ18 ch. 4]: LF and KS).
// All 32 lanes take part. Operands keep their order: lane i's value is always
// the right operand of anything from lanes < i.
#pragma once

#include "prim/cuda/common.cuh"

namespace bigmul::prim::cuda {

enum class warp_scan_kind { kogge_stone, ladner_fischer };

// Kogge-Stone: log 32 steps, each lane adds the value `d` lanes below it.
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan_ks(T x, Op op) {
  const unsigned lane = threadIdx.x & 31;
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const T y = shfl_up(x, d);
    if (lane >= d) x = op(y, x);
  }
  return x;
}

// Ladner-Fischer (Sklansky form): at step k every lane in the upper half of
// a 2^(k+1) block adds the last value of the lower half; a constant number of
// active lanes per step, one shuffle source per half-block.
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan_lf(T x, Op op) {
  const unsigned lane = threadIdx.x & 31;
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const T y = shfl_idx(x, int((lane & ~(2 * d - 1)) | (d - 1)));
    if (lane & d) x = op(y, x);
  }
  return x;
}

template <warp_scan_kind Kind, class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T x, Op op) {
  if constexpr (Kind == warp_scan_kind::kogge_stone)
    return warp_inclusive_scan_ks(x, op);
  else
    return warp_inclusive_scan_lf(x, op);
}

// Ordered reduction; the total lands in lane 0.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T x, Op op) {
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const T y = shfl_down(x, d);
    // Lane i with i % 2d == 0 combines its pair; other lanes compute values
    // nobody reads.
    x = op(x, y);
  }
  return x;
}

}  // namespace bigmul::prim::cuda
