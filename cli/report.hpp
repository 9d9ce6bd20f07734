// SPDX-License-Identifier: LGPL-3.0-or-later
// What the command tells on standard error besides the product: a line at a
// time (-v, errors), and the -t timing table with the product's statistics.
#pragma once

#include <string>

#include "bigmul/mul.hpp"

namespace bigmul::cli {

// One line to stderr (write errors ignored: nothing is left to tell them to).
void say(const std::string& line);

// Seconds of the run's phases.
struct phase_times {
  double read = 0, parse = 0, generate = 0, multiply = 0, verify = 0, convert = 0, write = 0;
  double prepare = -1;  // prepare_mul's seconds while the operands were parsed or generated (-1: not run)
};

// The -t table: a row per phase (the transform's phases when one ran), then
// the algorithm line. multiplied: a product was computed (no operand zero);
// random: --random (generate in place of read and parse).
void print_timing(const phase_times& t, const mul_stats& st, bool multiplied, bool random, bool verified,
                  unsigned threads, double total);

}  // namespace bigmul::cli
