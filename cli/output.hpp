// SPDX-License-Identifier: LGPL-3.0-or-later
// Writing the product: to stdout in large blocks, or to -o PATH atomically.
#pragma once

#include <string>
#include <string_view>

namespace bigmul::cli {

// Writes all of `data` to fd in large blocks, retrying on EINTR and partial
// writes. Returns false with errno set on failure (EPIPE, ENOSPC, EIO, ...).
bool write_fd(int fd, std::string_view data);

// Throws failure(exit_io) "<what>: <strerror(err)>", naming the file-size
// limit (ulimit -f) for EFBIG.
[[noreturn]] void throw_write_error(const std::string& what, int err);

// Where -o PATH writes. A regular file (or a missing one) is replaced
// atomically; a symlink to a regular file replaces its target and keeps the
// link; a device, FIFO or socket, and a name of an open descriptor
// (/dev/stdout, /dev/fd/N, /proc/.../fd/N), are written directly (`direct`);
// a directory or a dangling symlink is refused (failure(exit_io)), and so is
// a regular file that cli/replace.hpp's rules keep from being replaced
// unless `force` (hard links, not writable by the caller, owner not kept).
struct output_target {
  std::string path;      // the file to replace, or to open when direct
  bool direct = false;   // write through, no temporary file, no rename
  bool regular = false;  // direct to a regular file (through a descriptor name): append
};
output_target resolve_output(const std::string& path, bool force = false);  // throws failure(exit_io)

// A file written in full or not at all: the bytes go to a temporary file in
// PATH's directory (cli/replace.hpp's temporary_name; stale ones of killed
// runs are removed first), which takes the replaced file's owner, group, mode
// and extended attributes (cli/replace.hpp), and which commit() fsyncs and
// renames over PATH (then fsyncs the directory). Until commit() succeeds PATH
// is untouched; the destructor, and SIGINT/SIGTERM/SIGHUP, remove the
// temporary file. A `direct` target (see resolve_output) is opened and
// written as it is: no atomicity there.
class atomic_file {
 public:
  explicit atomic_file(const std::string& path, bool force = false);  // throws failure(exit_io)
  ~atomic_file();
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;

  void write(std::string_view data);  // throws failure(exit_io)
  void commit();                      // throws failure(exit_io)

 private:
  void discard() noexcept;

  std::string path_;       // what the user named
  std::string target_;     // where the rename goes (a symlink's target)
  std::string directory_;  // target_'s directory
  std::string temp_;
  int fd_ = -1;
  bool direct_ = false;    // writing to a device, FIFO or open descriptor
  bool force_ = false;     // --force: what cannot be kept of the replaced file is let go
};

}  // namespace bigmul::cli
