#include "cli/output.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "cli/failure.hpp"

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

// The file the rename must replace: PATH itself, or what a symlink PATH
// points to, so that -o through a symlink updates the file and keeps the link.
std::string rename_target(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      std::string resolved = real;
      ::free(real);
      return resolved;
    }
  }
  return path;
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

}  // namespace

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

atomic_file::atomic_file(const std::string& path) : path_(path), target_(rename_target(path)) {
  directory_ = directory_of(target_);
  std::string name = base_name(target_);
  if (name.empty() || name == "." || name == "..")
    throw failure(exit_io, "bigmul: cannot write " + quoted(path_) + ": not a file name");
  std::string templ = (directory_ == "/" ? "/" : directory_ + "/") + "." + name + ".bigmul-XXXXXX";
  // Block the cleanup signals while the name is created and published.
  sigset_t block, old;
  sigemptyset(&block);
  for (const int sig : cleanup_signals) sigaddset(&block, sig);
  ::sigprocmask(SIG_BLOCK, &block, &old);
  fd_ = ::mkostemp(templ.data(), O_CLOEXEC);
  const int err = errno;
  if (fd_ >= 0) {
    temp_ = templ;
    install_cleanup(temp_);
  }
  ::sigprocmask(SIG_SETMASK, &old, nullptr);
  if (fd_ < 0) throw_io("bigmul: cannot create a temporary file in " + quoted(directory_) + " for -o " + quoted(path_), err);
  // mkstemp makes the file 0600; give it what a plain create would: 0666 minus the umask,
  // or the mode of the file being replaced.
  struct stat st {};
  mode_t mode;
  if (::stat(target_.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(fd_, mode);
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
    throw_io("bigmul: cannot write " + quoted(path_), err);
  }
}

void atomic_file::commit() {
  const auto fail = [&](const char* what) {
    const int err = errno;
    discard();
    throw_io(std::string("bigmul: cannot ") + what + " " + quoted(path_), err);
  };
  if (::fsync(fd_) != 0) fail("sync");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("write");
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail("replace");
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
