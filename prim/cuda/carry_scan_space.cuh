// SPDX-License-Identifier: LGPL-3.0-or-later
// Room for a carry look-ahead over G problems, carved from one two-phase
// temp allocation: the (generate, propagate) pairs, their exclusive scan
// with the carry operator, and that scan's own temp storage. Shared by the
// device carry normalization (carry/cuda) and the balanced split (mul/cuda).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "prim/cuda/common.cuh"
#include "prim/cuda/device_scan.cuh"
#include "prim/ops.hpp"

namespace bigmul::prim::cuda {

struct carry_scan_space {
  carry_gp* pairs = nullptr;
  carry_gp* scanned = nullptr;
  void* scan_temp = nullptr;
  std::size_t scan_bytes = 0, count = 0;

  // Takes room for `count` pairs from `carve` (pointers stay null while it
  // only sizes).
  cudaError_t carve(temp_carver& carver, std::size_t n, cudaStream_t stream) {
    count = n;
    pairs = carver.take<carry_gp>(n);
    scanned = carver.take<carry_gp>(n);
    if (cudaError_t e = device_exclusive_scan(static_cast<void*>(nullptr), scan_bytes,
                                              static_cast<const carry_gp*>(nullptr), static_cast<carry_gp*>(nullptr),
                                              n, carry_op{}, carry_identity, stream))
      return e;
    scan_temp = carver.take<char>(scan_bytes);
    return cudaSuccess;
  }

  // scanned = the exclusive scan of pairs.
  cudaError_t scan(cudaStream_t stream) {
    return device_exclusive_scan(scan_temp, scan_bytes, static_cast<const carry_gp*>(pairs), scanned, count,
                                 carry_op{}, carry_identity, stream);
  }
};

}  // namespace bigmul::prim::cuda
