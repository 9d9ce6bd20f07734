// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/progress.hpp"

#include <unistd.h>

#include <string>

#include "cli/output.hpp"

namespace bigmul::cli {

progress::progress() : terminal_(::isatty(STDERR_FILENO) == 1) {}

void progress::phase(std::string_view text) {
  if (!active()) return;
  std::string line = "\r\033[K";
  line += "bigmul: ";
  line += text;
  line += " ...";
  // Progress is best effort: a failed write to the terminal is not an error.
  static_cast<void>(write_fd(STDERR_FILENO, line));
  shown_ = true;
}

void progress::clear() {
  if (!shown_) return;
  static_cast<void>(write_fd(STDERR_FILENO, "\r\033[K"));
  shown_ = false;
}

}  // namespace bigmul::cli
