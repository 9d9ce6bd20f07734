// SPDX-License-Identifier: LGPL-3.0-or-later
// cli/input's mapped operand files (cli/input.cpp): an operand file that
// another process cuts short while bigmul parses its mapping ends the process
// with the I/O failure's one line and exit 1, instead of dying of SIGBUS; a
// SIGBUS outside the operands' mappings keeps its default action. These run
// in the library, not through the binary, because only there can the file be
// cut between the mapping and the parse deterministically.
#include <fcntl.h>
#include <gmpxx.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "cli/input.hpp"
#include "test_support.hpp"

namespace bigmul::test {
namespace {

class CliInputDeathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    path_ = ::testing::TempDir() + "bigmul_input_" + std::to_string(::getpid()) + ".txt";
    // 200000 digits: past the size from which files are mapped (64 KiB).
    digits_ = std::string(200000, '7');
    digits_[0] = '1';
    std::ofstream(path_) << "  " << digits_ << "\n";
  }
  void TearDown() override { std::remove(path_.c_str()); }

  // Operand A from the file (mapped: it is past 64 KiB), B inline.
  cli::operand_text read_a() const {
    cli::operand_text a, b;
    a.name = 'A';
    b.name = 'B';
    cli::read_operands("@" + path_, "3", a, b);
    return a;
  }

  std::string path_, digits_;
};

TEST_F(CliInputDeathTest, MappedFileParsesToTheSameValueAsGmp) {
  const cli::operand_text a = read_a();
  ASSERT_EQ(a.literal.size(), digits_.size());
  EXPECT_EQ(a.source_offset, 2u);
  const integer x = cli::parse_operand(a);
  EXPECT_EQ(x.to_string(), mpz_class(digits_).get_str());
}

TEST_F(CliInputDeathTest, FileCutShortWhileMappedIsAnIoFailure) {
  const cli::operand_text a = read_a();
  ASSERT_EQ(a.literal.size(), digits_.size());
  EXPECT_EXIT(
      {
        // Another process cuts the file: its mapped pages now fault.
        if (::truncate(path_.c_str(), 0) != 0) std::_Exit(99);
        (void)cli::parse_operand(a);
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(1), "bigmul: cannot read file '.*bigmul_input_.*': it was cut short while being read");
}

TEST_F(CliInputDeathTest, OtherBusErrorsKeepTheDefaultAction) {
  [[maybe_unused]] const cli::operand_text a = read_a();  // installs the handler; keeps A mapped
  EXPECT_EXIT(
      {
        // A mapping of our own, not an operand's, past the end of its file.
        const std::string other = path_ + ".other";
        const int fd = ::open(other.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || ::ftruncate(fd, 4096) != 0) std::_Exit(99);
        void* p = ::mmap(nullptr, 8192, PROT_READ, MAP_SHARED, fd, 0);
        ::unlink(other.c_str());
        if (p == MAP_FAILED) std::_Exit(99);
        volatile const char* q = static_cast<const char*>(p);
        (void)q[4096];  // past the file's end: SIGBUS
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGBUS), "");
}

}  // namespace
}  // namespace bigmul::test
