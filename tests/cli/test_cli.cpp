// SPDX-License-Identifier: LGPL-3.0-or-later
// The bigmul command through the built binary (README: The `bigmul` command): products against
// GMP, every operand form, every class of malformed literal, exit statuses,
// empty stdout on failure, and -o that never clobbers.
#include <dirent.h>
#include <gmpxx.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bigmul/mul.hpp"
#include "bigmul/version.hpp"
#include "cli_runner.hpp"
#include "mul/params_cpu.hpp"
#include "test_support.hpp"

namespace bigmul::test {
namespace {

using args_t = std::vector<std::string>;

std::string gmp_product_text(const std::string& a, const std::string& b, int base = 10) {
  // mpz_class reads "0x" itself with base 0; our decimal literals may have leading zeros,
  // which base 0 would take for octal, so decimal ones are read in base 10.
  const auto read = [](const std::string& s) {
    const std::size_t sign = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    const bool hex = s.size() > sign + 1 && s[sign] == '0' && (s[sign + 1] == 'x' || s[sign + 1] == 'X');
    mpz_class v(hex ? s.substr(sign + 2) : s.substr(sign), hex ? 16 : 10);
    return (sign && s[0] == '-') ? mpz_class(-v) : v;
  };
  const mpz_class p = read(a) * read(b);
  if (base == 16) {
    const std::string digits = mpz_class(abs(p)).get_str(16);
    return (p < 0 ? "-0x" : "0x") + digits;
  }
  return p.get_str(10);
}

std::string random_decimal(std::mt19937_64& g, std::size_t digits) {
  std::string s(digits, '0');
  for (auto& c : s) c = static_cast<char>('0' + g() % 10);
  if (digits) s[0] = static_cast<char>('1' + g() % 9);
  return s;
}

std::string random_hex(std::mt19937_64& g, std::size_t digits) {
  static const char* hex = "0123456789abcdefABCDEF";
  std::string s = "0x";
  for (std::size_t i = 0; i < digits; ++i) s += hex[g() % 22];
  if (digits) s[2] = '7';
  return s;
}

std::string lower_hex(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::size_t line_count(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// Success: exit 0, exactly `expected` + newline on stdout, nothing on stderr.
void expect_product(const args_t& args, const std::string& expected, const cli_run_options& o = {}) {
  const cli_result r = run_cli(args, o);
  SCOPED_TRACE(command_line(args));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  if (r.out.size() < 400 && expected.size() < 400) {
    EXPECT_EQ(r.out, expected + "\n");
  } else {
    EXPECT_TRUE(r.out == expected + "\n") << "product of " << expected.size() << " characters differs (got "
                                         << r.out.size() << " characters)";
  }
}

// Invalid input or usage: exit `status`, nothing on stdout, one line on stderr
// containing every string in `must_contain`.
void expect_failure(const args_t& args, int status, const std::vector<std::string>& must_contain,
                    const cli_run_options& o = {}) {
  const cli_result r = run_cli(args, o);
  SCOPED_TRACE(command_line(args));
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_TRUE(!r.err.empty() && r.err.back() == '\n') << r.err;
  for (const auto& s : must_contain) EXPECT_NE(r.err.find(s), std::string::npos) << "missing '" << s << "' in: " << r.err;
}

// A scratch directory per test, removed afterwards.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/bigmul-cli-test-XXXXXX";
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    remove_tree(dir_);
  }

  static void remove_tree(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
      for (const auto& e : list(path)) remove_tree(path + "/" + e);
      ::rmdir(path.c_str());
    } else {
      ::unlink(path.c_str());
    }
  }

  static std::vector<std::string> list(const std::string& path) {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(path.c_str())) {
      while (const dirent* e = ::readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.emplace_back(e->d_name);
      ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  std::string file(const std::string& name, const std::string& content) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream f(path, std::ios::binary);
    f << content;
    return path;
  }

  static std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }

  std::string dir_;
};

TEST_F(CliTest, VersionAndHelp) {
  expect_product({"--version"}, std::string("bigmul ") + BIGMUL_VERSION_STRING + "\ncpu table: " +
                                    bigmul::detail::params_cpu::tuned_table_description());
  const cli_result h = run_cli({"--help"});
  EXPECT_EQ(h.status, 0);
  EXPECT_EQ(h.err, "");
  for (const char* s : {"Usage: bigmul", "@PATH", "--random", "--verify", "--hex", "-o", "Exit status", "basecase",
                        "fft_real", "--backend"})
    EXPECT_NE(h.out.find(s), std::string::npos) << s;
  EXPECT_EQ(run_cli({"-h"}).out, h.out);
  // --help wins over everything else on the line, even a bad operand.
  EXPECT_EQ(run_cli({"1x", "--help"}).status, 0);
}

TEST_F(CliTest, SmallProductsAllSignsAgainstGmp) {
  auto g = rng(101);
  for (int round = 0; round < 4; ++round) {
    const std::string a = random_decimal(g, 1 + g() % 60), b = random_decimal(g, 1 + g() % 60);
    for (const char* sa : {"", "+", "-"})
      for (const char* sb : {"", "+", "-"}) {
        const std::string x = sa + a, y = sb + b;
        expect_product({x, y}, gmp_product_text(x, y));
      }
  }
}

TEST_F(CliTest, ZeroAndNegativeZero) {
  for (const args_t& args : std::vector<args_t>{{"0", "5"},
                                               {"-0", "5"},
                                               {"5", "-0"},
                                               {"-0", "-0"},
                                               {"0000", "-123"},
                                               {"0x0", "-7"},
                                               {"-0x000", "12345678901234567890123"},
                                               {"+0", "0"}})
    expect_product(args, "0");
  expect_product({"--hex", "0", "-5"}, "0x0");
  expect_product({"--hex", "-0x0", "0x10"}, "0x0");
}

TEST_F(CliTest, PlusSignsAndLeadingZerosAreDecimal) {
  expect_product({"+12", "+3"}, "36");
  expect_product({"0123", "2"}, "246");  // not octal
  expect_product({"-007", "0010"}, "-70");
  expect_product({"00000000000000000000000000000000009", "-000000000000000000000000000000000000000011"}, "-99");
  expect_product({"09", "08"}, "72");
}

TEST_F(CliTest, HexInputAndHexOutput) {
  expect_product({"0xff", "0x10"}, "4080");
  expect_product({"0XfF", "2"}, "510");
  expect_product({"--hex", "0xff", "0x10"}, "0xff0");
  expect_product({"--hex", "-0x10", "3"}, "-0x30");
  expect_product({"--hex", "-0x10", "-0x3"}, "0x30");
  expect_product({"0x10", "10"}, "160");  // mixed
  expect_product({"-10", "0x10"}, "-160");
  auto g = rng(102);
  const std::string h = random_hex(g, 1500), d = random_decimal(g, 1800), h2 = "-" + random_hex(g, 900);
  expect_product({h, d}, gmp_product_text(h, d));
  expect_product({"--hex", h, d}, gmp_product_text(h, d, 16));
  expect_product({"--hex", d, h2}, gmp_product_text(d, h2, 16));
  expect_product({h2, h}, gmp_product_text(h2, h));
}

// Both operands in the other radix than the output's (hex x hex -> decimal,
// decimal x decimal -> --hex): both are converted before the product, on
// two threads and on one. ~10^6 digits, negative, zero, all-f and all-9
// operands, unequal sizes.
TEST_F(CliTest, BothOperandsConvertedAgainstGmp) {
  auto g = rng(104);
  const std::string h = random_hex(g, 830000), h2 = "-" + random_hex(g, 300001);
  const std::string d = random_decimal(g, 1000000), d2 = "-" + random_decimal(g, 999999);
  const std::string all_f = "0x" + std::string(830000, 'f'), nines = std::string(1000000, '9');
  const std::string fh = file("h.txt", h), fh2 = file("h2.txt", h2), fd = file("d.txt", d), fd2 = file("d2.txt", d2);
  const std::string ff = file("f.txt", all_f), f9 = file("n.txt", nines);
  for (const char* threads : {"2", "1"}) {
    expect_product({"--threads", threads, "@" + fh, "@" + fh2}, gmp_product_text(h, h2));
    expect_product({"--threads", threads, "--hex", "@" + fd, "@" + fd2}, gmp_product_text(d, d2, 16));
  }
  expect_product({"@" + ff, "@" + fh}, gmp_product_text(all_f, h));
  expect_product({"--hex", "@" + f9, "@" + fd2}, gmp_product_text(nines, d2, 16));
  expect_product({"--hex", "@" + f9, "-0"}, "0x0");
  expect_product({"0x0", "@" + fh2}, "0");
}

TEST_F(CliTest, LargeDecimalProductAgainstGmp) {
  auto g = rng(103);
  const std::string a = random_decimal(g, 100000), b = "-" + random_decimal(g, 99991);
  const std::string fa = file("a.txt", a), fb = file("b.txt", b + "\n");
  expect_product({"@" + fa, "@" + fb}, gmp_product_text(a, b));
  // Unbalanced, and the same operands as arguments.
  const std::string c = random_decimal(g, 20);
  expect_product({a, c}, gmp_product_text(a, c));
  // All nines: the longest carry chains.
  const std::string nines(50000, '9');
  expect_product({nines, "-" + nines}, gmp_product_text(nines, "-" + nines));
}

TEST_F(CliTest, OperandFromFileIgnoresSurroundingWhitespace) {
  const std::string a = file("a.txt", "  \n\t 123456789012345678901234567890 \r\n\n");
  const std::string b = file("b.txt", "-0x1F\n");
  expect_product({"@" + a, "@" + b}, gmp_product_text("123456789012345678901234567890", "-0x1F"));
  expect_product({"@" + a, "7"}, gmp_product_text("123456789012345678901234567890", "7"));
  expect_product({"--", "-2", "@" + b}, "62");
}

TEST_F(CliTest, OperandsFromStdin) {
  cli_run_options o;
  o.stdin_data = "  -12345678901234567890123\n";
  expect_product({"-", "3"}, gmp_product_text("-12345678901234567890123", "3"), o);
  expect_product({"3", "-"}, gmp_product_text("3", "-12345678901234567890123"), o);
  o.stdin_data = "\n 99999999999999999999 \n\t-0x10\n";
  expect_product({"-", "-"}, gmp_product_text("99999999999999999999", "-0x10"), o);
  o.stdin_data = "5 7";
  expect_product({"-", "-"}, "35", o);
  // A large literal on stdin.
  auto g = rng(104);
  const std::string a = random_decimal(g, 60000);
  o.stdin_data = a + "\n";
  expect_product({"-", "12345678901234567890"}, gmp_product_text(a, "12345678901234567890"), o);
}

struct bad_literal {
  std::string text;
  std::size_t offset;
};

// Every class of malformed literal, with the byte offset of its first bad byte.
const std::vector<bad_literal> inline_bad_literals = {
    {"", 0},         {"+", 1},          {"+-1", 1},      {"0x", 2},       {"0x-1", 2},     {"-0x", 3},
    {"12a3", 2},     {"1 2", 1},        {" 12", 0},      {"12 ", 2},      {"1\t2", 1},     {"1\xc3\xa9", 1},
    {"\xff", 0},     {"0b101", 1},      {"1e5", 1},      {"--5", 1},      {"0x1g", 3},     {"12.5", 2},
    {"1,000", 1},    {"0x+5", 2},       {"++1", 1},      {"-+1", 1},      {"0xx1", 2},     {"١٢", 0},
};

TEST_F(CliTest, MalformedInlineLiteralsExit2WithOperandAndOffset) {
  for (const auto& bad : inline_bad_literals) {
    expect_failure({"--", bad.text, "7"}, 2, {"operand A", "byte offset " + std::to_string(bad.offset)});
    expect_failure({"7", "--", bad.text}, 2, {"operand B", "byte offset " + std::to_string(bad.offset)});
  }
  // Without "--", operands that start with a sign or digit are still operands.
  expect_failure({"--5", "3"}, 2, {"operand A", "byte offset 1"});
  expect_failure({"3", "-1e5"}, 2, {"operand B", "byte offset 2"});
  // A comes first when both are bad.
  expect_failure({"1x", "2y"}, 2, {"operand A", "byte offset 1"});
}

TEST_F(CliTest, MalformedLiteralsInFilesCountOffsetsInTheFile) {
  struct case_t {
    std::string content;
    std::size_t offset;
  };
  const std::vector<case_t> cases = {
      {std::string("12\0" "3", 4), 2},  // embedded NUL
      {"  \n12x4\n", 5},                 // leading whitespace counts
      {"\t-", 2},                        // lone sign
      {"-", 1},
      {"", 0},                           // empty file
      {" \n \n", 4},                     // only whitespace: the literal is missing at the end
      {"12\n34\n", 2},                   // two lines
      {"0x\n", 2},
      {"9\xe2\x80\x8b", 1},              // non-ASCII (zero-width space)
      {"\x01" "5", 0},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string path = file("bad" + std::to_string(i) + ".txt", cases[i].content);
    const std::string offset = "byte offset " + std::to_string(cases[i].offset) + " of the file";
    expect_failure({"@" + path, "3"}, 2, {"operand A", path, offset});
    expect_failure({"3", "@" + path}, 2, {"operand B", path, offset});
  }
}

TEST_F(CliTest, MalformedLiteralsOnStdinCountOffsetsInStdin) {
  cli_run_options o;
  o.stdin_data = "\n 9z";
  expect_failure({"-", "5"}, 2, {"operand A", "standard input", "byte offset 3"}, o);
  o.stdin_data = std::string("1\0" "2", 3);
  expect_failure({"5", "-"}, 2, {"operand B", "standard input", "byte offset 1"}, o);
  o.stdin_data = "12 3q\n";
  expect_failure({"-", "-"}, 2, {"operand B", "standard input", "byte offset 4"}, o);
  o.stdin_data = "1a 3\n";
  expect_failure({"-", "-"}, 2, {"operand A", "standard input", "byte offset 1"}, o);
  o.stdin_data = "  12  \n";
  expect_failure({"-", "-"}, 2, {"operand B", "standard input", "byte offset 7"}, o);
  o.stdin_data = "";
  expect_failure({"-", "-"}, 2, {"operand A", "standard input", "byte offset 0"}, o);
  o.stdin_data = "1 2 3";
  expect_failure({"-", "-"}, 2, {"operand B", "standard input", "byte offset 4"}, o);
  o.stdin_data = " \n";
  expect_failure({"-", "7"}, 2, {"operand A", "standard input", "byte offset 2"}, o);
}

TEST_F(CliTest, OutputFileIsWrittenAtomically) {
  auto g = rng(105);
  const std::string a = random_decimal(g, 30000), b = random_decimal(g, 25000);
  const std::string out = dir_ + "/product.txt";
  const cli_result r = run_cli({"-o", out, a, b});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(slurp(out) == gmp_product_text(a, b) + "\n");
  EXPECT_EQ(list(dir_), std::vector<std::string>{"product.txt"});  // no temporary file left
  // Replacing an existing file, with --output=PATH and --hex.
  const cli_result r2 = run_cli({"--output=" + out, "--hex", "-3", "0x10"});
  EXPECT_EQ(r2.status, 0) << r2.err;
  EXPECT_EQ(slurp(out), "-0x30\n");
  EXPECT_EQ(list(dir_), std::vector<std::string>{"product.txt"});
  // -oPATH form; the new file gets ordinary permissions, not mkstemp's 0600.
  const std::string out2 = dir_ + "/p2.txt";
  EXPECT_EQ(run_cli({"-o" + out2, "6", "7"}).status, 0);
  EXPECT_EQ(slurp(out2), "42\n");
  struct stat st {};
  ASSERT_EQ(::stat(out2.c_str(), &st), 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
}

TEST_F(CliTest, OutputThroughSymlinkUpdatesTheTarget) {
  const std::string target = file("target.txt", "old\n");
  const std::string link = dir_ + "/link.txt";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  EXPECT_EQ(run_cli({"-o", link, "11", "11"}).status, 0);
  EXPECT_EQ(slurp(target), "121\n");
  struct stat st {};
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(list(dir_), (std::vector<std::string>{"link.txt", "target.txt"}));
}

TEST_F(CliTest, FailedRunNeverClobbersOutputFile) {
  const std::string precious = file("precious.txt", "precious\n");
  // Invalid input.
  expect_failure({"-o", precious, "12", "3x"}, 2, {"operand B", "byte offset 1"});
  EXPECT_EQ(slurp(precious), "precious\n");
  // Missing operand file.
  expect_failure({"-o", precious, "@" + dir_ + "/missing.txt", "3"}, 1, {"missing.txt"});
  EXPECT_EQ(slurp(precious), "precious\n");
  // A failed check after the product exists (fault injected into the product).
  cli_run_options fault;
  fault.env = {"BIGMUL_CLI_FAULT=corrupt-product"};
  expect_failure({"--verify", "-o", precious, "123456789", "987654321"}, 3, {"--verify"}, fault);
  EXPECT_EQ(slurp(precious), "precious\n");
  EXPECT_EQ(list(dir_), std::vector<std::string>{"precious.txt"});
  // The rename fails (the target is a directory): the temporary file, fully
  // written by then, is removed and the directory is untouched.
  const std::string sub = dir_ + "/sub";
  ASSERT_EQ(::mkdir(sub.c_str(), 0755), 0);
  expect_failure({"-o", sub, "6", "7"}, 1, {"sub"});
  struct stat st {};
  ASSERT_EQ(::stat(sub.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(list(dir_), (std::vector<std::string>{"precious.txt", "sub"}));
  // The directory does not exist.
  expect_failure({"-o", dir_ + "/no/such/dir/p.txt", "6", "7"}, 1, {"p.txt"});
  EXPECT_EQ(list(dir_), (std::vector<std::string>{"precious.txt", "sub"}));
}

TEST_F(CliTest, MissingFileIsAnIoError) {
  expect_failure({"@" + dir_ + "/nope.txt", "3"}, 1, {"nope.txt", "No such file"});
  expect_failure({"3", "@" + dir_}, 1, {dir_});  // a directory is not a literal file
  expect_failure({"@", "3"}, 2, {"operand A", "file name"});
}

TEST_F(CliTest, UsageErrorsExit2) {
  expect_failure({"--frobnicate", "1", "2"}, 2, {"unknown option", "--frobnicate"});
  expect_failure({"-x", "1", "2"}, 2, {"unknown option", "-x"});
  expect_failure({}, 2, {"missing operands"});
  expect_failure({"5"}, 2, {"missing operand B"});
  expect_failure({"1", "2", "3"}, 2, {"too many operands"});
  expect_failure({"-o"}, 2, {"-o", "needs a value"});
  expect_failure({"--hex=1", "2", "3"}, 2, {"--hex", "takes no value"});
  expect_failure({"--random", "0"}, 2, {"--random"});
  expect_failure({"--random", "12abc"}, 2, {"--random"});
  expect_failure({"--random", "99999999999999999999999"}, 2, {"too large"});
  expect_failure({"--random", "5", "1", "2"}, 2, {"--random takes no operands"});
  expect_failure({"--seed", "3", "1", "2"}, 2, {"--seed"});
  expect_failure({"--threads", "-1", "1", "2"}, 2, {"--threads"});
  expect_failure({"--algorithm", "quantum", "1", "2"}, 2, {"unknown algorithm", "quantum", "basecase", "fft_real"});
  expect_failure({"--backend", "gpu", "1", "2"}, 2, {"unknown backend", "gpu"});
  // --backend cuda: works on a GPU; without one, exit 1 and say why.
  std::string why;
  if (bigmul::cuda_usable(&why)) {
    expect_product({"--backend", "cuda", "2", "3"}, "6");
  } else {
    expect_failure({"--backend", "cuda", "1", "2"}, 1, {"--backend cuda", why.c_str()});
  }
  expect_failure({"--fft-engine", "fftw", "1", "2"}, 2, {"unknown FFT engine", "fftw", "in_house", "cufft"});
  expect_product({"--fft-engine", "cufft", "--backend", "cpu", "2", "3"}, "6");
  expect_product({"--backend", "cpu", "2", "3"}, "6");
  expect_product({"--backend=auto", "2", "3"}, "6");
}

TEST_F(CliTest, OptionsMayFollowOperands) {
  expect_product({"2", "3", "--hex"}, "0x6");
  expect_product({"-5", "--threads", "1", "-7"}, "35");
  expect_product({"--", "-2", "-3"}, "6");
}

TEST_F(CliTest, EveryAlgorithmGivesTheSameProduct) {
  auto g = rng(106);
  const std::string a = random_decimal(g, 400), b = "-" + random_decimal(g, 350);
  const std::string expected = gmp_product_text(a, b);
  for (const char* algo : {"auto", "basecase", "karatsuba", "tiled", "fft_complex", "fft_real", "fft_complex_f32",
                           "fft_real_f32", "ntt"}) {
    expect_product({"--algorithm", algo, a, b}, expected);
    expect_product({"--algorithm=" + std::string(algo), "--threads", "2", "0x1234567890abcdef1234", b},
                   gmp_product_text("0x1234567890abcdef1234", b));
  }
}

// toom3 multiplies binary limbs: hex operands printed in hex run it; decimal
// ones are refused with exit 2 and a line naming the algorithm.
TEST_F(CliTest, Toom3ByNameOnBinaryOperands) {
  auto g = rng(107);
  const std::string a = random_hex(g, 2000), b = random_hex(g, 1500);
  expect_product({"--algorithm", "toom3", "--hex", a, "-" + b}, gmp_product_text(a, "-" + b, 16));
  expect_failure({"--algorithm", "toom3", "123456789", "987654321"}, 2, {"toom3", "binary"});
}

TEST_F(CliTest, RandomWithVerifyAndSeeds) {
  const cli_result r = run_cli({"--random", "20000", "--verify", "--seed", "42"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_FALSE(r.out.empty());
  EXPECT_TRUE(r.out.size() == 40000 || r.out.size() == 40001) << r.out.size();  // 2N-1 or 2N digits + newline
  EXPECT_EQ(r.out.find_first_not_of("0123456789\n"), std::string::npos);
  // The same seed gives the same product, for any thread count; another seed another one.
  EXPECT_EQ(run_cli({"--random", "20000", "--seed", "42", "--threads", "1"}).out, r.out);
  EXPECT_EQ(run_cli({"--random", "20000", "--seed", "42", "--threads", "3"}).out, r.out);
  EXPECT_NE(run_cli({"--random", "20000", "--seed", "43"}).out, r.out);
  // Without --seed, -v names the seed; replaying it gives the same product.
  const cli_result v = run_cli({"--random", "3000", "-v"});
  EXPECT_EQ(v.status, 0) << v.err;
  const std::size_t at = v.err.find("--seed ");
  ASSERT_NE(at, std::string::npos) << v.err;
  const std::string seed = v.err.substr(at + 7, v.err.find_first_not_of("0123456789", at + 7) - at - 7);
  EXPECT_EQ(run_cli({"--random", "3000", "--seed", seed}).out, v.out);
  // Exactly N digits, first digit nonzero, for N around a limb boundary.
  for (const char* n : {"1", "18", "19", "20", "38"}) {
    const cli_result s = run_cli({"--random", n, "--verify", "--hex"});
    EXPECT_EQ(s.status, 0) << n << ": " << s.err;
  }
}

TEST_F(CliTest, VerifyMismatchExits3WithNothingOnStdout) {
  cli_run_options fault;
  fault.env = {"BIGMUL_CLI_FAULT=corrupt-product"};
  expect_failure({"--verify", "--random", "5000", "--seed", "1"}, 3, {"--verify", "GMP"}, fault);
  expect_failure({"--verify", "0", "5"}, 3, {"--verify"}, fault);
  // Without the fault, --verify passes, also with the modular check off.
  expect_product({"--verify", "--no-check", "12", "12"}, "144");
}

TEST_F(CliTest, TimingAndVerboseGoToStderr) {
  const cli_result r = run_cli({"-t", "--random", "5000", "--seed", "9", "--verify"});
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* s : {"time generate", "time multiply", "time verify", "time convert", "time write", "time total",
                        "algorithm ", "transform length", "max round-off", "modular check passed"})
    EXPECT_NE(r.err.find(s), std::string::npos) << s << " in:\n" << r.err;
  EXPECT_EQ(r.out, run_cli({"--random", "5000", "--seed", "9"}).out);
  const cli_result t = run_cli({"-tv", "--no-check", "123", "0x5"});
  EXPECT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(t.out, "615\n");
  for (const char* s : {"time read", "time parse", "on the CPU", "A: 3 decimal digits", "B: 1 hex digits",
                        "modular check off"})
    EXPECT_NE(t.err.find(s), std::string::npos) << s << " in:\n" << t.err;
  const cli_result z = run_cli({"-t", "0", "5"});
  EXPECT_EQ(z.out, "0\n");
  EXPECT_NE(z.err.find("an operand is zero"), std::string::npos) << z.err;
}

TEST_F(CliTest, WriteErrorsOnStdoutExit1) {
  cli_run_options full;
  full.stdout_path = "/dev/full";
  expect_failure({"--random", "1000", "--seed", "5"}, 1, {"standard output", "No space left"}, full);
  cli_run_options closed;
  closed.close_stdout_reader = true;
  expect_failure({"--random", "1000", "--seed", "5"}, 1, {"standard output", "pipe"}, closed);
  // Started with stdout closed: a write error, and -o still works without taking descriptor 1.
  cli_run_options no_stdout;
  no_stdout.stdout_closed = true;
  expect_failure({"6", "7"}, 1, {"standard output", "Bad file descriptor"}, no_stdout);
  const std::string out = dir_ + "/p.txt";
  const cli_result r = run_cli({"-o", out, "6", "7"}, no_stdout);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(out), "42\n");
}

// An NTT engine named in the environment that does not exist is the user's to
// fix: exit 2 with the variable named, not "internal error" with exit 1.
TEST_F(CliTest, UnknownNttEngineInTheEnvironmentIsUsage) {
  cli_run_options bogus;
  bogus.env = {"BIGMUL_NTT_ENGINE=sse9"};
  expect_failure({"--algorithm", "ntt", "--random", "5000", "--seed", "4"}, 2, {"BIGMUL_NTT_ENGINE=sse9", "ifma"}, bogus);
  cli_run_options portable;
  portable.env = {"BIGMUL_NTT_ENGINE=portable"};
  const cli_result r = run_cli({"--algorithm", "ntt", "--random", "5000", "--seed", "4"}, portable);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, run_cli({"--algorithm", "basecase", "--random", "5000", "--seed", "4"}).out);
}

TEST_F(CliTest, ProgressOnlyWhenStderrIsATerminal) {
  cli_run_options tty;
  tty.stderr_is_terminal = true;
  const cli_result r = run_cli({"--random", "100000", "--seed", "3"}, tty);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("multiplying"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find('\r'), std::string::npos);
  // The line is cleared at the end.
  const std::string clear = "\r\033[K";
  ASSERT_GE(r.err.size(), clear.size());
  EXPECT_EQ(r.err.substr(r.err.size() - clear.size()), clear);
  const cli_result plain = run_cli({"--random", "100000", "--seed", "3"});
  EXPECT_EQ(plain.err, "");
  EXPECT_EQ(plain.out, r.out);
  // Small runs stay quiet even on a terminal.
  EXPECT_EQ(run_cli({"6", "7"}, tty).err, "");
}

// Every input radix x output radix through the binary (operands are converted
// to the output's radix before the product), with signs and zero, at a size
// past the radix converter's schoolbook thresholds and at 10^6 digits.
TEST_F(CliTest, EveryRadixCombinationAgainstGmp) {
  auto g = rng(1313);
  for (std::size_t digits : {std::size_t{3000}, std::size_t{1000000}}) {
    const std::string d1 = random_decimal(g, digits), d2 = "-" + random_decimal(g, digits - 7);
    const std::string h1 = lower_hex(random_hex(g, digits)), h2 = "-" + lower_hex(random_hex(g, digits - 5));
    const std::string fd1 = file("d1", d1), fd2 = file("d2", d2 + "\n"), fh1 = file("h1", h1), fh2 = file("h2", h2);
    const struct {
      std::string a, b, fa, fb;
    } pairs[] = {{d1, d2, fd1, fd2}, {h1, h2, fh1, fh2}, {d1, h2, fd1, fh2}, {h1, d2, fh1, fd2}};
    for (const auto& p : pairs) {
      for (bool hex : {false, true}) {
        args_t args;
        if (hex) args.push_back("--hex");
        args.push_back("@" + p.fa);
        args.push_back("@" + p.fb);
        expect_product(args, gmp_product_text(p.a, p.b, hex ? 16 : 10));
      }
    }
  }
  for (const char* zero : {"0", "-0", "0x0", "-0x000"})
    for (const char* other : {"-12345678901234567890123", "0xfedcba9876543210fedcba"}) {
      expect_product({zero, other}, "0");
      expect_product({"--hex", other, zero}, "0x0");
    }
}

// Both operands in the output's radix are parsed straight into the CLI's
// arena (cli/arena.hpp), not through integer: leading zero limbs, signs,
// zeros, all-max digits, unequal sizes, one and two threads, arenas on both
// sides of the huge-page switch (half a huge page) and one past the
// huge-page cap (its operands' pages are unmapped before the text, which
// has an allocation of its own); a bad
// byte in either operand still names it with the exact offset.
TEST_F(CliTest, OperandsInTheOutputsRadixParsedInPlaceAgainstGmp) {
  auto g = rng(1316);
  for (const bool hex : {false, true}) {
    const auto number = [&](std::size_t digits) {
      return hex ? lower_hex(random_hex(g, digits)) : random_decimal(g, digits);
    };
    const std::string zero_limbs = std::string(hex ? 40 : 45, '0');  // two high zero limbs and more
    const std::string max = hex ? "0x" + std::string(70000, 'f') : std::string(70000, '9');
    const std::string big = number(300000), mid = number(20000);
    const std::string padded = hex ? "-0x" + zero_limbs + big.substr(2) : "-" + zero_limbs + big;
    const struct {
      std::string a, b;
    } pairs[] = {{big, mid},   {mid, padded},         {max, max},
                 {big, "-1"},  {hex ? "0x1" : "1", big}, {hex ? "-0x" + zero_limbs : "-" + zero_limbs, big},
                 {number(17), number(33)}};
    for (const auto& p : pairs)
      for (const char* threads : {"1", "2"}) {
        const std::string fa = file("ia", p.a), fb = file("ib", "\n" + p.b + "\n");
        args_t args = {"--threads", threads, "@" + fa, "@" + fb};
        if (hex) args.insert(args.begin(), "--hex");
        expect_product(args, gmp_product_text(p.a, p.b, hex ? 16 : 10));
      }
    // A bad byte in B after a good A, and in A: exit 2, nothing on stdout.
    std::string bad = big;
    bad[150001] = hex ? 'x' : 'f';
    const std::string fbad = file("ibad", bad), fgood = file("igood", mid);
    args_t args = {"@" + fgood, "@" + fbad};
    if (hex) args.insert(args.begin(), "--hex");
    expect_failure(args, 2, {"operand B", "byte offset 150001 of the file"});
    args = {"@" + fbad, "@" + fgood};
    if (hex) args.insert(args.begin(), "--hex");
    expect_failure(args, 2, {"operand A", "byte offset 150001 of the file"});
  }
  // Past the arena's huge-page cap (64 MiB: 2 x 16.5 MB operands and a 33 MB
  // product; the 66 MB text then in its own allocation, the operands' pages
  // unmapped before it), hex, one operand negative.
  const std::string ha = lower_hex(random_hex(g, 33000000)), hb = "-" + lower_hex(random_hex(g, 32999999));
  expect_product({"--hex", "@" + file("ha", ha), "@" + file("hb", hb)}, gmp_product_text(ha, hb, 16));
}

// A bad byte deep inside a long operand, at each position of an 8-byte block,
// in both radices: exit 2, the exact offset, nothing on stdout.
TEST_F(CliTest, BadByteInALongOperandHasItsExactOffset) {
  auto g = rng(1314);
  for (const bool hex : {false, true}) {
    std::string text = hex ? lower_hex(random_hex(g, 400000)) : random_decimal(g, 400000);
    for (std::size_t pos : {std::size_t{200001}, std::size_t{200002}, std::size_t{200007}, std::size_t{399999}}) {
      std::string bad = text;
      bad[pos] = hex ? 'g' : ':';
      const std::string path = file("bad" + std::to_string(pos), "\n" + bad);
      expect_failure({"7", "@" + path}, 2, {"operand B", "byte offset " + std::to_string(pos + 1) + " of the file"});
      expect_failure({"--hex", "@" + path, "7"}, 2, {"operand A", "byte offset " + std::to_string(pos + 1) + " of the file"});
    }
  }
}

// Large operands from files: the product is prepared (cli/prepare.hpp) from
// the text's length while a second thread parses. The estimate is off for
// leading zeros (far too large), signs and a radix change; every product
// stays exact, on one thread (no preparing) and two, from files and --random.
TEST_F(CliTest, ProductsPreparedWhileParsingStayExact) {
  auto g = rng(1315);
  const std::string d = random_decimal(g, 300000), h = lower_hex(random_hex(g, 250001));
  const std::string zeros_d = std::string(400000, '0') + "98765432109876543210";  // ~21000 limbs estimated, 2 used
  const std::string zeros_h = "-0x" + std::string(300000, '0') + "fedcba9876543210f";
  const std::string fd = file("pd", d), fh = file("ph", h), fzd = file("pzd", zeros_d + "\n"), fzh = file("pzh", zeros_h);
  const struct {
    std::string a, b, fa, fb;
  } pairs[] = {{d, h, fd, fh}, {zeros_d, d, fzd, fd}, {h, zeros_h, fh, fzh}, {zeros_d, zeros_h, fzd, fzh}};
  for (const auto& p : pairs)
    for (bool hex : {false, true})
      for (const char* threads : {"1", "2"}) {
        args_t args = {"--threads", threads, "@" + p.fa, "@" + p.fb};
        if (hex) args.insert(args.begin(), "--hex");
        expect_product(args, gmp_product_text(p.a, p.b, hex ? 16 : 10));
      }
  // -t names the preparation when it ran beside the parse (two threads) and not on one.
  const cli_result two = run_cli({"-t", "--threads", "2", "@" + fd, "@" + fh});
  EXPECT_EQ(two.status, 0) << two.err;
  EXPECT_NE(two.err.find("time   prepare (beside)"), std::string::npos) << two.err;
  const cli_result one = run_cli({"-t", "--threads", "1", "@" + fd, "@" + fh});
  EXPECT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.err.find("prepare"), std::string::npos) << one.err;
  EXPECT_EQ(one.out, two.out);
  // Files from 64 KiB on are mapped, not read (cli/input.cpp): sizes at that
  // switch, whitespace around the literal, in both radices.
  for (std::size_t size : {std::size_t{65535}, std::size_t{65536}, std::size_t{65537}})
    for (bool hex : {false, true}) {
      const std::string head = " \n\t", tail = "\r\n\n";
      const std::size_t digits = size - head.size() - tail.size() - (hex ? 2 : 0);
      const std::string x = hex ? lower_hex(random_hex(g, digits)) : random_decimal(g, digits);
      const std::string path = file("m" + std::to_string(size) + (hex ? "h" : "d"), head + x + tail);
      ASSERT_EQ(std::filesystem::file_size(path), size);
      expect_product({"@" + path, "-12345678901234567890"}, gmp_product_text(x, "-12345678901234567890"));
      std::string bad = head + x + tail;
      bad[size - tail.size() - 1] = hex ? 'g' : 'a';  // the literal's last byte
      const std::string bad_path = file("mb" + std::to_string(size) + (hex ? "h" : "d"), bad);
      expect_failure({"3", "@" + bad_path}, 2,
                     {"operand B", "byte offset " + std::to_string(size - tail.size() - 1) + " of the file"});
    }
  // --random prepares while it generates: the same digits as without.
  const cli_result r2 = run_cli({"-t", "--random", "200000", "--seed", "5", "--threads", "2", "--verify"});
  EXPECT_EQ(r2.status, 0) << r2.err;
  EXPECT_NE(r2.err.find("time   prepare (beside)"), std::string::npos) << r2.err;
  EXPECT_EQ(r2.out, run_cli({"--random", "200000", "--seed", "5", "--threads", "1"}).out);
}

}  // namespace
}  // namespace bigmul::test
