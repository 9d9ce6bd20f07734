// SPDX-License-Identifier: LGPL-3.0-or-later
// CUDA twins of the coefficient split/join (mul/coefficients.hpp) and of the
// modular residue (mul/modcheck.hpp). CUB's shape where temp storage is
// needed (call with d_temp == nullptr for temp_bytes, then run); everything
// is asynchronous on `stream`, returns a cudaError_t, never throws and never
// synchronizes. The per-digit / per-period arithmetic is the CPU's own
// (mul/coefficients_period.hpp).
//
//   split_digits     binary: one thread per digit; decimal 10^K: one thread per
//                    period (K limbs -> 19 digits, compile-time offsets)
//   split_balanced   one thread per period: (g, p) fold of the period's
//                    carry flags, device exclusive scan with prim::carry_op
//                    (a kill pair closes each problem, so carries never cross
//                    problems), then the period emits with its carry-in; the
//                    last period writes the top carry to out[count(n)]
//   join_digits      binary: one thread per limb; decimal: one per period
//   residue_mod_p    per-chunk Horner residues times base^(chunk start), summed
//                    mod 2^61 - 1 by a block tree and one final block
//   modular_check    the same residues for a batch's a, b and r in one launch;
//                    the last block of each product compares (a ticket counter)
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "mul/coefficients.hpp"
#include "mul/cuda/coefficients_hd.hpp"

namespace bigmul::detail::cuda {

// Balanced digits in [-B/2, B/2) of a[0..n): count(n) + 1 values (top carry
// last) into d_out, the values of the CPU split_balanced.
cudaError_t split_balanced_device(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a, std::size_t n,
                                  coeff_format f, std::int32_t* d_out, cudaStream_t stream = 0);
// G operands of n limbs (operand g at d_a + g*n), outputs at d_out + g*(count(n)+1).
cudaError_t split_balanced_device_batched(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a, std::size_t n,
                                          std::size_t G, coeff_format f, std::int32_t* d_out,
                                          cudaStream_t stream = 0);

// Plain digits in [0, B): count(n) values.
cudaError_t split_digits_device(const limb_t* d_a, std::size_t n, coeff_format f, std::uint32_t* d_out,
                                cudaStream_t stream = 0);
// Outputs at d_out + g*count(n).
cudaError_t split_digits_device_batched(const limb_t* d_a, std::size_t n, std::size_t G, coeff_format f,
                                        std::uint32_t* d_out, cudaStream_t stream = 0);

// Digits d[0..m) (each < B) -> limbs out[0..out_n), as the CPU join_digits
// (digits past the limbs' capacity ignored, missing digits zero).
cudaError_t join_digits_device(const std::uint32_t* d_digits, std::size_t m, coeff_format f, limb_t* d_out,
                               std::size_t out_n, cudaStream_t stream = 0);
// Digits of problem g at d_digits + g*m, limbs at d_out + g*out_n.
cudaError_t join_digits_device_batched(const std::uint32_t* d_digits, std::size_t m, std::size_t G,
                                       coeff_format f, limb_t* d_out, std::size_t out_n, cudaStream_t stream = 0);
// The same, writing nothing unless *d_accept (device int) is non-zero: a
// verdict computed on the device decides without the host reading it first.
cudaError_t join_digits_device_batched_if(const int* d_accept, const std::uint32_t* d_digits, std::size_t m,
                                          std::size_t G, coeff_format f, limb_t* d_out, std::size_t out_n,
                                          cudaStream_t stream = 0);

// Value of a[0..n) (radix rx) mod 2^61 - 1 into *d_residue (device), the
// value residue_mod_p returns.
cudaError_t residue_mod_p_device(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a, std::size_t n, radix rx,
                                 std::uint64_t* d_residue, cudaStream_t stream = 0);

// The modular check of G products in one launch (plus a memset of its ticket
// counters): d_ok[g] = 1 when (a_g mod p)(b_g mod p) == r_g mod p, else 0, with
// a_g = d_a + g*an, b_g = d_b + g*bn, r_g = d_r + g*(an + bn) (d_b == d_a and
// bn == an: a square, b's residue not recomputed). CUB's two-call shape.
cudaError_t modular_check_device_batched(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a, std::size_t an,
                                         const limb_t* d_b, std::size_t bn, const limb_t* d_r, std::size_t G,
                                         radix rx, int* d_ok, cudaStream_t stream = 0);

// Limbs per thread of the residue kernels (exposed for the tests' host model).
inline constexpr std::size_t residue_chunk_limbs = coeff_hd::residue_chunk_limbs;

}  // namespace bigmul::detail::cuda
