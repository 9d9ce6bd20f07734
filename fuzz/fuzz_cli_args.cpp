// SPDX-License-Identifier: LGPL-3.0-or-later
// The CLI's argument parser: argv built from the input (NUL-separated
// arguments). parse_command_line either returns options that satisfy its
// contract or throws failure(exit_usage) with one line; nothing else.
#include <cstdint>
#include <string>
#include <vector>

#include "bigmul/mul.hpp"
#include "cli/failure.hpp"
#include "cli/options.hpp"
#include "gmp_reference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bigmul;
  using fuzz::check;
  std::vector<std::string> args = {"bigmul"};
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(data[i]);
    }
  }
  if (size) args.push_back(cur);
  std::vector<const char*> argv;
  for (const auto& s : args) argv.push_back(s.c_str());
  argv.push_back(nullptr);
  try {
    const cli::options o = cli::parse_command_line(static_cast<int>(args.size()), argv.data());
    if (o.help || o.version) return 0;
    if (o.random_digits) {
      check(*o.random_digits > 0 && o.operands.empty(), "--random accepted with operands or 0 digits");
    } else {
      check(o.operands.size() == 2, "accepted without exactly two operands");
      check(!o.seed, "--seed accepted without --random");
    }
    check(!o.output || !o.output->empty(), "empty -o accepted");
    check(o.threads <= (1u << 16), "--threads beyond its limit accepted");
    check(static_cast<unsigned>(o.algo) <= static_cast<unsigned>(algorithm::toom3), "unknown algorithm accepted");
    check(std::string(algorithm_name(o.algo)) != "?", "algorithm without a name accepted");
  } catch (const cli::failure& f) {
    const std::string m = f.what();
    check(f.status() == cli::exit_usage, "parse_command_line: not a usage error: " + m);
    check(m.rfind("bigmul: ", 0) == 0, "message does not start with 'bigmul: ': " + m);
    check(m.find('\n') == std::string::npos, "usage message spans lines: " + m);
  }
  return 0;
}
