// SPDX-License-Identifier: LGPL-3.0-or-later
// Resource limits end in one line (issue 32): input checked as it streams
// (/dev/zero, sparse files, /proc files, a bound from the memory available),
// the memory pre-flight counting every buffer before any work, and the
// estimates it uses at 2^34..2^62 limbs (never 0, never wrapped).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "bigmul/mul.hpp"
#include "cli/memory_check.hpp"
#include "cli_runner.hpp"

namespace bigmul::test {
namespace {

void expect_one_line(const cli_result& r, int status, const std::vector<std::string>& must_contain) {
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  for (const auto& s : must_contain) EXPECT_NE(r.err.find(s), std::string::npos) << "missing '" << s << "' in: " << r.err;
}

double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string temp_path(const std::string& name) {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp && *tmp ? tmp : "/tmp") + "/bigmul-limits-" + std::to_string(::getpid()) + "-" + name;
}

// Finding 3: @/dev/zero grew memory until killed. Now its first byte fails.
TEST(CliInputLimits, EndlessDeviceFailsAtItsFirstByte) {
  cli_result r;
  const double s = seconds_of([&] { r = run_cli({"@/dev/zero", "3"}); });
  expect_one_line(r, 2, {"operand A", "/dev/zero", "byte offset 0"});
  EXPECT_LT(s, 5.0);
}

// Finding 3: a huge sparse file was read whole before "offset 0" (exit 1
// under a cap). Now: exit 2 at offset 0 at once, capped or not.
TEST(CliInputLimits, HugeSparseFileFailsAtOffsetZeroAtOnce) {
  const std::string f = temp_path("sparse");
  const int fd = ::open(f.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, off_t{2} << 30), 0);
  ::close(fd);
#if defined(__SANITIZE_ADDRESS__)
  const unsigned long long capped = 0;  // sanitizers reserve terabytes of address space: no ulimit -v
#else
  const unsigned long long capped = 1ull << 20;
#endif
  for (const unsigned long long cap : {0ull, capped}) {
    cli_run_options o;
    o.address_space_kib = cap;
    cli_result r;
    const double s = seconds_of([&] { r = run_cli({"5", "@" + f}, o); });
    expect_one_line(r, 2, {"operand B", "byte offset 0 of the file"});
    EXPECT_LT(s, 5.0);
  }
  ::unlink(f.c_str());
}

// A file larger than the bound (a third of the memory available, here under
// ulimit -v 1 GiB) is refused by its size before it is read: exit 1, limit named.
TEST(CliInputLimits, FileOverTheMemoryBoundIsRefusedByItsSize) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "sanitizers reserve terabytes of address space: ulimit -v cannot apply";
#endif
  const std::string f = temp_path("big");
  {
    std::ofstream out(f);
    out << std::string(100000, '7');
  }
  ASSERT_EQ(::truncate(f.c_str(), off_t{1} << 30), 0);  // valid head, then a hole
  cli_run_options o;
  o.address_space_kib = 1ull << 20;
  cli_result r;
  const double s = seconds_of([&] { r = run_cli({"@" + f, "3"}, o); });
  expect_one_line(r, 1, {"operand A", "too large: 1073741824 bytes", "input limit", "ulimit -v"});
  EXPECT_LT(s, 5.0);
  ::unlink(f.c_str());
}

// Finding 3: /proc/sys files failed with "Cannot allocate memory" (one 4 MiB
// read); they are read in 64 KiB chunks now.
TEST(CliInputLimits, ProcFilesAreRead) {
  std::ifstream in("/proc/sys/kernel/pid_max");
  std::string value;
  ASSERT_TRUE(in >> value) << "no /proc/sys/kernel/pid_max";
  const cli_result r = run_cli({"@/proc/sys/kernel/pid_max", "1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, value + "\n");
}

// A foreign byte on a stream is reported at its offset, for each operand
// of "- -" and after the second literal.
TEST(CliInputLimits, StreamedForeignBytesNameTheirOffset) {
  cli_run_options o;
  o.stdin_data = std::string("12\x01", 3);
  expect_one_line(run_cli({"-", "5"}, o), 2, {"operand A (standard input)", "byte offset 2 of standard input"});
  o.stdin_data = std::string("12 \x01", 4);
  expect_one_line(run_cli({"-", "-"}, o), 2, {"operand B (standard input)", "byte offset 3 of standard input"});
  o.stdin_data = std::string("1a2 \x01", 5);  // A's own error comes first
  expect_one_line(run_cli({"-", "-"}, o), 2, {"operand A (standard input)", "byte offset 1 of standard input"});
  o.stdin_data = std::string("12 34 5\x01", 8);
  expect_one_line(run_cli({"-", "-"}, o), 2, {"operand B", "unexpected text", "byte offset 6"});
  o.stdin_data = std::string(200000, '9') + std::string("\0", 1) + std::string(100000, '9');
  expect_one_line(run_cli({"5", "-"}, o), 2, {"operand B (standard input)", "byte offset 200000 of standard input"});
}

// Finding 4: under a memory cap, --random 5 10^8 did its work before the
// refusal. Under 2 GiB (less than the operands, product, transform buffers
// and text need) it is refused before any work.
TEST(CliMemoryPreflight, RandomRunTooLargeIsRefusedBeforeAnyWork) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "sanitizers reserve terabytes of address space: ulimit -v cannot apply";
#endif
  cli_run_options o;
  o.address_space_kib = 2ull << 20;
  cli_result r;
  const double s = seconds_of([&] { r = run_cli({"--random", "500000000", "-o", temp_path("never")}, o); });
  expect_one_line(r, 1, {"out of memory", "500000000", "text", "nothing was computed", "ulimit -v"});
  EXPECT_LT(s, 1.0) << "refused only after work";
  EXPECT_NE(::access(temp_path("never").c_str(), F_OK), 0);
  // --verify and --hex (a conversion) have their buffers counted before any
  // work too: the pre-flight's message names them.
  o.address_space_kib = 256ull << 10;
  r = run_cli({"--random", "60000000", "--verify", "--hex"}, o);
  expect_one_line(r, 1, {"out of memory", "two 60000000-digit numbers", "conversion", "verification", "text",
                         "nothing was computed"});
}

// Finding 6: an invalid BIGMUL_THREADS was ignored while BIGMUL_NTT_ENGINE
// is strict. Every variable's invalid value is a usage error naming it.
TEST(CliEnvironment, InvalidValuesAreUsageErrorsNamingTheVariable) {
  for (const char* bad : {"abc", "-1", "4097", "1.5", " 2", "99999999999"}) {
    cli_run_options o;
    o.env = {std::string("BIGMUL_THREADS=") + bad};
    expect_one_line(run_cli({"3", "4"}, o), 2, {std::string("BIGMUL_THREADS=") + bad, "thread count"});
    expect_one_line(run_cli({"--threads", "2", "3", "4"}, o), 2, {std::string("BIGMUL_THREADS=") + bad});
  }
  for (const char* good : {"", "0", "1", "2", "4096"}) {
    cli_run_options o;
    o.env = {std::string("BIGMUL_THREADS=") + good};
    const cli_result r = run_cli({"3", "4"}, o);
    EXPECT_EQ(r.status, 0) << good << ": " << r.err;
    EXPECT_EQ(r.out, "12\n");
  }
  cli_run_options o;
  o.env = {"BIGMUL_CLI_FAULT=corrupt-it"};
  expect_one_line(run_cli({"3", "4"}, o), 2, {"BIGMUL_CLI_FAULT=corrupt-it"});
  o.env = {"BIGMUL_NTT_ENGINE=bogus"};
  expect_one_line(run_cli({"--random", "100000"}, o), 2, {"BIGMUL_NTT_ENGINE=bogus"});
  o.env = {"BIGMUL_CPU_TABLE=no_such_table"};
  expect_one_line(run_cli({"3", "4"}, o), 2, {"BIGMUL_CPU_TABLE=no_such_table"});
  o.env = {"BIGMUL_CPU_TABLE=amd_zen4_ifma"};
  const cli_result named = run_cli({"3", "4"}, o);
  EXPECT_EQ(named.status, 0) << named.err;
  EXPECT_EQ(named.out, "12\n");
}

// Finding 4: mul_heap_bytes / mul_table_bytes returned 0 from 2^34 limbs on.
TEST(CliMemoryPreflight, EstimatesSaturateAtHugeSizes) {
  for (unsigned k = 34; k <= 62; ++k) {
    const std::size_t n = std::size_t{1} << k;
    for (const radix rx : {radix::binary, radix::decimal}) {
      SCOPED_TRACE("2^" + std::to_string(k) + " limbs");
      EXPECT_EQ(mul_heap_bytes(n, n, rx), SIZE_MAX);
      EXPECT_EQ(mul_table_bytes(n, n, rx), SIZE_MAX);
      EXPECT_EQ(mul_heap_bytes(n, n / 3 + 1000, rx), SIZE_MAX);
      cli::run_buffers b;
      b.an = b.bn = n;
      b.rx = rx;
      b.verify = true;
      b.convert = true;
      b.inputs = UINT64_MAX / 2;
      const cli::run_need need = cli::run_memory(b, {});
      EXPECT_EQ(need.peak, UINT64_MAX);
      EXPECT_GE(need.text, std::uint64_t{2} * n);
    }
  }
  // Below the longest transform the estimates are real and grow with n.
  std::size_t last = 0;
  for (unsigned k = 20; k <= 31; ++k) {
    const std::size_t n = std::size_t{1} << k, bytes = mul_heap_bytes(n, n);
    EXPECT_GT(bytes, 2 * n * sizeof(limb_t)) << k;
    EXPECT_GT(bytes, last) << k;
    EXPECT_LT(bytes, SIZE_MAX);
    EXPECT_GT(mul_table_bytes(n, n), 0u) << k;
    last = bytes;
  }
  EXPECT_EQ(cli::saturating_add(UINT64_MAX - 1, 2), UINT64_MAX);
  EXPECT_EQ(cli::saturating_mul(std::uint64_t{1} << 62, 8), UINT64_MAX);
  EXPECT_EQ(cli::saturating_mul(std::uint64_t{1} << 60, 8), std::uint64_t{1} << 63);
}

}  // namespace
}  // namespace bigmul::test
