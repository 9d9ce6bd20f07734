// SPDX-License-Identifier: LGPL-3.0-or-later
// The carry normalization in one pass (carry/cuda/carry_fused_hd.hpp): the
// values and flags of carry_normalize_device_batched (carry/cuda/carry_device.cuh)
// from one memset and one kernel when the carry plan has one spread round (the
// FFT's int64 sums); other plans run the multi-pass kernels. CUB's two-call
// shape; asynchronous on `stream`, never throws, never synchronizes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "carry/digit_base.hpp"

namespace bigmul::carry::cuda {

// G problems: c at d_c + g*nc, digits at d_out + g*m, d_ok[g] (1: the value
// fits in m digits), as carry_normalize_device_batched.
template <class T>
cudaError_t carry_normalize_fused_device_batched(void* d_temp, std::size_t& temp_bytes, const T* d_c,
                                                 std::size_t nc, std::size_t G, digit_base b, std::uint32_t* d_out,
                                                 std::size_t m, int* d_ok, cudaStream_t stream = 0,
                                                 std::uint64_t max_abs = 0);

extern template cudaError_t carry_normalize_fused_device_batched<std::int64_t>(void*, std::size_t&,
                                                                               const std::int64_t*, std::size_t,
                                                                               std::size_t, digit_base,
                                                                               std::uint32_t*, std::size_t, int*,
                                                                               cudaStream_t, std::uint64_t);

}  // namespace bigmul::carry::cuda
