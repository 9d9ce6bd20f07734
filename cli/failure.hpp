// SPDX-License-Identifier: LGPL-3.0-or-later
// How the bigmul command fails: one exception type carrying the exit status
// and the one-line message for stderr.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace bigmul::cli {

// The exit statuses, documented in --help.
enum exit_status : int {
  exit_ok = 0,
  exit_io = 1,     // I/O or internal failure (missing file, unwritable -o, write error, out of memory)
  exit_usage = 2,  // invalid input literal or command-line usage
  exit_check = 3,  // the product failed a check (--verify against GMP, or the modular check)
};

class failure : public std::runtime_error {
 public:
  failure(exit_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  exit_status status() const noexcept { return status_; }

 private:
  exit_status status_;
};

// `text` in single quotes with bytes that could break the one-line message
// (control bytes, quotes, non-ASCII) written as \xNN.
std::string quoted(std::string_view text);

// "<what>: <strerror(errnum)>" as an I/O failure.
[[noreturn]] void throw_io(const std::string& what, int errnum);

}  // namespace bigmul::cli
