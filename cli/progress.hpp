// SPDX-License-Identifier: LGPL-3.0-or-later
// One-line progress on stderr for long runs, only when stderr is a terminal:
// each phase overwrites the previous one ("\r" + clear to end of line), and
// the line is cleared before anything else is printed and at the end.
#pragma once

#include <string_view>

namespace bigmul::cli {

class progress {
 public:
  progress();  // enabled when stderr is a terminal
  ~progress() { clear(); }
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;

  // Whether phases are shown: stderr is a terminal and the run is long.
  bool active() const noexcept { return terminal_ && long_run_; }
  void set_long_run(bool long_run) noexcept { long_run_ = long_run; }

  void phase(std::string_view text);
  void clear();

 private:
  bool terminal_ = false;
  bool long_run_ = false;
  bool shown_ = false;
};

}  // namespace bigmul::cli
