// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief Device-level multiplication (CUDA builds only): operands and result already
/// in GPU memory, CUB's two-phase shape. Call once with d_temp == nullptr to
/// learn temp_bytes, then again with that much device memory to run. Nothing
/// throws: failures return a cudaError_t, and last_error_message() says what
/// went wrong in words.
///
/// The size query of an FFT algorithm builds (and caches, per device and size)
/// the FFT plan, so it allocates the plan's twiddle tables on the device.
///
/// Exactness: an FFT pass whose rounding guard fails is recomputed with smaller
/// coefficients (temp_bytes covers one such retry); the product is never
/// written unless the guard passed and the carried value fits. The call
/// therefore waits for the guard's result (one small device -> host copy on
/// `stream`) before it returns; the product itself is complete when it returns.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"

namespace bigmul::cuda {

/// How bigmul::cuda::mul computes a product on the device.
struct device_options {
  algorithm algo = algorithm::automatic;     ///< tiled, fft_complex, fft_real, fft_complex_f32, fft_real_f32
  fft_engine engine = fft_engine::in_house;  ///< for the FFT algorithms
  unsigned coefficient_digits = 0;           ///< FFT: 0 = from the exactness table
  unsigned tile = 0;                         ///< tiled: 0 = the tuned tile
  bool tile_pair_atomic = false;             ///< tiled: the tile-pair kernel of [DIEGUEZ18 §7.4] with global atomics
                                             ///< instead of the output-stationary one (for comparisons)
  bool modular_check = false;                ///< verify mod 2^61-1 on the device; failure = error
  mul_stats* stats = nullptr;                ///< host memory; phases are timed with CUDA events when set
};

/// d_r[0 .. an+bn) = d_a[0 .. an) * d_b[0 .. bn) in radix rx; an >= bn >= 1,
/// d_r must not overlap the operands (d_a == d_b is allowed: squaring).
cudaError_t mul(void* d_temp, std::size_t& temp_bytes, limb_t* d_r, const limb_t* d_a, std::size_t an,
                const limb_t* d_b, std::size_t bn, radix rx = radix::binary, const device_options& options = {},
                cudaStream_t stream = 0);

/// G products of n x n limbs, operands back to back (d_a + g*n, d_b + g*n),
/// results at d_r + g*2n.
cudaError_t mul_batched(void* d_temp, std::size_t& temp_bytes, limb_t* d_r, const limb_t* d_a, const limb_t* d_b,
                        std::size_t n, std::size_t G, radix rx = radix::binary, const device_options& options = {},
                        cudaStream_t stream = 0);

/// The algorithm automatic picks on the device for this size (from the sm_90
/// parameter table).
algorithm choose_device_algorithm(std::size_t an, std::size_t bn, radix rx);

/// Text of this thread's last failure (empty after a success).
const char* last_error_message();

}  // namespace bigmul::cuda
