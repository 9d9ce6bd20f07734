// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/options.hpp"

#include <cctype>
#include <limits>
#include <string_view>

#include "bigmul/mul.hpp"
#include "cli/failure.hpp"

namespace bigmul::cli {
namespace {

[[noreturn]] void usage_error(const std::string& message) {
  throw failure(exit_usage, "bigmul: " + message + " (see bigmul --help)");
}

// A non-negative decimal count: digits only, no sign, no overflow.
std::uint64_t parse_count(std::string_view option, std::string_view text, std::uint64_t max) {
  if (text.empty()) usage_error(std::string(option) + " needs a number, got an empty string");
  std::uint64_t v = 0;
  for (const char ch : text) {
    if (ch < '0' || ch > '9')
      usage_error(std::string(option) + " needs a non-negative decimal number, got " + quoted(text));
    const std::uint64_t d = static_cast<std::uint64_t>(ch - '0');
    if (v > (max - d) / 10)
      usage_error(std::string(option) + " " + quoted(text) + " is too large (at most " + std::to_string(max) + ")");
    v = v * 10 + d;
  }
  return v;
}

bool looks_like_option(std::string_view arg) {
  if (arg.size() >= 2 && arg[0] == '-' && std::isalpha(static_cast<unsigned char>(arg[1]))) return true;
  return arg.size() >= 3 && arg[0] == '-' && arg[1] == '-' && std::isalpha(static_cast<unsigned char>(arg[2]));
}

}  // namespace

std::string algorithm_names() {
  std::string names;
  for (unsigned i = 0;; ++i) {
    const char* name = algorithm_name(static_cast<algorithm>(i));
    algorithm back{};
    // algorithm_name answers "?" past the last enumerator.
    if (!parse_algorithm(name, back) || back != static_cast<algorithm>(i)) break;
    if (!names.empty()) names += ", ";
    names += name;
  }
  return names;
}

std::string usage_text() {
  return "Usage: bigmul [options] A B\n"
         "       bigmul [options] --random N\n"
         "Multiplies two integers exactly and prints the product in decimal and a newline.\n"
         "\n"
         "Operands:\n"
         "  LITERAL      optional + or -, then decimal digits, or 0x/0X and hex digits\n"
         "               (leading zeros are decimal, never octal); e.g. -0123, 0xFFff\n"
         "  @PATH        the literal in file PATH; whitespace around it is ignored\n"
         "  -            the literal on standard input; when both operands are -, standard\n"
         "               input holds two literals separated by whitespace\n"
         "  Use -- before an operand that starts with -- (e.g. bigmul -- --5 3 is an invalid literal).\n"
         "\n"
         "Options:\n"
         "  -o, --output PATH   write the product to PATH atomically (temporary file in the same\n"
         "                      directory, fsync, rename); a failed run leaves PATH untouched.\n"
         "                      A replaced file keeps its owner, group, permission bits (setuid/\n"
         "                      setgid only with their owner/group), extended attributes and ACLs.\n"
         "                      Refused unless --force: a file with hard links, one you could not\n"
         "                      write with a shell's >, one whose owner or group (or an attribute)\n"
         "                      the new file could not keep. Temporaries .NAME.bigmul-PID-*.tmp\n"
         "                      of killed runs (PID gone) are removed; a device, FIFO or /dev/fd/N\n"
         "                      is written directly\n"
         "      --force         replace an -o file that the rules above refuse\n"
         "      --hex           print the product in hex: 0x..., -0x... when negative, 0x0 for zero\n"
         "      --random N      multiply two random N-digit decimal numbers (no operands)\n"
         "      --seed S        seed for --random (default: from the clock; shown with -v)\n"
         "      --verify        check the product against GMP's mpz_mul\n"
         "      --no-check      skip the product's modular check (mod 2^61-1; on by default)\n"
         "  -t, --timing        per-phase times, algorithm, transform length and round-off on stderr\n"
         "      --backend B     auto, cpu or cuda (auto: the GPU for large products when one is\n"
         "                      usable, else the CPU; cuda: fail unless the GPU can do it)\n"
         "      --fft-engine E  GPU FFT: in_house (bigmul's) or cufft (NVIDIA's, the baseline)\n"
         "      --algorithm A   one of: " + algorithm_names() + "\n"
         "      --threads N     worker threads (0 or absent: all cores)\n"
         "      --distributed   run on MPI ranks: mpirun -np P bigmul --distributed ...\n"
         "                      (bigmul-mpi; its options: bigmul --distributed --help)\n"
         "  -v, --verbose       describe the operands, backend, algorithm and seed on stderr\n"
         "  -h, --help          show this help and exit\n"
         "      --version       show the version and exit\n"
         "\n"
         "Decimal operands are multiplied in decimal radix (10^19 per limb) and never converted.\n"
         "Progress is shown on stderr for long runs when stderr is a terminal.\n"
         "\n"
         "Exit status:\n"
         "  0  success\n"
         "  1  I/O or internal failure (unreadable operand file, unwritable -o, write error,\n"
         "     out of memory)\n"
         "  2  invalid literal or usage error; one line on stderr names the operand (A or B, and\n"
         "     its file) and the byte offset of the first bad byte, counted in the argument, in\n"
         "     the file (before whitespace is trimmed) or in standard input; nothing on stdout\n"
         "  3  the product failed a check (--verify or the modular check); nothing is printed\n";
}

options parse_command_line(int argc, const char* const* argv) {
  options o;
  bool only_operands = false;
  // The value of an option that takes one: "--name=value", "--name value",
  // "-oVALUE" or "-o VALUE".
  int i = 1;
  const auto value_of = [&](std::string_view name, std::string_view arg, std::size_t value_at) -> std::string {
    if (value_at < arg.size()) return std::string(arg.substr(value_at));
    if (i + 1 >= argc) usage_error("option " + std::string(name) + " needs a value");
    return argv[++i];
  };

  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (only_operands || !looks_like_option(arg)) {
      if (arg == "--" && !only_operands) {
        only_operands = true;
        continue;
      }
      o.operands.emplace_back(arg);
      continue;
    }
    if (arg[1] == '-') {
      const std::size_t eq = arg.find('=');
      const std::string_view name = arg.substr(0, eq);
      const bool has_value = eq != std::string_view::npos;
      const std::size_t value_at = has_value ? eq + 1 : arg.size();
      const auto flag = [&](bool& target, bool value) {
        if (has_value) usage_error("option " + std::string(name) + " takes no value");
        target = value;
      };
      // Values given as "--name=" are empty strings, not "take the next argument".
      const auto value = [&]() -> std::string {
        return has_value ? std::string(arg.substr(value_at)) : value_of(name, arg, value_at);
      };
      if (name == "--help") flag(o.help, true);
      else if (name == "--version") flag(o.version, true);
      else if (name == "--hex") flag(o.hex, true);
      else if (name == "--verify") flag(o.verify, true);
      else if (name == "--no-check") flag(o.modular_check, false);
      else if (name == "--timing") flag(o.timing, true);
      else if (name == "--verbose") flag(o.verbose, true);
      else if (name == "--force") flag(o.force, true);
      else if (name == "--output") o.output = value();
      else if (name == "--random") o.random_digits = parse_count(name, value(), std::numeric_limits<std::uint64_t>::max() / 2);
      else if (name == "--seed") o.seed = parse_count(name, value(), std::numeric_limits<std::uint64_t>::max());
      else if (name == "--threads") o.threads = static_cast<unsigned>(parse_count(name, value(), 1u << 16));
      else if (name == "--backend") {
        const std::string b = value();
        if (b == "auto") o.backend_choice = backend::automatic;
        else if (b == "cpu") o.backend_choice = backend::cpu;
        else if (b == "cuda") o.backend_choice = backend::cuda;
        else usage_error("unknown backend " + quoted(b) + " (valid: auto, cpu, cuda)");
      } else if (name == "--fft-engine") {
        const std::string e = value();
        if (e == "in_house") o.engine = fft_engine::in_house;
        else if (e == "cufft") o.engine = fft_engine::cufft;
        else usage_error("unknown FFT engine " + quoted(e) + " (valid: in_house, cufft)");
      } else if (name == "--algorithm") {
        const std::string a = value();
        if (!parse_algorithm(a, o.algo)) usage_error("unknown algorithm " + quoted(a) + " (valid: " + algorithm_names() + ")");
      } else {
        usage_error("unknown option " + quoted(name));
      }
      continue;
    }
    // Short options, possibly bundled: -tv, -oPATH, -to PATH.
    for (std::size_t k = 1; k < arg.size(); ++k) {
      const char c = arg[k];
      if (c == 'h') o.help = true;
      else if (c == 't') o.timing = true;
      else if (c == 'v') o.verbose = true;
      else if (c == 'o') {
        o.output = value_of("-o", arg, k + 1);
        break;
      } else {
        usage_error("unknown option " + quoted(std::string("-") + c));
      }
    }
  }
  if (o.help || o.version) return o;

  if (o.output && o.output->empty()) usage_error("option -o needs a file name, got an empty string");
  if (o.force && !o.output) usage_error("--force only applies to -o");
  if (o.random_digits) {
    if (*o.random_digits == 0) usage_error("--random needs at least 1 digit");
    if (!o.operands.empty()) usage_error("--random takes no operands, got " + std::to_string(o.operands.size()));
  } else {
    if (o.seed) usage_error("--seed only applies to --random");
    if (o.operands.size() < 2)
      usage_error(std::string("missing operand") + (o.operands.empty() ? "s A and B" : " B"));
    if (o.operands.size() > 2) usage_error("too many operands: expected 2 (A and B), got " + std::to_string(o.operands.size()));
  }
  return o;
}

}  // namespace bigmul::cli
