// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/output.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <ctime>

#include "cli/failure.hpp"
#include "cli/replace.hpp"

namespace bigmul::cli {
namespace {

constexpr std::size_t write_block = std::size_t{1} << 24;

// The temporary file a signal handler must remove. Written before the handlers
// can see it (pending_temp_set), read only by the handler.
char pending_temp[PATH_MAX + 1];
volatile std::sig_atomic_t pending_temp_set = 0;

constexpr int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temp_and_die(int sig) {
  if (pending_temp_set) ::unlink(pending_temp);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_cleanup(const std::string& temp) {
  if (temp.size() > PATH_MAX) return;
  std::memcpy(pending_temp, temp.c_str(), temp.size() + 1);
  pending_temp_set = 1;
  for (const int sig : cleanup_signals) {
    struct sigaction sa {};
    sa.sa_handler = remove_temp_and_die;
    sigemptyset(&sa.sa_mask);
    struct sigaction old {};
    // Keep SIG_IGN (e.g. under nohup) as it was.
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &sa, nullptr);
  }
}

void remove_cleanup() {
  for (const int sig : cleanup_signals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == remove_temp_and_die) ::signal(sig, SIG_DFL);
  }
  pending_temp_set = 0;
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The random part of a temporary name (O_EXCL settles a clash).
std::uint32_t random_tag() {
  std::uint32_t v = 0;
  if (::getrandom(&v, sizeof v, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof v)) return v;
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint32_t>(ts.tv_nsec) ^ static_cast<std::uint32_t>(ts.tv_sec * 2654435761u);
}

// A write error as one line; a file-size limit (ulimit -f: EFBIG, SIGXFSZ
// being ignored) says what the limit is.
[[noreturn]] void throw_write(const std::string& what, int err) {
  rlimit lim{};
  if (err == EFBIG && ::getrlimit(RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
    throw failure(exit_io, what + ": " + std::strerror(err) + " (the file size limit, ulimit -f, is " +
                               std::to_string(lim.rlim_cur) + " bytes)");
  throw_io(what, err);
}

}  // namespace

void throw_write_error(const std::string& what, int err) { throw_write(what, err); }

bool write_fd(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t put = ::write(fd, data.data(), std::min(data.size(), write_block));
    if (put < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(put));
  }
  return true;
}

output_target resolve_output(const std::string& path, bool force) {
  const auto refuse = [&](const std::string& why) -> output_target {
    throw failure(exit_io, "bigmul: cannot write " + quoted(path) + ": " + why);
  };
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) != 0) {
    if (errno == ENOENT) return {path, false};  // a new file (a missing directory fails at create)
    throw_io("bigmul: cannot write " + quoted(path), errno);
  }
  struct stat st = lst;
  if (S_ISLNK(lst.st_mode) && ::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err != ENOENT) throw_io("bigmul: cannot write " + quoted(path), err);
    // A dangling link: creating its target could put a file anywhere the link
    // names (a typo, another user's path); refuse instead of guessing.
    char to[PATH_MAX + 1];
    const ssize_t n = ::readlink(path.c_str(), to, PATH_MAX);
    return refuse("it is a symbolic link to " + (n >= 0 ? quoted(std::string_view(to, static_cast<std::size_t>(n))) : std::string("a missing file")) +
                  ", which does not exist (create the target, or remove the link)");
  }
  if (S_ISDIR(st.st_mode)) return refuse("it is a directory");
  // Names of already-open descriptors (/dev/stdout, /dev/fd/N, /proc/.../fd/N)
  // are written through, like a shell redirection: replacing what they resolve
  // to would detach the descriptor the caller holds.
  const bool descriptor_name = path == "/dev/stdout" || path == "/dev/stderr" || path.starts_with("/dev/fd/") ||
                               path.starts_with("/proc/");
  // Devices, FIFOs and sockets are written directly: renaming a regular file
  // over them would destroy them (bigmul -o /dev/null run as root).
  if (!S_ISREG(st.st_mode) || descriptor_name) return {path, true, S_ISREG(st.st_mode)};
  if (!S_ISLNK(lst.st_mode)) {
    check_replaceable(path, path, st, force);
    return {path, false};
  }
  // A symlink to a regular file: replace the target, keep the link.
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) throw_io("bigmul: cannot resolve the symbolic link " + quoted(path), errno);
  std::string resolved = real;
  ::free(real);
  check_replaceable(path, resolved, st, force);
  return {resolved, false};
}

atomic_file::atomic_file(const std::string& path, bool force) : path_(path) {
  const output_target t = resolve_output(path, force);
  target_ = t.path;
  if (t.direct) {
    direct_ = true;
    // No O_TRUNC for devices and FIFOs (meaningless there); a regular file
    // reached through a descriptor name is appended to, as the caller's
    // redirection (> or >>) has already placed it.
    fd_ = ::open(target_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | (t.regular ? O_APPEND : 0));
    if (fd_ < 0) {
      const int err = errno;
      throw_io("bigmul: cannot open " + quoted(path_) + " for writing" +
                   (err == ENXIO ? std::string(" (a socket cannot be written as a file)") : std::string()),
               err);
    }
    return;
  }
  directory_ = directory_of(target_);
  std::string name = base_name(target_);
  if (name.empty() || name == "." || name == "..")
    throw failure(exit_io, "bigmul: cannot write " + quoted(path_) + ": not a file name");
  // What a killed run left here goes first (bigmul's own names only).
  remove_stale_temporaries(directory_);
  struct stat old {};
  const bool replacing = ::stat(target_.c_str(), &old) == 0 && S_ISREG(old.st_mode);
  const std::string prefix = directory_ == "/" ? "/" : directory_ + "/";
  // Block the cleanup signals while the name is created and published.
  sigset_t block, saved;
  sigemptyset(&block);
  for (const int sig : cleanup_signals) sigaddset(&block, sig);
  ::sigprocmask(SIG_BLOCK, &block, &saved);
  int err = 0;
  for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
    std::string temp = prefix + temporary_name(name, static_cast<long>(::getpid()), random_tag());
    fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0600);
    err = errno;
    if (fd_ >= 0) {
      temp_ = std::move(temp);
      install_cleanup(temp_);
    } else if (err != EEXIST) {
      break;
    }
  }
  ::sigprocmask(SIG_SETMASK, &saved, nullptr);
  if (fd_ < 0) throw_io("bigmul: cannot create a temporary file in " + quoted(directory_) + " for -o " + quoted(path_), err);
  force_ = force;
  // The replaced file's owner, group, mode and attributes go on at commit():
  // a write by a caller without CAP_FSETID would clear setuid/setgid again.
  if (replacing) return;
  // Created 0600: give it what a plain create would, 0666 minus the umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

atomic_file::~atomic_file() { discard(); }

void atomic_file::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    temp_.clear();
    remove_cleanup();
  }
}

void atomic_file::write(std::string_view data) {
  if (!write_fd(fd_, data)) {
    const int err = errno;
    discard();
    throw_write("bigmul: cannot write " + quoted(path_), err);
  }
}

void atomic_file::commit() {
  const auto fail = [&](const char* what, int err) {
    discard();
    throw_write(std::string("bigmul: cannot ") + what + " " + quoted(path_), err);
  };
  if (direct_) {
    // Devices and FIFOs: nothing to sync or rename; close() still reports a
    // deferred write error.
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("write", errno);
    return;
  }
  struct stat old {};
  if (::stat(target_.c_str(), &old) == 0 && S_ISREG(old.st_mode)) {
    try {
      keep_file_identity(fd_, path_, target_, old, force_);
    } catch (...) {
      discard();
      throw;
    }
  }
  if (::fsync(fd_) != 0) fail("sync", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("write", errno);
  // Never rename over something that stopped being a regular file while the
  // product was computed (a device or FIFO put there since resolve_output).
  struct stat st {};
  if (::lstat(target_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    discard();
    throw failure(exit_io, "bigmul: cannot replace " + quoted(path_) + ": it is no longer a regular file");
  }
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("replace", errno);
  temp_.clear();
  remove_cleanup();
  // Make the rename itself durable; a failure here leaves a complete file, so only try.
  const int dir = ::open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace bigmul::cli
