// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli_runner.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace bigmul::test {
namespace {

void make_pipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
}

// Reads what is available on fd into out; false at end of file (or EIO from a
// pseudo-terminal whose other side has closed).
bool drain(int fd, std::string& out) {
  char buf[1 << 16];
  const ssize_t got = ::read(fd, buf, sizeof buf);
  if (got > 0) {
    out.append(buf, static_cast<std::size_t>(got));
    return true;
  }
  if (got < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  return false;
}

}  // namespace

std::vector<std::string> folder_entries(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.emplace_back(e->d_name);
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string command_line(const std::vector<std::string>& args) {
  std::string s = "bigmul";
  for (const auto& a : args) {
    s += " '";
    for (const char c : a) {
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
        s += hex;
      } else {
        s += c;
      }
    }
    s += "'";
  }
  return s;
}

cli_result run_cli(const std::vector<std::string>& args, const cli_run_options& options) {
  int in[2], out[2], err[2] = {-1, -1};
  make_pipe(in);
  make_pipe(out);
  if (options.close_stdout_reader) {
    // Closed before the child exists, so its first write already meets a pipe without readers.
    ::close(out[0]);
    out[0] = -1;
  }
  int pty_master = -1, pty_slave = -1;
  if (options.stderr_is_terminal) {
    if (::openpty(&pty_master, &pty_slave, nullptr, nullptr, nullptr) != 0)
      throw std::runtime_error(std::string("openpty: ") + std::strerror(errno));
    ::fcntl(pty_master, F_SETFD, FD_CLOEXEC);
    ::fcntl(pty_slave, F_SETFD, FD_CLOEXEC);
  } else {
    make_pipe(err);
  }
  int stdout_file = -1;
  if (!options.stdout_path.empty()) {
    stdout_file = ::open(options.stdout_path.c_str(), O_WRONLY | O_CLOEXEC);
    if (stdout_file < 0) throw std::runtime_error("open " + options.stdout_path + ": " + std::strerror(errno));
  }

  std::vector<std::string> argv_strings;
  argv_strings.emplace_back(options.binary.empty() ? std::string(BIGMUL_CLI_PATH) : options.binary);
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  // The test's entries replace the inherited ones of the same name (getenv
  // returns the first match, so appending would leave e.g. an outer
  // BIGMUL_NTT_ENGINE in force).
  auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const auto& mine : options.env) replaced = replaced || name_of(mine) == name_of(entry);
    if (!replaced) env_strings.push_back(entry);
  }
  env_strings.insert(env_strings.end(), options.env.begin(), options.env.end());
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    ::dup2(in[0], 0);
    if (options.stdout_closed) {
      ::close(1);
    } else {
      ::dup2(stdout_file >= 0 ? stdout_file : out[1], 1);
    }
    ::dup2(options.stderr_is_terminal ? pty_slave : err[1], 2);
    ::signal(SIGPIPE, SIG_DFL);
    if (options.address_space_kib) {
      const rlimit cap{options.address_space_kib * 1024, options.address_space_kib * 1024};
      if (::setrlimit(RLIMIT_AS, &cap) != 0) ::_exit(126);
    }
    if (options.run_as_uid >= 0) {
      const auto id = static_cast<uid_t>(options.run_as_uid);
      if (::setgroups(0, nullptr) != 0 || ::setgid(static_cast<gid_t>(id)) != 0 || ::setuid(id) != 0) ::_exit(125);
    }
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  if (stdout_file >= 0) ::close(stdout_file);
  if (options.stderr_is_terminal) {
    ::close(pty_slave);
  } else {
    ::close(err[1]);
  }
  int err_fd = options.stderr_is_terminal ? pty_master : err[0];
  int out_fd = out[0];
  int in_fd = in[1];
  ::fcntl(in_fd, F_SETFL, O_NONBLOCK);
  // The parent must not die of SIGPIPE when the child does not read stdin.
  struct sigaction ignore {}, old_pipe {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &old_pipe);

  cli_result r;
  std::size_t written = 0;
  if (options.stdin_data.empty()) {
    ::close(in_fd);
    in_fd = -1;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(options.timeout_seconds);
  bool timed_out = false;
  while (in_fd >= 0 || out_fd >= 0 || err_fd >= 0) {
    pollfd fds[3];
    int n = 0;
    int idx_in = -1, idx_out = -1, idx_err = -1;
    if (in_fd >= 0) fds[idx_in = n++] = {in_fd, POLLOUT, 0};
    if (out_fd >= 0) fds[idx_out = n++] = {out_fd, POLLIN, 0};
    if (err_fd >= 0) fds[idx_err = n++] = {err_fd, POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    const int ready = ::poll(fds, static_cast<nfds_t>(n), static_cast<int>(left.count()));
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (idx_in >= 0 && fds[idx_in].revents) {
      const ssize_t put = ::write(in_fd, options.stdin_data.data() + written, options.stdin_data.size() - written);
      if (put > 0) written += static_cast<std::size_t>(put);
      if ((put < 0 && errno != EAGAIN && errno != EINTR) || written == options.stdin_data.size()) {
        ::close(in_fd);
        in_fd = -1;
      }
    }
    if (idx_out >= 0 && fds[idx_out].revents && !drain(out_fd, r.out)) {
      ::close(out_fd);
      out_fd = -1;
    }
    if (idx_err >= 0 && fds[idx_err].revents && !drain(err_fd, r.err)) {
      ::close(err_fd);
      err_fd = -1;
    }
  }
  for (const int fd : {in_fd, out_fd, err_fd})
    if (fd >= 0) ::close(fd);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGPIPE, &old_pipe, nullptr);
  if (timed_out) {
    r.status = -1;
    r.err += "[test runner: timed out after " + std::to_string(options.timeout_seconds) + " s, killed]";
  } else if (WIFEXITED(status)) {
    r.status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.status = 128 + WTERMSIG(status);
  }
  return r;
}

}  // namespace bigmul::test
