// SPDX-License-Identifier: LGPL-3.0-or-later
// The cuFFT engine of the GPU FFT pass (internal to mul/; the pass itself:
// fft_mul_device.cu): the transforms between the split and the guard, run by
// cuFFT in passes of their own with bigmul's load / store functors around them
// (R2C / C2R for the real layout, C2C for the complex one). Instantiated for
// Real = double, float and both layouts.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "mul/cuda/fft_pass_functors.cuh"
#include "mul/cuda/phase_clock.cuh"

namespace bigmul::detail::cuda {

// cuFFT work area (bytes) of one pass of n points, G transforms.
template <class Real>
cudaError_t cufft_pass_work_bytes(bool real_layout, std::size_t n, std::size_t G, std::size_t& bytes);

// Forward transforms of the digits (load_a, and load_b unless square) into A
// (B), the pointwise product scaled by 1/n into A, the inverse transform, and
// the rounding store: marks clock after the forward transforms, the product and
// the inverse. ra, rb: the real inputs / outputs of the real layout (rb unused
// when square); work: cuFFT's work area (work_bytes). Asynchronous on st.
template <class Real, bool Packed>
cudaError_t cufft_transforms(bool square, std::size_t n, std::size_t G, const digits_load<Real, Packed>& load_a,
                             const digits_load<Real, Packed>& load_b, const round_store<Real, Packed>& rounder,
                             dfft::cplx<Real>* A, dfft::cplx<Real>* B, void* ra, void* rb, void* work,
                             std::size_t work_bytes, phase_clock& clock, cudaStream_t st);

}  // namespace bigmul::detail::cuda
