// SPDX-License-Identifier: LGPL-3.0-or-later
// The literal parser: bigmul::integer::from_string (sign, decimal digits, or
// 0x/0X and hex digits; leading zeros decimal) and the CLI's @FILE reader
// (surrounding whitespace ignored, offsets counted in the file), against a
// reference grammar and GMP's mpz_set_str / mpz_get_str.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "bigmul/error.hpp"
#include "bigmul/integer.hpp"
#include "cli/failure.hpp"
#include "cli/input.hpp"
#include "gmp_reference.hpp"

namespace {

using namespace bigmul;
using fuzz::check;

struct reference {
  bool ok = false;
  std::size_t offset = 0;  // first bad byte when !ok
  bool negative = false;
  int base = 10;
  std::string digits;
};

bool is_digit(char c, int base) {
  if (c >= '0' && c <= '9') return true;
  return base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
}

reference parse_reference(std::string_view t) {
  reference r;
  if (t.empty()) return r;
  std::size_t pos = 0;
  if (t[0] == '+' || t[0] == '-') {
    r.negative = t[0] == '-';
    pos = 1;
    if (pos == t.size()) {
      r.offset = 1;
      return r;
    }
  }
  if (t.size() - pos >= 2 && t[pos] == '0' && (t[pos + 1] == 'x' || t[pos + 1] == 'X')) {
    r.base = 16;
    pos += 2;
    if (pos == t.size()) {
      r.offset = pos;
      return r;
    }
  }
  for (std::size_t i = pos; i < t.size(); ++i)
    if (!is_digit(t[i], r.base)) {
      r.offset = i;
      return r;
    }
  r.ok = true;
  r.digits = std::string(t.substr(pos));
  return r;
}

void check_value(const integer& x, const reference& ref, std::string_view text) {
  fuzz::mpz want, got;
  check(mpz_set_str(want, ref.digits.c_str(), ref.base) == 0, "mpz_set_str refused digits the grammar accepts");
  if (ref.negative) mpz_neg(want, want);
  fuzz::set_integer(got, x);
  check(mpz_cmp(want, got) == 0, "from_string value differs from mpz_set_str for '" + std::string(text) + "'");
  check(x.get_radix() == (ref.base == 10 ? radix::decimal : radix::binary), "literal in the wrong radix");
  // Printing back, both bases, against GMP.
  char* dec = mpz_get_str(nullptr, 10, want);
  check(x.to_string(10) == dec, "to_string(10) differs from mpz_get_str");
  mpz_abs(want, want);
  char* hex = mpz_get_str(nullptr, 16, want);
  const std::string want_hex = std::string(x.is_negative() ? "-0x" : "0x") + hex;
  check(x.to_string(16) == want_hex, "to_string(16) '" + x.to_string(16) + "' differs from '" + want_hex + "'");
  free(dec);
  free(hex);
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  // The library's strict grammar.
  const reference ref = parse_reference(text);
  try {
    const integer x = integer::from_string(text);
    check(ref.ok, "from_string accepted an invalid literal (reference: bad byte at " + std::to_string(ref.offset) + ")");
    check_value(x, ref, text);
  } catch (const parse_error& e) {
    check(!ref.ok, std::string("from_string refused a valid literal: ") + e.what());
    check(e.offset() == ref.offset, "parse_error offset " + std::to_string(e.offset()) + ", reference " +
                                        std::to_string(ref.offset) + ": " + e.what());
    check(std::string_view(e.what()).find("byte offset " + std::to_string(ref.offset)) != std::string_view::npos,
          std::string("message does not name the offset: ") + e.what());
  }

  // The CLI's @FILE form: whitespace around the literal ignored, offsets in the file.
  std::size_t b = 0, e = size;
  while (b < e && is_space(text[b])) ++b;
  while (e > b && is_space(text[e - 1])) --e;
  const reference trimmed = parse_reference(text.substr(b, e - b));
  const int fd = ::memfd_create("bigmul-fuzz-literal", MFD_CLOEXEC);
  if (fd < 0) return 0;
  if (size && ::write(fd, data, size) != static_cast<ssize_t>(size)) {
    ::close(fd);
    return 0;
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    cli::operand_text ta, tb;
    cli::read_operands("@" + path, "1", ta, tb);
    const integer x = cli::parse_operand(ta);
    check(trimmed.ok, "the CLI accepted an invalid file literal");
    check_value(x, trimmed, text);
  } catch (const cli::failure& f) {
    check(f.status() == cli::exit_usage, std::string("file literal: not a usage error: ") + f.what());
    check(!trimmed.ok, std::string("the CLI refused a valid file literal: ") + f.what());
    const std::string msg = f.what();
    check(msg.find('\n') == std::string::npos, "message spans lines");
    if (b < e)  // a literal is there: its first bad byte, counted in the file
      check(msg.find("byte offset " + std::to_string(b + trimmed.offset)) != std::string::npos,
            "file offset not named (want " + std::to_string(b + trimmed.offset) + "): " + msg);
  }
  ::close(fd);
  return 0;
}
