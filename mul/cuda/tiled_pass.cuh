// SPDX-License-Identifier: LGPL-3.0-or-later
// The tiled pipeline on the device (internal to mul/): digits -> exact 128-bit
// convolution (tiled_device.cuh) -> carry normalization -> join into limbs, for
// G products at once (operands back to back). Failures are recorded for
// last_error_message() (device_status.cuh).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "bigmul/config.hpp"
#include "bigmul/device.hpp"
#include "mul/cuda/tiled_device.cuh"

namespace bigmul::cuda {

// Device bytes the pipeline needs; 0 when the size query failed.
std::size_t tiled_bytes(std::size_t an, std::size_t bn, std::size_t G, radix rx, bool square, unsigned tile,
                        detail::cuda::tiled_variant v);

// Runs the pipeline in d_temp (tiled_bytes(...) bytes) and synchronizes st;
// adds the convolution and carry times to *stats when stats is set.
cudaError_t tiled_run(void* d_temp, limb_t* d_r, const limb_t* d_a, std::size_t an, const limb_t* d_b,
                      std::size_t bn, std::size_t G, radix rx, unsigned tile, detail::cuda::tiled_variant v,
                      cudaStream_t st, mul_stats* stats);

}  // namespace bigmul::cuda
