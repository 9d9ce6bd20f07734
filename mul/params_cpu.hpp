// SPDX-License-Identifier: LGPL-3.0-or-later
// Crossovers of the CPU dispatcher, in limbs of the smaller operand (bn).
// The values are in mul/params_cpu.inc, which bench/tune/tune_cpu writes; do
// not edit that file by hand.
#pragma once

#include <algorithm>
#include <cstddef>

#include "mul/ntt_mul.hpp"

namespace bigmul::detail::params_cpu {

struct crossovers {
  std::size_t karatsuba;  // bn >= this: Karatsuba (below: basecase)
  std::size_t fft;        // bn >= this, below the NTT's crossover: FFT (fft_real)
  std::size_t karatsuba_basecase;  // Karatsuba recursion bottoms out below this
  std::size_t ntt;           // bn >= this: the NTT (processors with AVX-512 IFMA)
  std::size_t ntt_portable;  // the same for the portable NTT engine (no IFMA)
  std::size_t ntt_avx2;      // the same for the AVX2 + FMA engine
  std::size_t toom3;         // bn >= this, where Karatsuba would run: Toom-3 (binary; 0: never)
};

// Also in the table, for binary squares (bigmul::mul(a, a), a == b and
// an == bn; decimal squares take the product's crossovers):
//   sqr_karatsuba: the Karatsuba square (mul/karatsuba.hpp) splits pieces of
//   this many limbs and more, below it the schoolbook square
//   (mul/sqr_basecase.hpp). Squares reach the Karatsuba square from the
//   row's karatsuba (and Toom-3's pieces from karatsuba_basecase), so a value
//   below those acts as if it were equal to them;
//   sqr_toom3: squares split three ways (Toom-3 squares) from this size, in
//   place of the row's toom3 (0: never): their pieces are squares, whose
//   schoolbook is twice as fast, so the five-way split pays later;
//   sqr_ntt, sqr_ntt_portable, sqr_ntt_avx2: squares below it stay off that
//   engine's NTT (Karatsuba's / Toom-3's squares), squares from it and from
//   the engine's product crossover take it.
// And radix_to_decimal_basecase and radix_from_decimal_basecase,
// the decimal lengths (10^19 limbs) up to which the radix converter
// (src/arith/radix_convert.cpp) runs its schoolbook code instead of dividing
// and conquering.
#include "mul/params_cpu.inc"

// The NTT crossover of an engine's row, and where bigmul beats GMP on it.
inline std::size_t ntt_crossover(const crossovers& x, ntt_engine e) {
  return e == ntt_engine::ifma ? x.ntt : e == ntt_engine::avx2 ? x.ntt_avx2 : x.ntt_portable;
}
inline std::size_t sqr_ntt_crossover(ntt_engine e) {
  return e == ntt_engine::ifma ? sqr_ntt : e == ntt_engine::avx2 ? sqr_ntt_avx2 : sqr_ntt_portable;
}
// Below this no engine's NTT takes a square (lets the dispatcher skip the
// engine lookup, a getenv).
inline constexpr std::size_t sqr_ntt_min = std::min({sqr_ntt, sqr_ntt_portable, sqr_ntt_avx2});
inline std::size_t gmp_crossover_for(ntt_engine e) {
  return e == ntt_engine::ifma ? gmp_crossover : e == ntt_engine::avx2 ? gmp_crossover_avx2 : gmp_crossover_portable;
}

}  // namespace bigmul::detail::params_cpu
