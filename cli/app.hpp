// SPDX-License-Identifier: LGPL-3.0-or-later
// The bigmul command, end to end: options -> operands -> product -> checks ->
// output, with per-phase timing and progress.
#pragma once

namespace bigmul::cli {

// Runs the command and returns its exit status (see failure.hpp). Writes the
// product to stdout or -o PATH, and diagnostics to stderr.
int run(int argc, const char* const* argv);

}  // namespace bigmul::cli
