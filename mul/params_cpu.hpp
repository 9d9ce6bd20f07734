// SPDX-License-Identifier: LGPL-3.0-or-later
// Crossovers of the CPU dispatcher, in limbs of the smaller operand (bn): one
// table per tuned processor, as GMP keeps one per processor family
// [GMP-TUNE]. bench/tune/tune_cpu writes mul/params/<name>.inc on the
// processor it runs on (do not edit those by hand); the registry is
// mul/params/entries.inc. At load the processor's own table is chosen, else
// the nearest one (choose_table), or the one BIGMUL_CPU_TABLE names; the
// names below (binary_radix, sqr_ntt, gmp_crossover, ...) read that table.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

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

// One tuned processor: what identifies it, then its crossovers.
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
// (Binary squares, bigmul::mul(a, a): decimal squares take the product's
// crossovers.) radix_to_decimal_basecase and radix_from_decimal_basecase are
// the decimal lengths (10^19 limbs) up to which the radix converter
// (src/arith/radix_convert.cpp) runs its schoolbook code instead of dividing
// and conquering.
struct cpu_params {
  const char* name;    // mul/params/<name>.inc; BIGMUL_CPU_TABLE=<name> forces it
  const char* vendor;  // CPUID vendor string ("GenuineIntel", "AuthenticAMD")
  unsigned family;     // CPUID display family and model range (prim/cpu_features.hpp)
  unsigned model_first, model_last;
  ntt_engine engine;   // the fastest NTT engine of the processor it was tuned on
  crossovers binary_radix;
  crossovers decimal_radix;
  std::size_t gmp_crossover, gmp_crossover_portable, gmp_crossover_avx2;
  std::size_t sqr_karatsuba, sqr_toom3, sqr_ntt, sqr_ntt_portable, sqr_ntt_avx2;
  unsigned tiled_tile;
  std::size_t radix_to_decimal_basecase, radix_from_decimal_basecase;
};

// Every tuned table; the first is the default (a test checks each
// mul/params/*.inc is listed).
inline constexpr cpu_params tables[] = {
#include "mul/params/entries.inc"
};

// What the choice looks at: the processor (prim::cpu_identify) and its fastest engine.
struct processor {
  std::string_view vendor;
  unsigned family, model;
  ntt_engine engine;
};
enum class table_match {
  exact,        // vendor, family, model range and engine
  same_engine,  // an entry of the same fastest engine (same vendor and family first, then vendor)
  fallback,     // no entry shares the engine: the first table
  forced,       // BIGMUL_CPU_TABLE named it
};
struct table_choice {
  const cpu_params* table;
  table_match match;
  std::string error;  // an unknown forced name (the table is then the automatic choice)
};
// This processor: prim::cpu_identify and the NTT engine fastest here.
processor this_processor();
// The name and model range tune_cpu gives this processor's table: AMD's Zen
// generations by family and engine ("amd_zen4_ifma": all models), others by
// family and model ("intel_f6m167_ifma").
struct table_key {
  std::string name;
  unsigned model_first, model_last;
};
table_key key_for(const processor& cpu);
// forced: BIGMUL_CPU_TABLE's value, or null / "" for the automatic choice.
table_choice choose_table(std::span<const cpu_params> from, const processor& cpu, const char* forced);
const char* table_match_name(table_match m);

// The table in use: chosen once at load (this processor, BIGMUL_CPU_TABLE);
// until then (static initialisers of other files) the default table.
struct table_in_use {
  cpu_params table;
  std::size_t sqr_ntt_min;  // the least of its sqr_ntt*
  table_match match;
};
extern table_in_use in_use;

// The dispatcher's names, into the table in use (bound at compile time: no
// call, one load).
inline const crossovers& binary_radix = in_use.table.binary_radix;
inline const crossovers& decimal_radix = in_use.table.decimal_radix;
inline const std::size_t& gmp_crossover = in_use.table.gmp_crossover;
inline const std::size_t& gmp_crossover_portable = in_use.table.gmp_crossover_portable;
inline const std::size_t& gmp_crossover_avx2 = in_use.table.gmp_crossover_avx2;
inline const std::size_t& sqr_karatsuba = in_use.table.sqr_karatsuba;
inline const std::size_t& sqr_toom3 = in_use.table.sqr_toom3;
inline const std::size_t& sqr_ntt = in_use.table.sqr_ntt;
inline const std::size_t& sqr_ntt_portable = in_use.table.sqr_ntt_portable;
inline const std::size_t& sqr_ntt_avx2 = in_use.table.sqr_ntt_avx2;
inline const unsigned& tiled_tile = in_use.table.tiled_tile;
inline const std::size_t& radix_to_decimal_basecase = in_use.table.radix_to_decimal_basecase;
inline const std::size_t& radix_from_decimal_basecase = in_use.table.radix_from_decimal_basecase;
// Below this no engine's NTT takes a square (lets the dispatcher skip the
// engine lookup, a getenv).
inline const std::size_t& sqr_ntt_min = in_use.sqr_ntt_min;

// The name of the table in use ("amd_zen4_ifma"), and that name with how it
// was chosen ("amd_zen4_ifma (same engine)"), for bigmul -t and --version.
const char* tuned_table_name() noexcept;
std::string tuned_table_description();
// Throws bigmul::error (invalid_argument) when BIGMUL_CPU_TABLE names no table.
void check_table_environment();

// The NTT crossover of an engine's row, and where bigmul beats GMP on it.
inline std::size_t ntt_crossover(const crossovers& x, ntt_engine e) {
  return e == ntt_engine::ifma ? x.ntt : e == ntt_engine::avx2 ? x.ntt_avx2 : x.ntt_portable;
}
inline std::size_t sqr_ntt_crossover(ntt_engine e) {
  return e == ntt_engine::ifma ? sqr_ntt : e == ntt_engine::avx2 ? sqr_ntt_avx2 : sqr_ntt_portable;
}
inline std::size_t gmp_crossover_for(ntt_engine e) {
  return e == ntt_engine::ifma ? gmp_crossover : e == ntt_engine::avx2 ? gmp_crossover_avx2 : gmp_crossover_portable;
}

}  // namespace bigmul::detail::params_cpu
