// SPDX-License-Identifier: LGPL-3.0-or-later
// Which algorithm the GPU runs for a product, and whether the GPU can plan
// every pass of it. backend::automatic asks gpu_plannable before it sends a
// product to the GPU, so that products the in-house GPU FFT cannot plan (real
// transforms past 2^27 points, complex past 2^26, about 1.3e8 decimal digits,
// sooner when the exactness retry lengthens the transform) go to the CPU
// instead of failing. Plain C++ (no CUDA): the same rule in CPU-only builds
// and in the tests.
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"
#include "fft/cuda/device_fft_plan.hpp"

namespace bigmul::detail {

// The algorithm the device dispatcher runs when asked for `requested`:
// automatic picks tiled below the tuned crossover (the device's mul/cuda/params_<device>.inc)
// and fft_real above; single products (batched = false) compare bn, batched
// products of n limbs compare n.
algorithm gpu_algorithm_for(algorithm requested, std::size_t an, std::size_t bn, radix rx, bool batched);

// Whether the in-house GPU FFT plans a transform of n points for algo (real:
// a half-length complex plan of n/2 points; asks the planner itself,
// fft/cuda/device_fft_plan.hpp).
bool in_house_fft_plannable(algorithm algo, std::size_t n);

// Whether the product's in-house FFT plans with fft::cuda::plan::two_pass_limits
// where they save a pass: BIGMUL_GPU_FFT_TWO_PASS=1 (off by default until a GPU
// run has measured it, docs/gpu-phases.md), or set_gpu_fft_two_pass.
bool gpu_fft_two_pass();
// 1 on, 0 off, -1 back to the environment's choice: bench_mul_gpu's rows that
// compare the two in one process (not for concurrent products).
void set_gpu_fft_two_pass(int on);

// The in-house FFT's tile limits for a batch of G transforms of `points`
// complex points (single: FP32): with two_pass, the two-pass limits where they
// plan fewer passes than the default ones (2^22 and 2^23 points FP64, 2^23
// FP32), else the default ones. The pass sizes the product's memory, plans and
// byte model by these (mul/cuda/fft_mul_device.cu).
bigmul::fft::cuda::plan::limits gpu_fft_limits(bool single, std::size_t points, std::size_t G, bool two_pass);

// Whether the GPU can run this product (G products of an x bn limbs; G = 1
// and batched = false for one product) with every pass the exactness retry
// may need (mul/fft_pass_policy.hpp: coefficient sizes from the first down to
// the lowest one sized). tiled always plans; the cuFFT engine plans any
// length (its failures are reported as errors, not refused here).
bool gpu_plannable(algorithm requested, fft_engine engine, unsigned forced_digits, std::size_t an, std::size_t bn,
                   radix rx, bool batched);

// The size (G * (an + bn) limbs) past which backend automatic uses the GPU
// (the time includes both transfers).
std::size_t gpu_host_crossover(radix rx);

// backend::automatic's choice, apart from whether a GPU is usable: the GPU
// when the algorithm has a CUDA version, the product is past the host
// crossover and gpu_plannable holds; else the CPU.
bool automatic_prefers_gpu(const mul_options& o, std::size_t an, std::size_t bn, std::size_t G, radix rx,
                           bool batched);

}  // namespace bigmul::detail
