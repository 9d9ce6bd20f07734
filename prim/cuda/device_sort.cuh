// SPDX-License-Identifier: LGPL-3.0-or-later
// Device sorts in CUB's shape (size query, then run; stream; cudaError_t).
// All sort in place: d_keys (and d_values when not null) hold the result.
// comp is a strict weak order, comp(a, b) = a before b.
//
//   device_bitonic_sort   K-model bitonic network ([CAPANNINI10]): phases planned
//                         on the host (prim/bitonic_plan.hpp), one kernel per
//                         phase, parts of 2^11 keys in shared memory,
//                         coalesced runs of 32. Any n <= 2^32. Not stable.
//   device_batched_sort   G problems of N <= 4096 keys back to back, one
//                         launch ([DIEGUEZ18 ch. 4] BMCS): 4 keys per thread, two
//                         network steps fused per barrier. Not stable.
//   device_merge_sort     1024-key tiles sorted by ShearSort on a 32 x 32
//                         matrix, one warp per tile, each thread sorting a
//                         row or column in registers, conflict-free thanks
//                         to a padded layout ([SITCHINAVA13]); then merge-path
//                         pairwise merges. Stable merges, base case not stable.
//
// Explicit instantiations (device_sort_*.cu): keys int32/int64/uint64 with
// std::less-like and greater comparators from prim/cuda/device_sort.cuh,
// values none or uint32/uint64.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace bigmul::prim::cuda {

struct less_op {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};
struct greater_op {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const { return b < a; }
};

// V = no_values: keys only (pass nullptr for d_values).
struct no_values {
  std::uint32_t unused;
};

inline constexpr std::size_t batched_sort_max_n = 4096;

template <class K, class V, class Comp>
cudaError_t device_bitonic_sort(void* d_temp, std::size_t& temp_bytes, K* d_keys, V* d_values, std::size_t n,
                                Comp comp, cudaStream_t stream = 0);

template <class K, class V, class Comp>
cudaError_t device_batched_sort(void* d_temp, std::size_t& temp_bytes, K* d_keys, V* d_values, std::size_t G,
                                std::size_t N, Comp comp, cudaStream_t stream = 0);

template <class K, class V, class Comp>
cudaError_t device_merge_sort(void* d_temp, std::size_t& temp_bytes, K* d_keys, V* d_values, std::size_t n,
                              Comp comp, cudaStream_t stream = 0);

}  // namespace bigmul::prim::cuda
