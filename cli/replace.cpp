// SPDX-License-Identifier: LGPL-3.0-or-later
// What -o keeps of a file it replaces (see cli/replace.hpp).
#include "cli/replace.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cli/failure.hpp"

namespace bigmul::cli {
namespace {

constexpr std::string_view temp_mark = ".bigmul-";
constexpr std::string_view temp_end = ".tmp";

std::string octal_mode(mode_t m) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(m & 07777));
  return buf;
}

[[noreturn]] void refuse(const std::string& shown, const std::string& why) {
  throw failure(exit_io, "bigmul: cannot replace " + quoted(shown) + ": " + why + " (--force replaces it anyway)");
}

bool in_group(gid_t g) {
  if (g == ::getegid()) return true;
  const int n = ::getgroups(0, nullptr);
  if (n <= 0) return false;
  std::vector<gid_t> groups(static_cast<std::size_t>(n));
  const int got = ::getgroups(n, groups.data());
  for (int i = 0; i < got; ++i)
    if (groups[static_cast<std::size_t>(i)] == g) return true;
  return false;
}

// The names of target's extended attributes (empty when it has none or the
// file system has none).
std::vector<std::string> attribute_names(const std::string& target) {
  std::vector<char> list;
  for (;;) {
    const ssize_t n = ::listxattr(target.c_str(), nullptr, 0);
    if (n <= 0) return {};
    list.resize(static_cast<std::size_t>(n));
    const ssize_t got = ::listxattr(target.c_str(), list.data(), list.size());
    if (got >= 0) {
      list.resize(static_cast<std::size_t>(got));
      break;
    }
    if (errno != ERANGE) return {};  // grew in between: ask again
  }
  std::vector<std::string> names;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t len = ::strnlen(list.data() + at, list.size() - at);
    if (len) names.emplace_back(list.data() + at, len);
    at += len + 1;
  }
  return names;
}

// Copies one attribute; 0 or the errno that kept it from the new file.
int copy_attribute(int fd, const std::string& target, const std::string& name) {
  std::vector<char> value;
  for (;;) {
    const ssize_t n = ::getxattr(target.c_str(), name.c_str(), nullptr, 0);
    if (n < 0) return errno == ENODATA ? 0 : errno;  // removed in between: nothing to keep
    value.resize(static_cast<std::size_t>(n));
    const ssize_t got = ::getxattr(target.c_str(), name.c_str(), value.data(), value.size());
    if (got >= 0) {
      value.resize(static_cast<std::size_t>(got));
      break;
    }
    if (errno != ERANGE) return errno;
  }
  return ::fsetxattr(fd, name.c_str(), value.data(), value.size(), 0) == 0 ? 0 : errno;
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

bool all_of(std::string_view s, bool (*ok)(char)) {
  if (s.empty()) return false;
  for (const char c : s)
    if (!ok(c)) return false;
  return true;
}

}  // namespace

void check_replaceable(const std::string& shown, const std::string& target, const struct stat& st, bool force) {
  if (force) return;
  if (st.st_nlink > 1)
    refuse(shown, "it has " + std::to_string(st.st_nlink) +
                      " hard links, and a new file in its place would split them from the others");
  // What open(O_WRONLY) by a shell's `>` would decide for the effective ids.
  if (::faccessat(AT_FDCWD, target.c_str(), W_OK, AT_EACCESS) != 0) {
    const int err = errno;
    if (err == EACCES || err == EPERM)
      refuse(shown, "it is not writable by you (mode " + octal_mode(st.st_mode) + "), as a shell's > would refuse it");
    if (err != ENOENT) refuse(shown, std::string("it cannot be opened for writing: ") + std::strerror(err));
  }
  if (::geteuid() != 0) {
    if (st.st_uid != ::geteuid())
      refuse(shown, "it belongs to user " + std::to_string(st.st_uid) + ", and a new file in its place would be yours");
    if (!in_group(st.st_gid))
      refuse(shown, "its group " + std::to_string(st.st_gid) + " is not one of yours, so a new file could not keep it");
  }
}

void keep_file_identity(int fd, const std::string& shown, const std::string& target, const struct stat& st, bool force) {
  const auto cannot = [&](const std::string& what, int err) {
    if (!force)
      throw failure(exit_io, "bigmul: cannot replace " + quoted(shown) + ": cannot keep its " + what + ": " +
                                 std::strerror(err) + " (--force replaces it anyway)");
  };
  struct stat now {};
  if (::fstat(fd, &now) != 0) throw_io("bigmul: cannot write " + quoted(shown), errno);
  // Owner first: chown clears setuid/setgid, fchmod sets them after.
  bool same_owner = now.st_uid == st.st_uid, same_group = now.st_gid == st.st_gid;
  if (!same_owner || !same_group) {
    const uid_t u = same_owner ? static_cast<uid_t>(-1) : st.st_uid;
    const gid_t g = same_group ? static_cast<gid_t>(-1) : st.st_gid;
    if (::fchown(fd, u, g) == 0) {
      same_owner = same_group = true;
    } else {
      const int err = errno;
      // Keep the group alone when the owner cannot be given (a member may).
      if (!same_group && ::fchown(fd, static_cast<uid_t>(-1), st.st_gid) == 0) same_group = true;
      cannot(same_group ? "owner" : "owner and group", err);
    }
  }
  mode_t mode = st.st_mode & 07777;
  if (!same_owner) mode &= ~static_cast<mode_t>(S_ISUID);
  if (!same_group) mode &= ~static_cast<mode_t>(S_ISGID);
  if (::fchmod(fd, mode) != 0) cannot("permission bits", errno);
  // ACLs are the attributes system.posix_acl_access (and _default, for
  // directories only); copied after fchmod, whose group bits they agree with.
  for (const std::string& name : attribute_names(target))
    if (const int err = copy_attribute(fd, target, name)) cannot("extended attribute " + quoted(name), err);
}

std::string temporary_name(std::string_view name, long pid, std::uint32_t tag) {
  char suffix[64];
  std::snprintf(suffix, sizeof suffix, "%.*s%ld-%08x%.*s", static_cast<int>(temp_mark.size()), temp_mark.data(), pid,
                static_cast<unsigned>(tag), static_cast<int>(temp_end.size()), temp_end.data());
  const std::size_t room = NAME_MAX - 1 - std::strlen(suffix);
  std::string out = ".";
  if (name.size() <= room) {
    out += name;
  } else {
    char hash[24];
    std::snprintf(hash, sizeof hash, "~%016llx", static_cast<unsigned long long>(fnv1a(name)));
    out += name.substr(0, room - std::strlen(hash));
    out += hash;
  }
  return out + suffix;
}

bool is_temporary_name(std::string_view entry, long* pid) {
  if (entry.size() < 2 || entry[0] != '.' || !entry.ends_with(temp_end)) return false;
  entry.remove_suffix(temp_end.size());
  // "<pid>-<8 hex>" after the last ".bigmul-".
  const std::size_t mark = entry.rfind(temp_mark);
  if (mark == std::string_view::npos || mark == 0) return false;
  const std::string_view tail = entry.substr(mark + temp_mark.size());
  const std::size_t dash = tail.find('-');
  if (dash == std::string_view::npos) return false;
  const std::string_view digits = tail.substr(0, dash), tag = tail.substr(dash + 1);
  if (digits.size() > 10 || tag.size() != 8) return false;
  if (!all_of(digits, [](char c) { return c >= '0' && c <= '9'; })) return false;
  if (!all_of(tag, [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); })) return false;
  long p = 0;
  for (const char c : digits) p = p * 10 + (c - '0');
  if (p <= 0) return false;
  if (pid) *pid = p;
  return true;
}

unsigned remove_stale_temporaries(const std::string& directory) {
  DIR* d = ::opendir(directory.c_str());
  if (!d) return 0;
  const int dfd = ::dirfd(d);
  unsigned removed = 0;
  while (const dirent* e = ::readdir(d)) {
    long pid = 0;
    if (!is_temporary_name(e->d_name, &pid)) continue;
    // A live process may be one that is writing it (or one that took the pid
    // since: then the file stays, which is the safe side).
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    struct stat st {};
    if (::fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
    if (::geteuid() != 0 && st.st_uid != ::geteuid()) continue;
    if (::unlinkat(dfd, e->d_name, 0) == 0) ++removed;
  }
  ::closedir(d);
  return removed;
}

}  // namespace bigmul::cli
