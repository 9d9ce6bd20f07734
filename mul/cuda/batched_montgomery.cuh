// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched modular multiplication and exponentiation on the GPU, one group of
// threads per operation (mul/cuda/montgomery_group_hd.hpp: the group
// algorithm, shared with its CPU model). Host pointers in and out; the
// per-modulus set-up (B^n_pad - m, -m^-1 mod 2^64, R^2 mod m) is computed on
// the host. Internal to the mul layer: a twin of the CPU's batched Montgomery
// operations (src/arith/montgomery*.cpp) that counts only once it has run on a
// GPU (scripts/gpu-check.sh runs test_montgomery_gpu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail::cuda {

// r[g n ..] = a[g n ..] b[g n ..] mod m[g n ..] for g < G; every number n
// limbs (1 <= n <= 128), each m odd, a and b below their m. Returns the CUDA
// error of the first failing call (cudaErrorInvalidValue for bad sizes).
cudaError_t mod_mul_batched_gpu(limb_t* r, const limb_t* a, const limb_t* b, const limb_t* m, std::size_t n,
                                std::size_t G);

// r[g n ..] = x[g n ..]^e[g en ..] mod m[g n ..], processing exp_bits bits of
// each exponent (>= its bit length; the time depends on exp_bits and n only:
// fixed 4-bit windows, every table entry read). x below m, m odd.
cudaError_t mod_pow_batched_gpu(limb_t* r, const limb_t* x, const limb_t* e, std::size_t en, std::size_t exp_bits,
                                const limb_t* m, std::size_t n, std::size_t G);

}  // namespace bigmul::detail::cuda
