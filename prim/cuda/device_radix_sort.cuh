// SPDX-License-Identifier: LGPL-3.0-or-later
// LSD radix sort of integer keys on the device, in CUB's shape (size query
// with d_temp == nullptr, then run; asynchronous on `stream`; cudaError_t).
// d_out[0..n) = d_in[0..n) in ascending order, stable; d_in is not changed
// (d_in == d_out is allowed). 8-bit digits, three steps per digit (count,
// one exclusive scan of the digit-major count table, stable scatter):
// prim/cuda/radix_sort_hd.hpp. Temp: a second key array and the count table
// (256 counts per 2048-key tile, twice) with its scan's temp.
//
// Explicit instantiations (device_radix_sort.cu): int32, uint32, int64, uint64.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace bigmul::prim::cuda {

template <class K>
cudaError_t device_radix_sort(void* d_temp, std::size_t& temp_bytes, const K* d_in, K* d_out, std::size_t n,
                              cudaStream_t stream = 0);

}  // namespace bigmul::prim::cuda
