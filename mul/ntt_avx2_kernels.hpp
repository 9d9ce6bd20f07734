// SPDX-License-Identifier: LGPL-3.0-or-later
// The AVX2 engine's carry kernels, one definition for the multiply's engine
// adapter (mul/ntt_engine_avx2.cpp) and the fixed-factor products
// (src/arith/ntt_reuse.cpp), so both take the same paths.
#pragma once

#include "fft/ntt_avx2.hpp"
#include "fft/ntt_arith.hpp"
#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_crt_carry.hpp"

namespace bigmul::detail {

// decimal3 stays off: with fft::ntt_avx2_decimal_digits the decimal carry
// measured slower than the generic path (bench/crt/bench_crt_carry, decimal
// rows); the kernel stays for processors where it measures faster.
inline constexpr ntt_crt_kernels ntt_avx2_crt_kernels{
    fft::ntt52_primes,         fft::ntt52_prime_count, fft::ntt_avx2_mixed_radix_digits,
    fft::ntt_avx2_crt3_limbs,  /*decimal3=*/false,     fft::ntt_avx2_decimal_digits,
    ntt_bit_carry3_limbs_avx2};

}  // namespace bigmul::detail
