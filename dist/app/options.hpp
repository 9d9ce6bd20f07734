// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's command line: the subset of bigmul's that a distributed
// product supports, plus --memory-cap and --raw (docs/distributed.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bigmul::dist::app {

struct options {
  std::vector<std::string> operands;           // A and B: literal, @PATH or -
  std::optional<std::string> output;           // -o PATH
  bool hex = false;                            // --hex: the product (and its radix) in hex
  bool raw = false;                            // --raw: -o gets the raw-limb format
  bool verify = false;                         // --verify against the single-process product
  bool modular_check = true;                   // --no-check
  bool timing = false;                         // -t
  bool help = false, version = false;
  std::optional<std::uint64_t> random_digits;  // --random N
  std::uint64_t seed = 1;                      // --seed S
  unsigned threads = 0;                        // --threads N, per rank
  std::size_t memory_cap = 0;                  // --memory-cap BYTES, per rank
};

// argv[1 ..): throws bigmul::error (kind invalid_argument) with the message.
options parse_options(int argc, const char* const* argv);
std::string usage_text();

}  // namespace bigmul::dist::app
