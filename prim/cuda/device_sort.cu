// SPDX-License-Identifier: LGPL-3.0-or-later
// Explicit instantiations of the device sorts.
#include <utility>

#include "prim/cuda/device_merge_sort_impl.cuh"
#include "prim/cuda/device_sort_batched_impl.cuh"
#include "prim/cuda/device_sort_bitonic_impl.cuh"

namespace bigmul::prim::cuda {

#define BIGMUL_SORT_INSTANCES(K, V, C)                                                                              \
  template cudaError_t device_bitonic_sort<K, V, C>(void*, std::size_t&, K*, V*, std::size_t, C, cudaStream_t);     \
  template cudaError_t device_batched_sort<K, V, C>(void*, std::size_t&, K*, V*, std::size_t, std::size_t, C,       \
                                                    cudaStream_t);                                                  \
  template cudaError_t device_merge_sort<K, V, C>(void*, std::size_t&, K*, V*, std::size_t, C, cudaStream_t);

#define BIGMUL_SORT_KEY(K)                                  \
  BIGMUL_SORT_INSTANCES(K, no_values, less_op)              \
  BIGMUL_SORT_INSTANCES(K, no_values, greater_op)           \
  BIGMUL_SORT_INSTANCES(K, std::uint32_t, less_op)          \
  BIGMUL_SORT_INSTANCES(K, std::uint64_t, less_op)

BIGMUL_SORT_KEY(std::int32_t)
BIGMUL_SORT_KEY(std::int64_t)
BIGMUL_SORT_KEY(std::uint64_t)

#undef BIGMUL_SORT_KEY
#undef BIGMUL_SORT_INSTANCES

}  // namespace bigmul::prim::cuda
