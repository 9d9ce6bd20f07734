// SPDX-License-Identifier: LGPL-3.0-or-later
// What the preload did, for BIGMUL_GMP_VERBOSE=1: per interposed function,
// the calls bigmul computed (with their sizes), the calls passed to GMP
// below the crossover, and the calls that fell back to GMP after bigmul
// failed. Printed to stderr when the process exits normally.
#pragma once

#include <cstddef>

namespace bigmul::preload {

enum class entry : unsigned { mul, mul_n, sqr, get_str, set_str, count };

// `limbs`: the size that decided (the smaller operand, or the number's limbs).
void count_taken(entry e, std::size_t limbs);
void count_passed(entry e);
void count_fell_back(entry e);

// Writes the report to stderr (called at exit when verbose).
void print_counters();

}  // namespace bigmul::preload
