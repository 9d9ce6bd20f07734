// SPDX-License-Identifier: LGPL-3.0-or-later
// Wrapped FFT passes: a product of P = L + k coefficients computed with a
// length-L cyclic convolution, k small (fft_pass_length in
// mul/fft_pass_policy.hpp allows k <= fft_max_wrap, 16). The top k coefficients
// fold onto the bottom ones, w[j] = c[j] + c[L + j] for j < k; the bottom
// ones are a few digit products each, c[j] = sum_{i <= j} x[i] y[j - i], so
// they are recomputed exactly and the top ones recovered as w[j] - c[j].
// Without it, operands whose coefficient count is a power of two (2^k limbs
// in 16- or 32-bit coefficients, 2^k decimal digits in 4-digit ones) overhang
// a power of two by one coefficient, the balanced top carry of each operand,
// and pay a transform twice as long (seen on the H100, 2026-11-24: 2^20
// decimal digits ran at length 2^20 with 3-digit coefficients instead of
// 2^19 with 4). BIGMUL_HD: the CPU pass (mul/fft_mul.cpp) and the CUDA one
// (mul/cuda/fft_mul_device.cu) call these very functions. C++17.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bigmul/hd.hpp"

namespace bigmul::detail {

// Coefficient j < k of one product: c[0 .. L) holds the wrapped convolution
// of x[0 .. xn) and y[0 .. yn); afterwards c[j] and c[L + j] hold the true
// coefficients. Called only for a pass the guard accepted: its digits and
// products are then far below 2^63 (at 4096 points and more the table allows
// at most 24-bit coefficients), so the int64 sums are exact.
template <class Digit>
BIGMUL_HD void fft_unwrap_coefficient(std::int64_t* c, std::size_t L, std::size_t j, const Digit* x, std::size_t xn,
                                      const Digit* y, std::size_t yn) {
  std::int64_t low = 0;
  for (std::size_t i = 0; i <= j; ++i)
    if (i < xn && j - i < yn) low += static_cast<std::int64_t>(x[i]) * static_cast<std::int64_t>(y[j - i]);
  c[L + j] = c[j] - low;
  c[j] = low;
}

// Flat index t < G k of a batch (the CUDA kernel's thread mapping, replayed
// on the CPU by the tests): product t / k, coefficient t % k; products sit at
// stride nc in c, ca in x and cb in y.
template <class Digit>
BIGMUL_HD void fft_unwrap_batched(std::size_t t, std::size_t k, std::int64_t* c, std::size_t nc, std::size_t L,
                                  const Digit* x, std::size_t ca, const Digit* y, std::size_t cb) {
  const std::size_t b = t / k, j = t % k;
  fft_unwrap_coefficient(c + b * nc, L, j, x + b * ca, ca, y + b * cb, cb);
}

}  // namespace bigmul::detail
