// SPDX-License-Identifier: LGPL-3.0-or-later
// What -o keeps of a file it replaces (issue 32, cli/replace.hpp): owner,
// group, mode, extended attributes and ACLs; refusals (hard links, a file the
// caller could not write with `>`, another user's file) unless --force;
// temporary names within NAME_MAX; stale temporaries of killed runs removed.
// CI runs as root: the ownership cases chown their files to `nobody` and run
// bigmul as root and as nobody (cli_run_options::run_as_uid).
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/replace.hpp"
#include "cli_runner.hpp"

namespace bigmul::test {
namespace {

constexpr uid_t nobody = 65534;

// The runs as `nobody` take a copy of bigmul in a directory anyone can
// reach (the build tree may lie under a private home, e.g. /root).
struct binary_copy {
  std::string dir, path;
  binary_copy() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/bigmul-cli-binary-XXXXXX";
    if (!::mkdtemp(templ.data())) return;
    dir = templ;
    ::chmod(dir.c_str(), 0755);
    path = dir + "/bigmul";
    std::ifstream in(BIGMUL_CLI_PATH, std::ios::binary);
    std::ofstream out(path, std::ios::binary);
    out << in.rdbuf();
    out.close();
    ::chmod(path.c_str(), 0755);
  }
  ~binary_copy() {
    if (dir.empty()) return;
    ::unlink(path.c_str());
    ::rmdir(dir.c_str());
  }
};

std::string binary_for_nobody() {
  static const binary_copy copy;
  return copy.path.empty() ? std::string(BIGMUL_CLI_PATH) : copy.path;
}

cli_run_options as_nobody() {
  cli_run_options o;
  o.run_as_uid = nobody;
  o.binary = binary_for_nobody();
  return o;
}

class CliReplaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/bigmul-cli-replace-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    // Writable by the unprivileged runs too (sticky, like /tmp).
    ASSERT_EQ(::chmod(dir_.c_str(), 01777), 0);
  }
  void TearDown() override {
    for (const auto& e : list()) ::unlink((dir_ + "/" + e).c_str());
    ::rmdir(dir_.c_str());
  }
  std::vector<std::string> list() const { return folder_entries(dir_); }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path(name)) << text; }
  static std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  static struct stat stat_of(const std::string& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
    return st;
  }
  std::string dir_;
};

void expect_refused(const cli_result& r, const std::vector<std::string>& must_contain) {
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  for (const auto& s : must_contain) EXPECT_NE(r.err.find(s), std::string::npos) << "missing '" << s << "' in: " << r.err;
}

// Finding 1: root replacing nobody's setuid/setgid file made it root's with
// the bits on; now owner, group and all mode bits stay as they were.
TEST_F(CliReplaceTest, OwnerGroupAndModeAreKept) {
  const std::string f = path("s");
  write("s", "old\n");
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::chown(f.c_str(), nobody, nobody), 0);
  }
  const mode_t mode = root ? 06755 : 0640;
  ASSERT_EQ(::chmod(f.c_str(), mode), 0);  // after chown, which clears setuid/setgid
  const struct stat before = stat_of(f);
  const cli_result r = run_cli({"3", "4", "-o", f});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(f), "12\n");
  const struct stat after = stat_of(f);
  EXPECT_NE(after.st_ino, before.st_ino) << "replaced by rename (a new inode)";
  EXPECT_EQ(after.st_uid, before.st_uid);
  EXPECT_EQ(after.st_gid, before.st_gid);
  EXPECT_EQ(after.st_mode & 07777, mode) << std::oct << (after.st_mode & 07777);
  // A new file takes 0666 minus the umask, no owner games.
  const std::string g = path("new");
  ASSERT_EQ(run_cli({"3", "4", "-o", g}).status, 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(stat_of(g).st_mode & 07777, 0666 & ~mask);
  EXPECT_EQ(stat_of(g).st_uid, ::geteuid());
}

// A user replacing a file owned by someone else (writable to them) would
// make it theirs: refused, and the file and directory are left as they were.
TEST_F(CliReplaceTest, AnotherUsersFileIsRefusedForAUserUnlessForced) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run bigmul as nobody (CI runs as root)";
  const std::string f = path("theirs");
  write("theirs", "old\n");
  ASSERT_EQ(::chmod(f.c_str(), 0666), 0);  // writable by nobody, owned by root
  cli_result r = run_cli({"3", "4", "-o", f}, as_nobody());
  expect_refused(r, {"cannot replace", "belongs to user 0", "--force"});
  EXPECT_EQ(slurp(f), "old\n");
  EXPECT_EQ(list(), std::vector<std::string>{"theirs"});
}

// A file the caller could not write with a shell's `>` (0444 for a user)
// is refused unless --force; root's `>` would write it, so root replaces it.
TEST_F(CliReplaceTest, ReadOnlyFileFollowsWhatTheShellWouldDo) {
  const std::string f = path("ro");
  write("ro", "old\n");
  cli_run_options as_user;
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown(f.c_str(), nobody, nobody), 0);
    as_user = as_nobody();
  }
  ASSERT_EQ(::chmod(f.c_str(), 0444), 0);
  cli_result r = run_cli({"3", "4", "-o", f}, as_user);
  expect_refused(r, {"cannot replace", "not writable by you", "0444", "--force"});
  EXPECT_EQ(slurp(f), "old\n");
  r = run_cli({"--force", "3", "4", "-o", f}, as_user);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(f), "12\n");
  EXPECT_EQ(stat_of(f).st_mode & 07777, 0444u);
  if (::geteuid() == 0) {
    // Root: `>` opens a 0444 file for writing, so bigmul replaces it too.
    write("ro2", "old\n");
    ASSERT_EQ(::chown(path("ro2").c_str(), nobody, nobody), 0);
    ASSERT_EQ(::chmod(path("ro2").c_str(), 0444), 0);
    r = run_cli({"3", "4", "-o", path("ro2")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(slurp(path("ro2")), "12\n");
    EXPECT_EQ(stat_of(path("ro2")).st_uid, nobody);
  }
}

TEST_F(CliReplaceTest, HardLinkedFileIsRefusedUnlessForced) {
  const std::string f = path("h"), g = path("h2");
  write("h", "old\n");
  ASSERT_EQ(::link(f.c_str(), g.c_str()), 0);
  cli_result r = run_cli({"3", "4", "-o", f});
  expect_refused(r, {"cannot replace", "2 hard links", "--force"});
  EXPECT_EQ(slurp(f), "old\n");
  EXPECT_EQ(stat_of(f).st_ino, stat_of(g).st_ino);
  r = run_cli({"3", "4", "-o", f, "--force"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(f), "12\n");
  EXPECT_EQ(slurp(g), "old\n");
  EXPECT_EQ(run_cli({"--force", "3", "4"}).status, 2) << "--force without -o is a usage error";
}

// The POSIX ACL xattr format (linux/posix_acl_xattr.h): a version word, then
// (tag, perm, id) entries in tag order.
std::string acl_blob(uid_t extra_user) {
  std::string b;
  const auto u32 = [&](std::uint32_t v) { b.append(reinterpret_cast<const char*>(&v), 4); };
  const auto entry = [&](std::uint16_t tag, std::uint16_t perm, std::uint32_t id) {
    b.append(reinterpret_cast<const char*>(&tag), 2);
    b.append(reinterpret_cast<const char*>(&perm), 2);
    u32(id);
  };
  u32(2);
  entry(0x01, 6, ~0u);         // user::rw-
  entry(0x02, 4, extra_user);  // user:<extra>:r--
  entry(0x04, 4, ~0u);         // group::r--
  entry(0x10, 4, ~0u);         // mask::r--
  entry(0x20, 0, ~0u);         // other::---
  return b;
}

std::string xattr_of(const std::string& p, const char* name) {
  char buf[512];
  const ssize_t n = ::getxattr(p.c_str(), name, buf, sizeof buf);
  return n < 0 ? std::string("<") + std::strerror(errno) + ">" : std::string(buf, static_cast<std::size_t>(n));
}

// Extended attributes (user.*) and the access ACL (system.posix_acl_access)
// go onto the new file. A file system without them is said to be missing.
TEST_F(CliReplaceTest, ExtendedAttributesAndAclAreKept) {
  const std::string f = path("x");
  write("x", "old\n");
  if (::setxattr(f.c_str(), "user.bigmul_test", "v1", 2, 0) != 0)
    GTEST_SKIP() << "the test directory's file system refuses user xattrs (" << std::strerror(errno) << ", "
                 << dir_ << "): xattr keeping NOT covered here; set TMPDIR to an ext4/xfs/tmpfs directory";
  ASSERT_EQ(::setxattr(f.c_str(), "user.second", "\0bin\xff", 5, 0), 0);
  const std::string acl = acl_blob(nobody);
  const bool have_acl = ::setxattr(f.c_str(), "system.posix_acl_access", acl.data(), acl.size(), 0) == 0;
  if (!have_acl) ADD_FAILURE() << "the file system takes user xattrs but no POSIX ACL: " << std::strerror(errno);
  const std::string acl_before = xattr_of(f, "system.posix_acl_access");
  const mode_t mode_before = stat_of(f).st_mode & 07777;
  const cli_result r = run_cli({"3", "4", "-o", f});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(f), "12\n");
  EXPECT_EQ(xattr_of(f, "user.bigmul_test"), "v1");
  EXPECT_EQ(xattr_of(f, "user.second"), std::string("\0bin\xff", 5));
  if (have_acl) {
    EXPECT_EQ(xattr_of(f, "system.posix_acl_access"), acl_before);
    EXPECT_EQ(stat_of(f).st_mode & 07777, mode_before);
  }
}

// Finding 2: names of 241-255 bytes failed (the temporary name was longer).
TEST_F(CliReplaceTest, NamesUpToNameMaxWork) {
  for (const std::size_t len : {std::size_t{1}, std::size_t{200}, std::size_t{230}, std::size_t{241}, std::size_t{255}}) {
    const std::string name(len, 'n');
    for (int twice = 0; twice < 2; ++twice) {  // new, then replaced
      const cli_result r = run_cli({"6", "7", "-o", path(name)});
      ASSERT_EQ(r.status, 0) << len << ": " << r.err;
      EXPECT_EQ(slurp(path(name)), "42\n");
    }
    EXPECT_EQ(list(), std::vector<std::string>{name}) << "nothing but the file is left";
    ::unlink(path(name).c_str());
  }
}

pid_t dead_pid() {
  const pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  int status = 0;
  ::waitpid(p, &status, 0);
  return p;
}

// Finding 2: temporaries of killed runs stayed forever. Only bigmul's exact
// pattern, of a pid that is gone, is removed; a live pid's and look-alikes stay.
TEST_F(CliReplaceTest, StaleTemporariesOfDeadRunsAreRemoved) {
  const std::string dead = cli::temporary_name("out", dead_pid(), 0x0123abcd);
  const std::string other_dead = cli::temporary_name("another file", dead_pid(), 0xdeadbeef);
  const std::string live = cli::temporary_name("out", ::getpid(), 0x0123abcd);
  const std::vector<std::string> look_alikes = {".out.bigmul-1x-0123abcd.tmp", ".out.bigmul-99999999-0123abc.tmp",
                                                ".out.bigmul-99999999-0123abcd.txt", "out.bigmul-99999999-0123abcd.tmp",
                                                ".out.bigmul-XXXXXX"};
  for (const auto& n : look_alikes) write(n, "x");
  write(dead, "partial");
  write(other_dead, "partial");
  write(live, "in progress");
  const cli_result r = run_cli({"3", "4", "-o", path("out")});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<std::string> want = look_alikes;
  want.push_back(live);
  want.push_back("out");
  std::sort(want.begin(), want.end());
  EXPECT_EQ(list(), want);
}

TEST(CliTemporaryName, StaysWithinNameMaxAndIsRecognised) {
  std::set<std::string> seen;
  for (std::size_t len = 1; len <= NAME_MAX; ++len) {
    const std::string name(len, 'a');
    const std::string t = cli::temporary_name(name, 4194304, 0xffffffffu);
    EXPECT_LE(t.size(), static_cast<std::size_t>(NAME_MAX)) << len;
    long pid = 0;
    EXPECT_TRUE(cli::is_temporary_name(t, &pid)) << t;
    EXPECT_EQ(pid, 4194304);
    EXPECT_TRUE(seen.insert(t).second) << "two names share a temporary: " << t;
  }
  // Long names that differ only at the end get different temporaries.
  const std::string a(250, 'q');
  EXPECT_NE(cli::temporary_name(a + "1", 7, 1), cli::temporary_name(a + "2", 7, 1));
  EXPECT_EQ(cli::temporary_name("p.txt", 42, 0xab), ".p.txt.bigmul-42-000000ab.tmp");
  for (const char* not_ours : {"", ".", ".p.bigmul-0-00000000.tmp", ".p.bigmul--00000000.tmp", ".bigmul-5-00000000.tmp",
                               ".p.bigmul-5-0000000g.tmp", ".p.bigmul-5-00000000.tmpx", ".p.bigmul-5-000000000.tmp"})
    EXPECT_FALSE(cli::is_temporary_name(not_ours, nullptr)) << not_ours;
}

TEST(CliHelp, DocumentsTheReplacementRules) {
  const cli_result r = run_cli({"--help"});
  ASSERT_EQ(r.status, 0);
  for (const char* s : {"--force", "owner, group", "hard links", "extended attributes", "ACLs", ".NAME.bigmul-PID"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

}  // namespace
}  // namespace bigmul::test
