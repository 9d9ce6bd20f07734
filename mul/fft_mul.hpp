// SPDX-License-Identifier: LGPL-3.0-or-later
#pragma once

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"
#include "mul/fft_pass_policy.hpp"  // guard, transform length, digit choice, retry loop

namespace bigmul::detail {

// FFT multiplication r[0..an+bn) = a*b with algo = fft_complex, fft_real or
// fft_complex_f32 / fft_real_f32: balanced split -> forward -> pointwise -> inverse -> round
// with the rounding guard -> carry normalization -> join. The coefficient size
// comes from the exactness table (mul/fft_exactness.hpp) unless forced; a pass
// whose max |x - round(x)| exceeds fft_roundoff_guard is discarded and redone
// with one digit less per coefficient. Throws bigmul::error when no coefficient
// size is exact for this length (FP32 beyond its range).
void mul_fft(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
             algorithm algo, const mul_options& options, mul_stats& stats);

}  // namespace bigmul::detail

namespace bigmul::detail {

// For the error sweep: runs one FFT pass with exactly `digits` per coefficient
// and returns its max round-off (r receives the product only when it passed).
double fft_measure_roundoff(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
                            radix rx, algorithm algo, unsigned digits, unsigned threads);

}  // namespace bigmul::detail
