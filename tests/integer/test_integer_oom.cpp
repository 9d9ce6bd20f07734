// SPDX-License-Identifier: LGPL-3.0-or-later
// Running out of memory in any public entry point of bigmul::integer, its
// operators, the radix converters, division and the modular API (and the
// Boost backend when Boost is there) is bigmul::error kind resource, never
// std::bad_alloc (issue 20). Each case runs in a death-test child: it builds
// its operands, caps the address space just above what the process then
// uses, and calls the entry point with a result that cannot fit.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/error.hpp"
#include "bigmul/integer.hpp"
#include "bigmul/modular.hpp"
#if defined(BIGMUL_TEST_BOOST)
#include "bigmul/boost.hpp"
#endif

namespace bigmul {
namespace {

constexpr std::size_t big_limbs = std::size_t{1} << 20;  // 8 MiB: far above the cap's slack
constexpr rlim_t slack = rlim_t{1} << 20;                  // room for the error's message and stderr

// The address space this process maps now, plus the slack.
void cap_address_space() {
  long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  const rlim_t cap = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + slack;
  const rlimit lim{cap, cap};
  if (pages == 0 || ::setrlimit(RLIMIT_AS, &lim) != 0) std::_Exit(3);
}

// The child: exit 0 only for bigmul::error kind resource.
template <class F>
[[noreturn]] void child(F&& body) {
  // Blocks from 128 KiB up are mapped and unmapped one by one (no dynamic
  // threshold keeping freed operands in the heap), so the mapped size the cap
  // starts from is what is in use; and a cap that does not bite ends in
  // SIGALRM, not in an hour-long product.
  ::mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  ::alarm(120);
  try {
    body();
  } catch (const error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::_Exit(e.code() == error::kind::resource ? 0 : 1);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "std::bad_alloc escaped\n");
    std::_Exit(2);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "not a bigmul::error: %s\n", e.what());
    std::_Exit(5);
  }
  std::fprintf(stderr, "the result fitted: the cap did not bite\n");
  std::_Exit(4);
}

// `body` builds its operands, calls cap_address_space(), then the entry
// point. The message names the innermost entry point that translated the
// failure (a copy, a conversion, the called function itself) or, where a
// conversion starts worker threads, the thread that could not be created.
#define EXPECT_RESOURCE(...) \
  EXPECT_EXIT(child([&] __VA_ARGS__), ::testing::ExitedWithCode(0), "out of memory") << #__VA_ARGS__

integer big_binary(std::size_t n = big_limbs) {
  std::vector<limb_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0x9e3779b97f4a7c15ull * (i + 1);
  v[n - 1] |= 1ull << 63;
  return integer(std::move(v), false, radix::binary);
}

integer big_decimal(std::size_t n = big_limbs) {
  std::vector<limb_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = (0x9e3779b97f4a7c15ull * (i + 1)) % decimal_limb_base;
  v[n - 1] = decimal_limb_base - 1;
  return integer(std::move(v), false, radix::decimal);
}

// A binary number within a bit of d's size: ordering it against d needs a conversion.
integer binary_near(const integer& d) {
  const double bits = static_cast<double>(d.size()) * 63.116633802859894;  // log2(10^19) a limb
  const std::size_t n = static_cast<std::size_t>(bits / 64) + 1;
  std::vector<limb_t> v(n, 0x5555555555555555ull);
  v[n - 1] = static_cast<limb_t>(std::ldexp(1.0, static_cast<int>(bits - 64.0 * static_cast<double>(n - 1))));
  return integer(std::move(v), false, radix::binary);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SKIP_UNDER_SANITIZERS() GTEST_SKIP() << "sanitizers reserve terabytes of address space: RLIMIT_AS cannot apply"
#else
#define SKIP_UNDER_SANITIZERS() GTEST_FLAG_SET(death_test_style, "threadsafe")
#endif

// The one translation (bigmul/error.hpp): allocation failures become
// resource errors naming the entry point; every other exception, bigmul's
// own among them, goes through unchanged.
TEST(IntegerOom, TranslationMapsAllocationFailuresOnly) {
  const auto through = [](auto ex) {
    try {
      throw ex;
    } catch (...) {
      detail::rethrow_allocation_failure("bigmul::test");
    }
  };
  for (int which = 0; which < 2; ++which) {
    try {
      if (which == 0) through(std::bad_alloc());
      else through(std::length_error("vector::_M_default_append"));
      ADD_FAILURE() << "nothing thrown";
    } catch (const error& e) {
      EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(error::kind::resource));
      EXPECT_EQ(std::string(e.what()).rfind("bigmul::test: out of memory", 0), 0u) << e.what();
    }
  }
  try {
    through(parse_error("invalid 'x' at byte offset 3", 3));
    ADD_FAILURE() << "nothing thrown";
  } catch (const parse_error& e) {
    EXPECT_EQ(e.offset(), 3u);
  }
  EXPECT_THROW(through(std::runtime_error("other")), std::runtime_error);
  EXPECT_THROW(through(std::out_of_range("other")), std::out_of_range);
  try {
    through(error(error::kind::domain, "bigmul::x: division by zero"));
  } catch (const error& e) {
    EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(error::kind::domain));
  }
}

// A shift by an absurd bit count asks for 2^61 bytes: no cap needed.
TEST(IntegerOom, AbsurdShiftIsAResourceError) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizers abort on an allocation past their maximum instead of throwing";
#else
  for (const std::size_t bits : {std::numeric_limits<std::size_t>::max(), std::size_t{1} << 62}) {
    try {
      (void)(integer(1) << bits);
      ADD_FAILURE() << "1 << " << bits << " fitted";
    } catch (const error& e) {
      EXPECT_EQ(static_cast<int>(e.code()), static_cast<int>(error::kind::resource)) << e.what();
    }
  }
#endif
}

TEST(IntegerOom, ConstructionCopiesParsingPrintingConversion) {
  SKIP_UNDER_SANITIZERS();
  EXPECT_RESOURCE({
    const std::vector<limb_t> v(big_limbs, 7);
    cap_address_space();
    const integer x(std::span<const limb_t>(v), false, radix::binary);
  });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    cap_address_space();
    const integer c(a);
  });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    integer c = 5;
    cap_address_space();
    c = a;
  });
  EXPECT_RESOURCE({
    const std::string text(20 * big_limbs, '7');
    cap_address_space();
    (void)integer::from_string(text);
  });
  EXPECT_RESOURCE({
    const std::string text = "-0x" + std::string(16 * big_limbs, 'f');
    cap_address_space();
    (void)integer::from_string(text);
  });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    cap_address_space();
    (void)a.to_string(10);
  });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    cap_address_space();
    (void)a.to_string(16);
  });
  EXPECT_RESOURCE({
    const integer d = big_decimal();
    cap_address_space();
    (void)d.to_string(10);
  });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    cap_address_space();
    (void)a.printed_size(10);
  });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    std::vector<char> out(21 * big_limbs);
    cap_address_space();
    a.print(out.data(), 10);
  });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    cap_address_space();
    (void)a.to_radix(radix::decimal);
  });
  EXPECT_RESOURCE({
    const integer d = big_decimal();
    cap_address_space();
    (void)convert_radix(d, radix::binary);
  });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    cap_address_space();
    (void)-a;
  });
  EXPECT_RESOURCE({
    const integer d = big_decimal();
    const integer b = binary_near(d);
    cap_address_space();
    (void)(b < d);
  });
  EXPECT_RESOURCE({
    const integer d = big_decimal();
    const integer b = binary_near(d);
    cap_address_space();
    (void)(d == b);
  });
}

TEST(IntegerOom, ArithmeticOperators) {
  SKIP_UNDER_SANITIZERS();
  EXPECT_RESOURCE({ const integer a = big_binary(); cap_address_space(); (void)(a + a); });
  EXPECT_RESOURCE({ const integer a = big_binary(); cap_address_space(); (void)(a - integer(1)); });
  EXPECT_RESOURCE({ integer a = big_binary(); cap_address_space(); a += a; });
  EXPECT_RESOURCE({ integer a = big_decimal(); cap_address_space(); a -= integer(3); });
  EXPECT_RESOURCE({ integer a = big_binary(); cap_address_space(); ++a; });
  EXPECT_RESOURCE({ integer a = big_binary(); cap_address_space(); --a; });
  EXPECT_RESOURCE({ integer a = big_binary(); cap_address_space(); a++; });
  EXPECT_RESOURCE({ const integer a = big_binary(); cap_address_space(); (void)(a * a); });
  EXPECT_RESOURCE({ integer a = big_decimal(); cap_address_space(); a *= integer(7); });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    integer r;
    cap_address_space();
    mul(r, a, big_binary(4));
  });
  EXPECT_RESOURCE({ const integer a = big_binary(); cap_address_space(); (void)(a / integer(3)); });
  EXPECT_RESOURCE({ const integer a = big_binary(); cap_address_space(); (void)(a % integer(3)); });
  EXPECT_RESOURCE({ integer a = big_decimal(); cap_address_space(); a /= integer(3); });
  EXPECT_RESOURCE({ integer a = big_binary(); cap_address_space(); a %= integer(3); });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    cap_address_space();
    (void)divmod(a, integer(-3));
  });
  EXPECT_RESOURCE({
    const integer a = big_binary(), b = big_binary(big_limbs / 2);
    integer q, r;
    cap_address_space();
    divmod(q, r, a, b);
  });
  EXPECT_RESOURCE({
    const integer a = big_binary();
    cap_address_space();
    (void)abs(a);
  });
}

TEST(IntegerOom, ShiftsAndBitOperations) {
  SKIP_UNDER_SANITIZERS();
  EXPECT_RESOURCE({ const integer a = big_binary(); cap_address_space(); (void)(a << 1); });
  EXPECT_RESOURCE({ integer a(1); cap_address_space(); a <<= 64 * big_limbs; });
  EXPECT_RESOURCE({ const integer a = big_binary(); cap_address_space(); (void)(a >> 3); });
  EXPECT_RESOURCE({ integer a = -big_binary(); cap_address_space(); a >>= 70; });
  EXPECT_RESOURCE({ const integer a = big_binary(); cap_address_space(); (void)(a & integer(-1)); });
  EXPECT_RESOURCE({ integer a = big_binary(); cap_address_space(); a |= integer(6); });
  EXPECT_RESOURCE({ integer a = big_binary(); cap_address_space(); a ^= a; });
  EXPECT_RESOURCE({ const integer a = big_binary(); cap_address_space(); (void)~a; });
  // These read binary operands in place: decimal ones must convert.
  EXPECT_RESOURCE({ const integer d = big_decimal(); cap_address_space(); (void)bit_length(d); });
  EXPECT_RESOURCE({
    const integer d = big_decimal();
    cap_address_space();
    (void)lowest_set_bit(d);
  });
  EXPECT_RESOURCE({ const integer d = big_decimal(); cap_address_space(); (void)test_bit(d, 5); });
}

TEST(IntegerOom, LimbLevelConvertersAndDivision) {
  SKIP_UNDER_SANITIZERS();
  EXPECT_RESOURCE({
    const integer a = big_binary();
    cap_address_space();
    (void)binary_to_decimal(a.magnitude().data(), a.size());
  });
  EXPECT_RESOURCE({
    const integer d = big_decimal();
    cap_address_space();
    (void)decimal_to_binary(d.magnitude().data(), d.size());
  });
  EXPECT_RESOURCE({
    const integer a = big_binary(), b = big_binary(big_limbs / 2);
    std::vector<limb_t> q(a.size() - b.size() + 1), r(b.size());
    cap_address_space();
    div_qr(q.data(), r.data(), a.magnitude().data(), a.size(), b.magnitude().data(), b.size());
  });
}

// A modulus too large to copy under the cap, and a context (built before the
// cap) whose operations need n-limb scratch.
TEST(IntegerOom, ModularArithmetic) {
  SKIP_UNDER_SANITIZERS();
  EXPECT_RESOURCE({
    const integer m = big_binary();  // odd: its low limb is 0x9e3779b97f4a7c15
    cap_address_space();
    const montgomery_context c(m);
  });
  EXPECT_RESOURCE({
    const integer m = big_binary() | integer(1);
    cap_address_space();
    (void)mod_pow(integer(2), integer(65537), m);
  });
  EXPECT_RESOURCE({
    const integer m = big_binary() | integer(1);
    cap_address_space();
    (void)mod_pow_sec(integer(2), integer(65537), m);
  });
  EXPECT_RESOURCE({
    const integer m = big_binary() | integer(1);
    cap_address_space();
    (void)mod_mul(integer(2), integer(3), m);
  });
  EXPECT_RESOURCE({
    const integer m = big_binary() | integer(1);
    cap_address_space();
    (void)mod_sqr(integer(2), m);
  });
  const auto context = [] { return montgomery_context(big_binary(big_limbs / 4) | integer(1)); };
  EXPECT_RESOURCE({
    const montgomery_context c = context();
    cap_address_space();
    (void)c.mod_mul(integer(2), integer(3));
  });
  EXPECT_RESOURCE({
    const montgomery_context c = context();
    cap_address_space();
    (void)c.mod_sqr(integer(2));
  });
  EXPECT_RESOURCE({
    const montgomery_context c = context();
    cap_address_space();
    (void)c.mod_pow(integer(2), integer(65537));
  });
  EXPECT_RESOURCE({
    const montgomery_context c = context();
    cap_address_space();
    (void)c.mod_pow_sec(integer(2), integer(65537));
  });
  EXPECT_RESOURCE({
    const montgomery_context c = context();
    const std::vector<integer> a = {integer(2), integer(5)}, b = {integer(3), integer(7)};
    cap_address_space();
    (void)c.mod_mul(a, b, 1);
  });
  EXPECT_RESOURCE({
    const montgomery_context c = context();
    const std::vector<integer> a = {integer(2)}, e = {integer(65537)};
    cap_address_space();
    (void)c.mod_pow_sec(a, e, 1);
  });
  EXPECT_RESOURCE({
    const std::vector<integer> a = {integer(2), integer(4)}, m = {big_binary(big_limbs / 4) | integer(1)};
    cap_address_space();
    (void)mod_sqr_batched(a, m, 1);
  });
  EXPECT_RESOURCE({
    const std::vector<integer> a = {integer(2)}, e = {integer(3)}, m = {big_binary(big_limbs / 4) | integer(1)};
    cap_address_space();
    (void)mod_pow_batched(a, e, m, 1);
  });
}

#if defined(BIGMUL_TEST_BOOST)
TEST(IntegerOom, BoostBackend) {
  SKIP_UNDER_SANITIZERS();
  EXPECT_RESOURCE({
    const boost_int x = boost_int(boost_backend::from_integer(big_binary()));
    cap_address_space();
    (void)x.str();
  });
  EXPECT_RESOURCE({
    const boost_int x = boost_int(boost_backend::from_integer(big_binary()));
    cap_address_space();
    (void)x.str(0, std::ios_base::oct);
  });
  EXPECT_RESOURCE({
    const std::string text = "0" + std::string(22 * big_limbs, '7');
    cap_address_space();
    const boost_int x(text.c_str());
  });
  EXPECT_RESOURCE({
    const boost_int x = boost_int(boost_backend::from_integer(big_binary()));
    cap_address_space();
    const boost_int y = x;
  });
  EXPECT_RESOURCE({
    const boost_int x = boost_int(boost_backend::from_integer(big_binary()));
    cap_address_space();
    (void)boost_int(x * x);
  });
  EXPECT_RESOURCE({
    const boost_int x = boost_int(boost_backend::from_integer(big_binary()));
    cap_address_space();
    (void)boost_int(x << 5);
  });
}
#endif

}  // namespace
}  // namespace bigmul
