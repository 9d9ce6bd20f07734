// SPDX-License-Identifier: LGPL-3.0-or-later
// Runs the built bigmul binary with arguments, stdin bytes and a chosen
// stdout/stderr, and captures what it writes.
#pragma once

#include <string>
#include <vector>

namespace bigmul::test {

struct cli_result {
  int status = -1;   // exit status, or 128 + signal when killed by one
  std::string out;   // stdout (empty when redirected elsewhere)
  std::string err;   // stderr (from a pseudo-terminal when stderr_is_terminal)
};

struct cli_run_options {
  std::string stdin_data;
  std::vector<std::string> env;   // extra NAME=VALUE entries
  std::string stdout_path;        // non-empty: stdout goes to this file (e.g. /dev/full)
  bool close_stdout_reader = false;  // stdout is a pipe whose read end is already closed
  bool stdout_closed = false;        // the child starts with descriptor 1 closed
  bool stderr_is_terminal = false;   // stderr is a pseudo-terminal
  int timeout_seconds = 240;
  unsigned long long address_space_kib = 0;  // non-zero: the child runs under ulimit -v (RLIMIT_AS) of this many KiB
  long run_as_uid = -1;              // >= 0 (the runner being root): the child runs as this uid and gid, no groups
  std::string binary;                // non-empty: run this copy of bigmul instead of the build's
};

cli_result run_cli(const std::vector<std::string>& args, const cli_run_options& options = {});

// "bigmul a b c" with shell-like quoting, for failure messages.
std::string command_line(const std::vector<std::string>& args);

// The names in a folder, sorted, without "." and "..".
std::vector<std::string> folder_entries(const std::string& dir);

}  // namespace bigmul::test
