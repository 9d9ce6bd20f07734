// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief Basic types shared by every layer of bigmul.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bigmul {

/// A limb: 64 bits, least significant limb first (GMP's mpn layout, so the GMP
/// bridge needs no copy).
using limb_t = std::uint64_t;

/// How a number's limbs are weighted.
///   binary:  limb i has weight 2^(64 i), every limb value is allowed.
///   decimal: limb i has weight 10^(19 i), limb values are < 10^19.
/// Decimal numbers read and print in linear time and multiply without conversion.
enum class radix : std::uint8_t {
  binary,   ///< base 2^64 limbs (GMP's layout)
  decimal,  ///< base 10^19 limbs
};

inline constexpr limb_t decimal_limb_base = 10000000000000000000ull;  ///< 10^19, the base of a decimal limb
inline constexpr unsigned decimal_limb_digits = 19;                  ///< decimal digits in a decimal limb

/// The multiplication algorithms; each is callable by name.
enum class algorithm : std::uint8_t {
  automatic,    ///< the dispatcher picks by size from the tuned parameter table
  basecase,     ///< schoolbook on whole limbs, O(n^2)
  karatsuba,    ///< Karatsuba over basecase, O(n^1.585)
  tiled,        ///< tiled convolution of small coefficients ([DIEGUEZ18 §7.4]), exact integer sums
  fft_complex,  ///< FP64 complex FFT, imaginary parts zero ([DIEGUEZ18 §7.3.1])
  fft_real,     ///< FP64 real FFT through a half-length complex FFT ([DIEGUEZ18 §7.3.2])
  fft_complex_f32,  ///< FP32 complex FFT; only where it is exact (mul/fft_exactness_table.inc)
  fft_real_f32,     ///< FP32 real FFT; only where it is exact
  ntt,              ///< number-theoretic transform on whole limbs modulo three or four primes, exact integer arithmetic
  toom3,            ///< Toom-3 over Karatsuba, O(n^1.465) ([BODRATO07]); binary radix only
};

/// Where a product is computed. automatic: the GPU when one is usable and the
/// product is past the measured GPU crossover (transfers included), else the CPU.
enum class backend : std::uint8_t {
  automatic,  ///< the GPU past its crossover when one is usable, else the CPU
  cpu,        ///< the CPU
  cuda,       ///< the GPU, or bigmul::error saying why it cannot be used
};

/// Which FFT library the GPU FFT algorithms run on: bigmul's own (in_house) or
/// NVIDIA's cuFFT (the baseline pipeline, same split / pointwise / round kernels).
enum class fft_engine : std::uint8_t {
  in_house,  ///< bigmul's own GPU FFT
  cufft,     ///< NVIDIA's cuFFT
};

}  // namespace bigmul
