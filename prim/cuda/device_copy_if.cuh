// SPDX-License-Identifier: LGPL-3.0-or-later
// Stream compaction on the device, built from the device scan: flags =
// pred(x), exclusive scan of the flags = destinations, scatter. Stable.
// *d_num_selected (device memory) receives the count.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace bigmul::prim::cuda {

// Predicates with explicit instantiations (device_copy_if.cu).
template <class T>
struct select_less_than {
  T bound;
  __host__ __device__ bool operator()(const T& x) const { return x < bound; }
};

template <class T, class Pred>
cudaError_t device_copy_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out,
                           std::uint64_t* d_num_selected, std::size_t n, Pred pred, cudaStream_t stream = 0);

}  // namespace bigmul::prim::cuda
