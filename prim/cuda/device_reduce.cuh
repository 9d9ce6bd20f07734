// SPDX-License-Identifier: LGPL-3.0-or-later
// Device-wide reduction in CUB's shape (size query, then run; stream;
// cudaError_t). The total is written to d_out[0] on the device.
//   commutative: cascading ([KOIKE15 §4.4]): a fixed grid folds the input
//                grid-stride (coalesced, any order), then a block tree, then
//                one block over the per-block partials.
//   ordered:     each block owns a contiguous range and folds it tile by tile
//                in order (the pipeline idea of [KOIKE15 §4.6.3]: tile trees
//                feed an in-order accumulator), then an ordered pass over the
//                partials. Correct for non-commutative operators.
// Explicit instantiations as for the scans (device_reduce.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "prim/reduce.hpp"

namespace bigmul::prim::cuda {

template <class T, class Op>
cudaError_t device_reduce(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::size_t n, Op op,
                          T identity, operand_order order = operand_order::ordered, cudaStream_t stream = 0);

}  // namespace bigmul::prim::cuda
