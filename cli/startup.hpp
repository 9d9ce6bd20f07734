// SPDX-License-Identifier: LGPL-3.0-or-later
// Before any work: the backend asked for, the environment's settings and
// -o's target are checked (a bad one fails now, not after a long product),
// and -v says where products will run.
#pragma once

#include "cli/options.hpp"

namespace bigmul::cli {

// The checks and -v's backend lines; applies --threads to the library's
// default. Returns the thread count the run uses. Throws failure.
unsigned start_run(const options& o);

// Test hook: BIGMUL_CLI_FAULT=corrupt-product changes the product after the
// multiplication, so that tests can reach the --verify mismatch path. Any
// other non-empty value is a usage error naming the variable.
bool fault_corrupt_product();

}  // namespace bigmul::cli
