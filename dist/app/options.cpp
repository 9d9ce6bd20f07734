// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's command line (dist/app/options.hpp).
#include "dist/app/options.hpp"

#include <cerrno>
#include <cstdlib>
#include <string_view>

#include "bigmul/error.hpp"

namespace bigmul::dist::app {
namespace {

[[noreturn]] void usage_error(const std::string& what) {
  throw error(error::kind::invalid_argument, "bigmul: " + what + " (see bigmul --distributed --help)");
}

std::uint64_t parse_count(const std::string& name, const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    usage_error(name + " needs a non-negative integer, got '" + text + "'");
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) usage_error(name + " value '" + text + "' is too large");
  return v;
}

}  // namespace

std::string usage_text() {
  return "usage: mpirun -np P bigmul --distributed [options] A B\n"
         "       mpirun -np P bigmul --distributed --random N [--seed S] [options]\n"
         "A, B: a decimal or 0x-hex literal, @PATH (text, or bigmul's raw-limb file), or - (standard input;\n"
         "both -: two literals). The product prints in decimal (--hex: 0x hex); an operand in the other radix\n"
         "is converted on rank 0 first (it must fit one process).\n"
         "  --hex            print the product in hex\n"
         "  -o PATH          write the product to PATH (atomic: rank 0 renames once every rank succeeded;\n"
         "                   a symbolic link's target is replaced and the link kept, the replaced file's owner,\n"
         "                   group and mode kept; a directory, device or FIFO is refused)\n"
         "  --raw            with -o: the raw-limb format (docs/distributed.md)\n"
         "  --random N       two random N-digit decimal operands (the same for every rank count)\n"
         "  --seed S         their seed (default 1)\n"
         "  -t, --timing     per-phase seconds and each all-to-all's bytes on stderr\n"
         "  --verify         check against the single-process product on rank 0\n"
         "  --no-check       skip the modular check (mod 2^61 - 1)\n"
         "  --threads N      threads per rank (default: all cores)\n"
         "  --memory-cap B   refuse before any work when a rank would need more than B bytes\n"
         "Exit status: 0 ok, 1 I/O or resources, 2 invalid input or usage, 3 a check failed.\n";
}

options parse_options(int argc, const char* const* argv) {
  options o;
  for (int k = 1; k < argc; ++k) {
    std::string arg = argv[k];
    if (arg == "--distributed") continue;
    if (arg.size() < 2 || arg[0] != '-' || (arg[1] >= '0' && arg[1] <= '9')) {
      o.operands.push_back(arg);
      continue;
    }
    std::string name = arg, value;
    bool has_value = false;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    }
    auto take = [&]() -> std::string {
      if (has_value) return value;
      if (k + 1 >= argc) usage_error(name + " needs a value");
      return argv[++k];
    };
    if (name == "-h" || name == "--help") o.help = true;
    else if (name == "--version") o.version = true;
    else if (name == "--hex") o.hex = true;
    else if (name == "--raw") o.raw = true;
    else if (name == "--verify") o.verify = true;
    else if (name == "--no-check") o.modular_check = false;
    else if (name == "-t" || name == "--timing") o.timing = true;
    else if (name == "-o" || name == "--output") o.output = take();
    else if (name == "--random") o.random_digits = parse_count(name, take());
    else if (name == "--seed") o.seed = parse_count(name, take());
    else if (name == "--threads") o.threads = static_cast<unsigned>(parse_count(name, take()));
    else if (name == "--memory-cap") o.memory_cap = parse_count(name, take());
    else usage_error("unknown option '" + arg + "' with --distributed");
  }
  if (o.help || o.version) return o;
  if (o.random_digits) {
    if (*o.random_digits == 0) usage_error("--random needs at least 1 digit");
    if (!o.operands.empty()) usage_error("--random takes no operands");
  } else if (o.operands.size() != 2) {
    usage_error("expected two operands, got " + std::to_string(o.operands.size()));
  }
  if (o.raw && !o.output) usage_error("--raw only applies to -o");
  return o;
}

}  // namespace bigmul::dist::app
