// SPDX-License-Identifier: LGPL-3.0-or-later
// The run's operands: generated (--random) or read and parsed (each in its
// own radix, straight into the run's arena) while the product is prepared on
// this thread, then converted to the output's radix.
#pragma once

#include <cstddef>
#include <utility>

#include "bigmul/integer.hpp"
#include "bigmul/mul.hpp"
#include "cli/number_view.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "cli/report.hpp"
#include "cli/run_room.hpp"

namespace bigmul::cli {

struct run_operands {
  integer ia, ib;      // held as integers: generated (--random), or converted to the product's radix
  number_view a, b;    // as multiplied (in ia/ib, or as parsed into the arena)
  std::pair<limb_t*, std::size_t> parsed[2] = {};  // the limbs as parsed into the arena
};

// Fills ops (a and b in product_radix) and the generate or read, parse and
// convert times of t. mo: the product's options (prepare_mul, the memory
// checks). Throws failure for a source, literal or size the run refuses.
void obtain_operands(const options& o, const mul_options& mo, radix product_radix, progress& prog, run_room& room,
                     run_operands& ops, phase_times& t);

// Gives the operands' memory back (before the text is built).
void release_operands(run_room& room, run_operands& ops);

}  // namespace bigmul::cli
