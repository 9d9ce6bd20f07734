// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/failure.hpp"

#include <cstring>

namespace bigmul::cli {

std::string quoted(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out = "'";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
      out += ch;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  out += '\'';
  return out;
}

void throw_io(const std::string& what, int errnum) {
  throw failure(exit_io, what + ": " + std::strerror(errnum));
}

}  // namespace bigmul::cli
