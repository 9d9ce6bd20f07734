// SPDX-License-Identifier: LGPL-3.0-or-later
// The product phase: the memory check, bigmul::mul with the library's errors
// mapped to the command's exit statuses, -v's algorithm line, and --verify
// against GMP.
#pragma once

#include "bigmul/mul.hpp"
#include "cli/number_view.hpp"
#include "cli/operands.hpp"
#include "cli/options.hpp"
#include "cli/progress.hpp"
#include "cli/report.hpp"
#include "cli/run_room.hpp"
#include "prim/buffer.hpp"

namespace bigmul::cli {

// a * b into the run's room (or spill), with its seconds in t.multiply; mo's
// stats record what ran. Throws failure.
number_view multiply(const options& o, const mul_options& mo, progress& prog, run_room& room, const run_operands& ops,
                     prim::buffer<limb_t>& spill, phase_times& t);

// --verify: the product against GMP's mpz_mul, with its seconds in t.verify.
// Throws failure(exit_check) on a mismatch.
void verify_product(const options& o, progress& prog, const run_operands& ops, const number_view& product,
                    phase_times& t);

}  // namespace bigmul::cli
