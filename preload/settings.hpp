// SPDX-License-Identifier: LGPL-3.0-or-later
// The preload's settings, read from the environment once when it loads:
//   BIGMUL_GMP_CROSSOVER       products: the smaller operand's limbs from which bigmul computes
//                              (default: preload/params_preload.inc, written by bench/preload/tune_preload,
//                              when this processor runs the engine it was tuned with; else
//                              bigmul::gmp_crossover_limbs)
//   BIGMUL_GMP_STR_CROSSOVER   radix conversion (base 10): the binary limbs from which bigmul converts,
//                              both ways (default: preload/params_preload.inc, one value each way)
//   BIGMUL_GMP_VERBOSE=1       print at exit what the preload took and what it passed to GMP
//   BIGMUL_THREADS             the threads bigmul uses (read by bigmul itself)
#pragma once

#include <atomic>
#include <cstddef>

namespace bigmul::preload {

// Until the preload's constructor has run, the crossovers are "never", so a
// call made that early goes to GMP. Relaxed loads: each value is written once.
extern std::atomic<std::size_t> g_mul_crossover;
extern std::atomic<std::size_t> g_get_str_crossover;
extern std::atomic<std::size_t> g_set_str_crossover;
extern std::atomic<bool> g_verbose;

// Reads the environment into the values above; an unusable value keeps the
// default and says so on stderr (one line).
void load_settings();

}  // namespace bigmul::preload
