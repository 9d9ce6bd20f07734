// SPDX-License-Identifier: LGPL-3.0-or-later
// One descriptor per multiplication algorithm: its name, whether it has a CUDA
// version, and for the floating-point FFTs the layout, precision and length
// rule. Every place that asks "is this a real FFT / a GPU algorithm / FP32?"
// reads this table (dispatcher, CPU and GPU FFT pipelines, device
// dispatcher), so the properties cannot drift apart. Plain C++17 (included by
// the .cu files) with constexpr lookups.
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"

namespace bigmul::detail {

enum class fft_layout : unsigned char {
  none,     // not a floating-point FFT algorithm
  complex,  // n complex points, coefficients in the real parts
  real,     // n real points packed into n/2 complex (x_2l + i x_2l+1)
};

struct algorithm_desc {
  algorithm algo;
  const char* name;        // the name the CLI and parse_algorithm take
  bool cuda;               // backend cuda runs it (automatic: the device dispatcher picks)
  fft_layout layout;       // FFT layout; none for the exact integer algorithms
  bool single_precision;   // FP32 transforms (only where the exactness table allows)
  // Length rule of the FFT algorithms: transforms of 2^k >= min_length points.
  // Complex: 2 (the GPU plans at least one radix-2 pass). Real: 4, because the
  // packed transform runs a half-length complex FFT of n/2 >= 2 points and
  // pairs frequency f with n/2 - f; both backends plan n >= 4 (the GPU plan of a
  // one-point half transform does not exist). A product always has >= 3
  // coefficients (two operands of >= 1 digit plus a balanced top carry each,
  // minus one), so the rule never lengthens a product's transform: it only
  // makes the CPU and GPU agree on what a length query returns.
  std::size_t min_length;
};

inline constexpr algorithm_desc algorithm_table[] = {
    {algorithm::automatic, "auto", true, fft_layout::none, false, 0},
    {algorithm::basecase, "basecase", false, fft_layout::none, false, 0},
    {algorithm::karatsuba, "karatsuba", false, fft_layout::none, false, 0},
    {algorithm::tiled, "tiled", true, fft_layout::none, false, 0},
    {algorithm::fft_complex, "fft_complex", true, fft_layout::complex, false, 2},
    {algorithm::fft_real, "fft_real", true, fft_layout::real, false, 4},
    {algorithm::fft_complex_f32, "fft_complex_f32", true, fft_layout::complex, true, 2},
    {algorithm::fft_real_f32, "fft_real_f32", true, fft_layout::real, true, 4},
    {algorithm::ntt, "ntt", false, fft_layout::none, false, 0},
    {algorithm::toom3, "toom3", false, fft_layout::none, false, 0},
};

// The descriptor of a; nullptr for a value outside the enum.
constexpr const algorithm_desc* find_algorithm(algorithm a) {
  for (const algorithm_desc& d : algorithm_table)
    if (d.algo == a) return &d;
  return nullptr;
}

constexpr bool has_cuda_version(algorithm a) {
  const algorithm_desc* d = find_algorithm(a);
  return d && d->cuda;
}
constexpr bool is_fft_algorithm(algorithm a) {
  const algorithm_desc* d = find_algorithm(a);
  return d && d->layout != fft_layout::none;
}
constexpr bool is_real_layout(algorithm a) {
  const algorithm_desc* d = find_algorithm(a);
  return d && d->layout == fft_layout::real;
}
constexpr bool is_single_precision(algorithm a) {
  const algorithm_desc* d = find_algorithm(a);
  return d && d->single_precision;
}
// The GPU runs tiled and the FFT algorithms (automatic is resolved first).
constexpr bool is_gpu_algorithm(algorithm a) { return a != algorithm::automatic && has_cuda_version(a); }

}  // namespace bigmul::detail
