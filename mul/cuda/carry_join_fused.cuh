// SPDX-License-Identifier: LGPL-3.0-or-later
// Carry and join in one pass (mul/cuda/carry_join_hd.hpp): the product's
// limbs from the rounded FFT coefficients with one memset and one kernel,
// where the multi-pass path runs the carry (carry/cuda/carry_fused.cuh or the
// spread/fold/scan/emit kernels), writes digits and joins them in a second
// kernel. Publishing waits for the device's verdict in two halves: when the
// round-off (the inverse pass's sink, read on the device) is past the guard
// no block writes a limb; the fit flags (d_ok) are known only when every tile
// is done, so a pass whose value does not fit in m digits (which a pass within
// the guard cannot produce) may have written d_out: the caller discards it.
// The last product to finish writes the pass's verdict (no verdict kernel).
// CUB's two-call shape (d_temp == nullptr: temp_bytes only); asynchronous on
// `stream`, never throws, never synchronizes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "mul/coefficients.hpp"

namespace bigmul::detail::cuda {

// Whether the pass applies: a one-round carry plan (the FFT's int64 sums).
bool carry_join_fusable(coeff_format f, std::size_t nc, std::size_t m, std::uint64_t max_abs);

// G products: coefficients at d_c + g*nc (|c| <= max_abs), limbs at
// d_out + g*out_n (m = f.count(out_n) digits), d_ok[g] = 1 when the value
// fits in m digits; accept (or nullptr): 1 when every product fits, 0 when
// one does not. roundoff_bits: the bits of a non-negative double, or nullptr;
// when it is past guard nothing is written (d_ok and accept included: the
// caller zeroes accept beforehand).
// cudaErrorInvalidValue when not carry_join_fusable.
cudaError_t carry_join_fused_device_batched(void* d_temp, std::size_t& temp_bytes, const std::int64_t* d_c,
                                            std::size_t nc, std::size_t G, coeff_format f, std::size_t m,
                                            limb_t* d_out, std::size_t out_n, int* d_ok, int* accept,
                                            const unsigned long long* roundoff_bits, double guard,
                                            cudaStream_t stream, std::uint64_t max_abs);

}  // namespace bigmul::detail::cuda
