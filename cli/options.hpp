// SPDX-License-Identifier: LGPL-3.0-or-later
// The bigmul command line: what the user asked for, checked for usage errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::cli {

struct options {
  std::vector<std::string> operands;   // A and B as written: literal, @PATH or -
  std::optional<std::string> output;   // -o PATH
  bool force = false;                  // --force: -o replaces what cli/replace.hpp's rules refuse
  bool hex = false;                    // --hex
  std::optional<std::uint64_t> random_digits;  // --random N
  std::optional<std::uint64_t> seed;           // --seed S
  bool verify = false;                 // --verify
  bool modular_check = true;           // --no-check turns it off
  bool timing = false;                 // -t/--timing
  backend backend_choice = backend::automatic;
  fft_engine engine = fft_engine::in_house;  // --fft-engine (GPU FFT algorithms)
  algorithm algo = algorithm::automatic;
  unsigned threads = 0;                // --threads N (0: all cores)
  bool verbose = false;                // -v/--verbose
  bool help = false;                   // -h/--help
  bool version = false;                // --version
};

// Parses argv[1..argc). Options and operands may be mixed; "--" ends the
// options. An argument is an option only when it is "-" or "--" followed by a
// letter, so "-5", "-0x1f", "--5" and "-" are operands. Throws
// failure(exit_usage) with a one-line message on any usage error (after
// --help or --version, the other checks are skipped).
options parse_command_line(int argc, const char* const* argv);

// The --help text.
std::string usage_text();

// Every name --algorithm accepts, comma-separated.
std::string algorithm_names();

}  // namespace bigmul::cli
