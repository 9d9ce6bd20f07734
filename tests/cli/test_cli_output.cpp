// SPDX-License-Identifier: LGPL-3.0-or-later
// The bigmul command's output targets and resource limits (issue 20): -o to
// every kind of existing path (regular file, missing, symlink, dangling
// symlink, FIFO with a reader, character device, /dev/null, /dev/stdout,
// socket, directory), write errors of --help/--version, and runs under
// ulimit -v that must end in a product or "out of memory", never a signal.
#include <dirent.h>
#include <fcntl.h>
#include <gmpxx.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_runner.hpp"

namespace bigmul::test {
namespace {

class CliOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/bigmul-cli-output-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    for (const auto& e : list()) ::unlink((dir_ + "/" + e).c_str()) == 0 || ::rmdir((dir_ + "/" + e).c_str());
    ::rmdir(dir_.c_str());
  }
  std::vector<std::string> list() const { return folder_entries(dir_); }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  static std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  static mode_t kind_of(const std::string& p) {
    struct stat st {};
    return ::lstat(p.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
  }
  std::string dir_;
};

// Failure: exit `status`, nothing on stdout, one stderr line with every string.
void expect_failure(const cli_result& r, int status, const std::vector<std::string>& must_contain) {
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  for (const auto& s : must_contain) EXPECT_NE(r.err.find(s), std::string::npos) << "missing '" << s << "' in: " << r.err;
}

TEST_F(CliOutputTest, RegularAndMissingTargetsAreReplacedAtomically) {
  const std::string out = path("p.txt");
  cli_result r = run_cli({"-o", out, "12", "34"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(out), "408\n");
  { std::ofstream(out) << "a much longer old content that must disappear entirely\n"; }
  r = run_cli({"-o", out, "-12", "34"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(out), "-408\n");
  EXPECT_EQ(kind_of(out), S_IFREG);
  EXPECT_EQ(list(), std::vector<std::string>{"p.txt"});
}

TEST_F(CliOutputTest, SymlinkReplacesItsTargetAndStaysALink) {
  const std::string target = path("target.txt"), link = path("link");
  { std::ofstream(target) << "old\n"; }
  ASSERT_EQ(::symlink("target.txt", link.c_str()), 0);  // relative link: resolved from its own folder
  const cli_result r = run_cli({"-o", link, "11", "11"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(target), "121\n");
  EXPECT_EQ(kind_of(link), S_IFLNK);
  EXPECT_EQ(list(), (std::vector<std::string>{"link", "target.txt"}));
}

TEST_F(CliOutputTest, DanglingSymlinkIsRefusedAndLeftAlone) {
  const std::string link = path("dangling");
  ASSERT_EQ(::symlink("nowhere/p.txt", link.c_str()), 0);
  expect_failure(run_cli({"-o", link, "12", "34"}), 1, {"dangling", "symbolic link", "nowhere/p.txt", "does not exist"});
  EXPECT_EQ(kind_of(link), S_IFLNK);
  EXPECT_EQ(list(), std::vector<std::string>{"dangling"});
  // Checked before the operands are even read: a long run never ends in this refusal.
  expect_failure(run_cli({"-o", link, "12", "3x"}), 1, {"symbolic link"});
  EXPECT_EQ(kind_of(link), S_IFLNK);
}

TEST_F(CliOutputTest, DirectoryIsRefused) {
  const std::string sub = path("sub");
  ASSERT_EQ(::mkdir(sub.c_str(), 0755), 0);
  expect_failure(run_cli({"-o", sub, "6", "7"}), 1, {"sub", "directory"});
  EXPECT_EQ(kind_of(sub), S_IFDIR);
  EXPECT_EQ(list(), std::vector<std::string>{"sub"});
}

TEST_F(CliOutputTest, FifoIsWrittenThroughToItsReader) {
  const std::string fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    if (fd < 0) return;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
  });
  cli_run_options opt;
  opt.timeout_seconds = 60;
  const cli_result r = run_cli({"-o", fifo, "123456789", "987654321"}, opt);
  reader.join();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(got, "121932631112635269\n");
  EXPECT_EQ(kind_of(fifo), S_IFIFO);  // still a FIFO: nothing was renamed over it
  EXPECT_EQ(list(), std::vector<std::string>{"fifo"});
}

TEST_F(CliOutputTest, DevicesAreWrittenThroughNeverReplaced) {
  // /dev/null itself (run as root, a rename would replace the system's /dev/null).
  struct stat before {}, after {};
  ASSERT_EQ(::stat("/dev/null", &before), 0);
  cli_result r = run_cli({"-o", "/dev/null", "12", "34"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));
  EXPECT_EQ(before.st_ino, after.st_ino);
  EXPECT_EQ(before.st_rdev, after.st_rdev);
  // A character device node in the scratch folder (root only: mknod).
  const std::string dev = path("null-node");
  if (::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    r = run_cli({"-o", dev, "12", "34"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(kind_of(dev), S_IFCHR);
    EXPECT_EQ(list(), std::vector<std::string>{"null-node"});
  }
  // /dev/full: written directly, so the device's error is reported (exit 1).
  expect_failure(run_cli({"-o", "/dev/full", "12", "34"}), 1, {"/dev/full", "No space left"});
  ASSERT_EQ(::stat("/dev/full", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));
}

TEST_F(CliOutputTest, DevStdoutWritesToStandardOutput) {
  cli_result r = run_cli({"-o", "/dev/stdout", "12", "34"});  // stdout is a pipe here
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "408\n");
  // Standard output redirected to a regular file: the product lands in it.
  const std::string file = path("redirected.txt");
  { std::ofstream(file) << ""; }
  cli_run_options to_file;
  to_file.stdout_path = file;
  r = run_cli({"-o", "/dev/stdout", "-12", "34"}, to_file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(file), "-408\n");
  EXPECT_EQ(list(), std::vector<std::string>{"redirected.txt"});
}

TEST_F(CliOutputTest, SocketIsRefusedAndLeftAlone) {
  const std::string sock = path("sock");
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock.size(), sizeof addr.sun_path);
  std::memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
  ASSERT_EQ(::bind(s, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  expect_failure(run_cli({"-o", sock, "6", "7"}), 1, {"sock", "socket"});
  ::close(s);
  EXPECT_EQ(kind_of(sock), S_IFSOCK);
  EXPECT_EQ(list(), std::vector<std::string>{"sock"});
}

TEST_F(CliOutputTest, HelpAndVersionWriteErrorsSaySo) {
  cli_run_options full;
  full.stdout_path = "/dev/full";
  expect_failure(run_cli({"--help"}, full), 1, {"help", "standard output", "No space left"});
  expect_failure(run_cli({"--version"}, full), 1, {"version", "standard output", "No space left"});
}

// Under ulimit -v every run either succeeds with GMP's product or exits 1
// with "out of memory" on one stderr line; never a signal (GMP's default
// allocator aborts: SIGABRT, exit 134), never another status. The caps are
// bisected between one that fails and one that succeeds, so they land on
// every phase's edge: generating, multiplying, --verify's GMP product,
// converting and writing.
TEST_F(CliOutputTest, MemoryCapsEndInAProductOrOutOfMemoryNeverASignal) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizers reserve terabytes of address space: ulimit -v cannot apply";
#else
  const std::vector<std::string> args = {"--random", "1000000", "--seed", "3", "--verify", "-o", path("p.txt")};
  const auto outcome = [&](unsigned long long kib) {
    cli_run_options o;
    o.address_space_kib = kib;
    o.timeout_seconds = 300;
    const cli_result r = run_cli(args, o);
    SCOPED_TRACE("ulimit -v " + std::to_string(kib) + "; " + command_line(args));
    EXPECT_TRUE(r.status == 0 || r.status == 1) << "status " << r.status << ": " << r.err;
    if (r.status == 0) {
      EXPECT_EQ(r.err, "");
      // --verify passed, so the product is GMP's; it has 2*10^6 - 1 or 2*10^6 digits.
      const std::size_t bytes = slurp(path("p.txt")).size();
      EXPECT_TRUE(bytes == 2000000u || bytes == 2000001u) << bytes;
    } else if (r.status == 1) {
      EXPECT_NE(r.err.find("out of memory"), std::string::npos) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    return r.status == 0;
  };
  // The lowest cap at which the binary loads at all (`bigmul 3 4` runs):
  // below it the dynamic loader itself fails (exit 127, or a SIGSEGV inside
  // ld.so), before any of our code — ~28 MiB for a CUDA build (static cudart),
  // less without. From there, in 2 MiB steps, the product (operands, transform
  // buffers, --verify's GMP product: > 6 MB) cannot fit yet.
  unsigned long long lo = 8 * 1024, hi = 4 * 1024 * 1024;  // KiB; 4 GiB succeeds
  for (;; lo += 2048) {
    ASSERT_LT(lo, 256ull * 1024) << "bigmul 3 4 does not start under ulimit -v 256 MiB";
    cli_run_options o;
    o.address_space_kib = lo;
    if (run_cli({"3", "4"}, o).status == 0) break;
  }
  EXPECT_FALSE(outcome(lo));
  ASSERT_TRUE(outcome(hi));
  while (hi - lo > 2048) {
    const unsigned long long mid = lo + (hi - lo) / 2;
    (outcome(mid) ? hi : lo) = mid;
  }
  // Just below and above the edge found.
  for (const unsigned long long kib : {lo - 1024, lo, hi, hi + 1024}) outcome(kib);
  RecordProperty("smallest_cap_kib", std::to_string(hi));
#endif
}

}  // namespace
}  // namespace bigmul::test

// Small products start under a tight memory cap in every build (issues 12 and
// 13): a CUDA build once died with exit 127 there, before main(), because the
// loader could not map libcufft; now cuFFT is opened only by the cuFFT engine
// and the GPU is probed only when asked for (-v probes it: it may fail under
// the cap and fall back to the CPU, never end the program). GMP is the oracle.
namespace bigmul::test {
namespace {

TEST_F(CliOutputTest, SmallProductsStartUnderA200MiBCap) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizers reserve terabytes of address space: ulimit -v cannot apply";
#else
  const std::string a = "340282366920938463463374607431768211455", b = "-18446744073709551617";
  const std::string product = mpz_class(mpz_class(a) * mpz_class(b)).get_str();
  const std::string small = mpz_class(mpz_class(3) * mpz_class(4)).get_str();
  cli_run_options o;
  o.address_space_kib = 200 * 1024;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"3", "4"}, {a, b}, {"-v", "3", "4"}, {"--backend", "cpu", a, b}}) {
    const cli_result r = run_cli(args, o);
    SCOPED_TRACE("ulimit -v 204800; " + command_line(args));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, (args.back() == "4" ? small : product) + "\n");
    if (args.front() != "-v") {
      EXPECT_EQ(r.err, "");
    }
  }
#endif
}

}  // namespace
}  // namespace bigmul::test
