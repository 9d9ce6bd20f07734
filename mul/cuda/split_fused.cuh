// SPDX-License-Identifier: LGPL-3.0-or-later
// The balanced split in one pass (mul/cuda/split_fused_hd.hpp): the values of
// split_balanced_device_batched (mul/cuda/coefficients_device.cuh) from one
// memset and one kernel instead of fold, a device scan and emit. CUB's
// two-call shape (d_temp == nullptr: temp_bytes only); asynchronous on
// `stream`, never throws, never synchronizes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "mul/coefficients.hpp"

namespace bigmul::detail::cuda {

// G operands of n limbs (operand g at d_a + g*n) -> balanced digits in
// [-B/2, B/2), count(n) + 1 values each (top carry last) at d_out + g*(count(n)+1).
cudaError_t split_balanced_fused_device_batched(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a,
                                                std::size_t n, std::size_t G, coeff_format f, std::int32_t* d_out,
                                                cudaStream_t stream = 0);

}  // namespace bigmul::detail::cuda
