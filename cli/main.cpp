// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul: multiplies two integers exactly. See `bigmul --help`.
#include "cli/app.hpp"
#include "cli/distributed.hpp"

int main(int argc, char** argv) {
  if (bigmul::cli::wants_distributed(argc, argv)) return bigmul::cli::run_distributed(argc, argv);
  return bigmul::cli::run(argc, argv);
}
