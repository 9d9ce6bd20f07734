// SPDX-License-Identifier: LGPL-3.0-or-later
// Library misuse is refused with bigmul::error, never a wrong answer or a
// crash (issue 20): enums outside their enumerators, sizes whose sums or
// products overflow, and running out of memory (kind resource, not
// std::bad_alloc).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "prim/parallel.hpp"

namespace bigmul {
namespace {

constexpr limb_t poison = 0x5A5A5A5A5A5A5A5Aull;

// Runs f, expects bigmul::error of kind k; returns its message.
template <class F>
std::string expect_error(error::kind k, F&& f) {
  try {
    f();
  } catch (const error& e) {
    EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(k)) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a bigmul::error: " << e.what();
    return {};
  }
  ADD_FAILURE() << "no error thrown";
  return {};
}

TEST(MulMisuse, EnumsOutsideTheirEnumeratorsAreRefusedAndTheResultUntouched) {
  const std::vector<limb_t> a = {3, 4, 5}, b = {7, 8};
  std::vector<limb_t> r(5, poison);
  for (const unsigned v : {10u, 42u, 255u}) {  // 10: one past toom3, the last enumerator
    mul_options o;
    o.algo = static_cast<algorithm>(v);
    const std::string m = expect_error(error::kind::invalid_argument, [&] { mul(r.data(), a.data(), 3, b.data(), 2, radix::binary, o); });
    EXPECT_NE(m.find("algo"), std::string::npos) << m;
    EXPECT_EQ(r, std::vector<limb_t>(5, poison));  // before the fix: returned normally with r unwritten
    expect_error(error::kind::invalid_argument, [&] { mul_batched(r.data(), a.data(), b.data(), 1, 2, radix::binary, o); });
  }
  mul_options where;
  where.where = static_cast<backend>(3);
  expect_error(error::kind::invalid_argument, [&] { mul(r.data(), a.data(), 3, b.data(), 2, radix::binary, where); });
  mul_options engine;
  engine.engine = static_cast<fft_engine>(2);
  expect_error(error::kind::invalid_argument, [&] { mul(r.data(), a.data(), 3, b.data(), 2, radix::binary, engine); });
  expect_error(error::kind::invalid_argument, [&] { mul(r.data(), a.data(), 3, b.data(), 2, static_cast<radix>(2)); });
  EXPECT_EQ(r, std::vector<limb_t>(5, poison));
  // The last enumerator of each still works (the checks are not off by one).
  mul_options ntt;
  ntt.algo = algorithm::ntt;
  mul(r.data(), a.data(), 3, b.data(), 2, radix::decimal, ntt);
  EXPECT_EQ(r, (std::vector<limb_t>{21, 52, 67, 40, 0}));
}

// A decimal operand's limb >= 10^19 is named by operand and index wherever
// it sits: the check runs 64 limbs a block (4 a compare with AVX2) and
// looks up the limb only in a block that has one, so first, inside and
// last limbs of a block, a full last block and the tail are all tried, at
// 10^19 (the smallest bad limb, beside 10^19 - 1 everywhere else) and
// past it; 2^63 - 1 and 2^63 (< 10^19), where the signed compare's sign
// flip sits, are good limbs.
TEST(MulMisuse, NonDecimalLimbsAreNamedByOperandAndIndex) {
  constexpr limb_t top = 9999999999999999999ull;  // 10^19 - 1
  for (const std::size_t n : {1u, 63u, 64u, 65u, 128u, 200u}) {
    const std::vector<limb_t> b(n, top);
    std::vector<limb_t> a(n, top), r(2 * n, poison);
    // All-maximum, 2^63 - 1 and 2^63 limbs are fine (the products are checked elsewhere).
    for (const limb_t good : {top, limb_t{0x7FFFFFFFFFFFFFFFull}, limb_t{1} << 63}) {
      a.assign(n, good);
      mul(r.data(), a.data(), n, b.data(), n, radix::decimal);
    }
    a.assign(n, top);
    for (const std::size_t at : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{62}, std::size_t{63},
                                 std::size_t{64}, std::size_t{127}, std::size_t{128}, n - 1})
      for (const limb_t bad : {top + 1, top + 2, limb_t{0xC000000000000000ull}, ~limb_t{0}}) {
        if (at >= n) continue;
        for (const bool in_b : {false, true}) {
          std::vector<limb_t> x = a, y = b;
          (in_b ? y : x)[at] = bad;
          r.assign(2 * n, poison);
          const std::string m = expect_error(error::kind::invalid_argument, [&] {
            mul(r.data(), x.data(), n, y.data(), n, radix::decimal);
          });
          const std::string want = std::string("operand ") + (in_b ? "b" : "a") + " limb " + std::to_string(at) + " ";
          EXPECT_NE(m.find(want), std::string::npos) << m << " (n " << n << ", limb " << at << ")";
          EXPECT_EQ(r, std::vector<limb_t>(2 * n, poison));
        }
      }
  }
}

TEST(MulMisuse, SizesThatOverflowAreRefusedBeforeAnyAccess) {
  const std::vector<limb_t> a = {1, 2}, b = {3};
  std::vector<limb_t> r(3, poison);
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  // an + bn wraps to 0: crashed in free() before the fix.
  std::string m = expect_error(error::kind::invalid_argument, [&] { mul(r.data(), a.data(), max, b.data(), 1); });
  EXPECT_NE(m.find("overflow"), std::string::npos) << m;
  // Sums that fit a size_t but not a byte count.
  expect_error(error::kind::invalid_argument, [&] { mul(r.data(), a.data(), max / 8, b.data(), max / 8); });
  expect_error(error::kind::invalid_argument, [&] { mul(r.data(), a.data(), max / 16 + 1, b.data(), max / 16 + 1); });
  // Batched: 2 * n * G overflows.
  m = expect_error(error::kind::invalid_argument, [&] { mul_batched(r.data(), a.data(), b.data(), max / 2, 3); });
  EXPECT_NE(m.find("overflow"), std::string::npos) << m;
  expect_error(error::kind::invalid_argument, [&] { mul_batched(r.data(), a.data(), b.data(), 1, max); });
  expect_error(error::kind::invalid_argument, [&] { mul_batched(r.data(), a.data(), b.data(), std::size_t{1} << 31, std::size_t{1} << 31); });
  EXPECT_EQ(r, std::vector<limb_t>(3, poison));
}

// Out of memory inside the library is bigmul::error kind resource. The child
// of a death test caps its address space just above what it uses, then asks
// for a product whose scratch cannot fit.
TEST(MulMisuse, OutOfMemoryIsAResourceError) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizers reserve terabytes of address space: RLIMIT_AS cannot apply";
#else
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto child = [] {
    const std::size_t n = std::size_t{1} << 20;  // 8 MiB operands: the NTT's scratch is several times that
    std::vector<limb_t> a(n, 0x0123456789abcdefull), b(n, 0xfedcba9876543210ull), r(2 * n);
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    const rlim_t cap = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (rlim_t{4} << 20);
    const rlimit lim{cap, cap};
    if (pages == 0 || ::setrlimit(RLIMIT_AS, &lim) != 0) std::_Exit(3);
    mul_options o;
    o.algo = algorithm::ntt;
    o.threads = 1;
    try {
      mul(r.data(), a.data(), n, b.data(), n, radix::binary, o);
    } catch (const error& e) {
      std::fprintf(stderr, "%s\n", e.what());
      std::_Exit(e.code() == error::kind::resource ? 0 : 1);
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "std::bad_alloc escaped\n");
      std::_Exit(2);
    }
    std::_Exit(4);  // the product fitted: the cap did not bite
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(0), "out of memory");
#endif
}

// A worker thread the system refuses (here: no address space for its stack)
// is a resource error that says what could not be created, not a bare
// "Resource temporarily unavailable".
TEST(MulMisuse, RefusedThreadCreationSaysWhatCouldNotBeCreated) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizers reserve terabytes of address space: RLIMIT_AS cannot apply";
#else
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto child = [] {
    long pages = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
      std::fclose(f);
    }
    const rlim_t cap = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (rlim_t{1} << 20);
    const rlimit lim{cap, cap};
    if (pages == 0 || ::setrlimit(RLIMIT_AS, &lim) != 0) std::_Exit(3);
    try {
      prim::parallel_for(16, 4, [](std::size_t) {});
    } catch (const error& e) {
      std::fprintf(stderr, "%s\n", e.what());
      std::_Exit(e.code() == error::kind::resource ? 0 : 1);
    }
    std::_Exit(4);
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(0), "cannot create worker thread 1 of 3 \\(.*\\): out of memory");
#endif
}

}  // namespace
}  // namespace bigmul
