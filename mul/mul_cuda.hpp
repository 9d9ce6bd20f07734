// SPDX-License-Identifier: LGPL-3.0-or-later
// The host side of the CUDA backend, as the CPU dispatcher sees it (no CUDA
// types here: dispatch.cpp is plain C++). Defined in mul/cuda/mul_host.cu;
// only declared when the library is built with CUDA.
#pragma once

#include <cstddef>
#include <string>

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"

namespace bigmul::detail {

#if defined(BIGMUL_HAVE_CUDA)
// Probes once (driver, device, compute capability >= 9.0) and caches.
bool cuda_probe(std::string& why);

// r = a * b on the GPU: copies in, bigmul::cuda::mul, copies out. Throws
// bigmul::error: kind::resource when the device lacks the memory (the caller
// may fall back to the CPU), kind::internal for a CUDA failure, kind::domain
// when no exact configuration exists.
void mul_cuda_host(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                   const mul_options& options, mul_stats& stats);
// Frees the cached GPU FFT plans (in-house twiddle tables, cuFFT plans);
// release_scratch() calls it. No CUDA call when none were made.
void cuda_release_plans();
void mul_batched_cuda_host(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G, radix rx,
                           const mul_options& options, mul_stats& stats);
#endif

}  // namespace bigmul::detail
