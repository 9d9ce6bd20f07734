// SPDX-License-Identifier: LGPL-3.0-or-later
// cuFFT adapter: the baseline engine beside the in-house FFT, with the same
// conventions where they apply (forward exp(-2 pi i jk/n), inverse unscaled).
// Plans are cached per (device, kind, n, batch), created on first use and shared by
// all threads (a mutex guards the cache and each plan's stream + work area + exec,
// which cuFFT does not allow concurrently on one handle). Nothing throws: failures return a
// cudaError_t (cufftResult mapped: CUFFT_ALLOC_FAILED -> cudaErrorMemoryAllocation,
// CUFFT_INVALID_VALUE / INVALID_SIZE / INVALID_TYPE -> cudaErrorInvalidValue,
// CUFFT_INVALID_DEVICE -> cudaErrorInvalidDevice, CUFFT_NOT_SUPPORTED / NOT_IMPLEMENTED ->
// cudaErrorNotSupported, anything else -> cudaErrorUnknown) and cufft_last_error()
// describes the last failure of this thread.
// libcufft is not linked: the first call of any function here opens it
// (fft/cuda/cufft_library.hpp), before any CUDA call; when it cannot be loaded,
// the transforms, cufft_prepare and cufft_work_bytes return
// cudaErrorSharedObjectInitFailed and cufft_last_error()
// names the library and dlerror()'s reason.
// Work areas: a plan owns none (cufftSetAutoAllocation(0)). Every execution binds
// the caller's d_work (at least cufft_work_bytes() bytes, e.g. carved from the
// caller's temp storage) or, when d_work is null, a stream-ordered allocation of its
// own freed after the transform. So executions of one (n, batch, kind) on several
// streams or host threads at once never share scratch on the GPU
// (fft/cuda/plan_cache.hpp).
//
// Layouts (batch transforms back to back):
//   c2c: n complex in, n complex out per transform (in place allowed).
//   r2c: n reals in (distance n), n/2+1 bins out (distance n/2+1);
//   c2r: n/2+1 bins in, n reals out. cuFFT's C2R may overwrite its input.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "fft/cuda/device_fft.cuh"  // cplx<Real>

namespace bigmul::fft::cuda {

enum class cufft_kind { z2z, c2c, d2z_z2d, r2c_c2r };

cudaError_t cufft_forward_c2c(cplx<double>* d_in, cplx<double>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work = nullptr, std::size_t work_bytes = 0);
cudaError_t cufft_forward_c2c(cplx<float>* d_in, cplx<float>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work = nullptr, std::size_t work_bytes = 0);
cudaError_t cufft_inverse_c2c(cplx<double>* d_in, cplx<double>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work = nullptr, std::size_t work_bytes = 0);
cudaError_t cufft_inverse_c2c(cplx<float>* d_in, cplx<float>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work = nullptr, std::size_t work_bytes = 0);
cudaError_t cufft_forward_r2c(const double* d_in, cplx<double>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work = nullptr, std::size_t work_bytes = 0);
cudaError_t cufft_forward_r2c(const float* d_in, cplx<float>* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work = nullptr, std::size_t work_bytes = 0);
cudaError_t cufft_inverse_c2r(const cplx<double>* d_in, double* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work = nullptr, std::size_t work_bytes = 0);
cudaError_t cufft_inverse_c2r(const cplx<float>* d_in, float* d_out, std::size_t n, std::size_t batch,
                              cudaStream_t s, void* d_work = nullptr, std::size_t work_bytes = 0);

// Creates (or finds) the plan now, so that a timed run excludes plan creation.
cudaError_t cufft_prepare(cufft_kind kind, std::size_t n, std::size_t batch);
// Work-area bytes an execution of this kind needs (both directions of a real
// kind: the larger); creates the plans like cufft_prepare.
cudaError_t cufft_work_bytes(cufft_kind kind, std::size_t n, std::size_t batch, std::size_t& bytes);

// Frees every cached plan (all devices). Plans in use by another thread must not be
// executing; call at shutdown or between benchmarks.
void cufft_release_plans();

// Text of this thread's last cuFFT failure ("" if none).
const char* cufft_last_error();

// dst = dst * src * scale over batch*n bins (c2c layout); src may equal dst (square).
cudaError_t cufft_pointwise_multiply_c2c(cplx<double>* d_dst, const cplx<double>* d_src, std::size_t n,
                                         std::size_t batch, double scale, cudaStream_t s);
cudaError_t cufft_pointwise_multiply_c2c(cplx<float>* d_dst, const cplx<float>* d_src, std::size_t n,
                                         std::size_t batch, float scale, cudaStream_t s);
// Same over batch*(n/2+1) bins (r2c layout of real length n). After c2r of the
// result: n * scale * (x conv y), cyclic of length n.
cudaError_t cufft_pointwise_multiply_r2c(cplx<double>* d_dst, const cplx<double>* d_src, std::size_t n,
                                         std::size_t batch, double scale, cudaStream_t s);
cudaError_t cufft_pointwise_multiply_r2c(cplx<float>* d_dst, const cplx<float>* d_src, std::size_t n,
                                         std::size_t batch, float scale, cudaStream_t s);

}  // namespace bigmul::fft::cuda
