// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::boost_int against boost::multiprecision::mpz_int on the same values.
#include <gtest/gtest.h>

#include <boost/multiprecision/gmp.hpp>
#include <boost/multiprecision/integer.hpp>
#include <sstream>
#include <string>

#include "bigmul/boost.hpp"
#include "test_support.hpp"

using bigmul::boost_int;
using boost::multiprecision::mpz_int;

namespace {

std::string random_literal(std::mt19937_64& g, std::size_t digits, bool negative) {
  std::string s(digits, '0');
  for (auto& c : s) c = static_cast<char>('0' + g() % 10);
  s[0] = static_cast<char>('1' + g() % 9);
  return negative ? "-" + s : s;
}

std::string s(const boost_int& x) { return x.str(); }
std::string s(const mpz_int& x) { return x.str(); }

}  // namespace

TEST(BoostBackend, EveryOperatorAgainstMpzInt) {
  auto g = bigmul::test::rng(601);
  for (std::size_t ad : {1u, 18u, 20u, 300u, 5000u}) {
    for (std::size_t bd : {1u, 19u, 40u, 2000u}) {
      for (int signs = 0; signs < 4; ++signs) {
        const std::string la = random_literal(g, ad, signs & 1), lb = random_literal(g, bd, signs & 2);
        const boost_int a(la), b(lb);
        const mpz_int x(la), y(lb);
        const std::string ctx = la.substr(0, 30) + " , " + lb.substr(0, 30);
        ASSERT_EQ(s(a), s(x)) << ctx;
        EXPECT_EQ(s(a + b), s(x + y)) << ctx;
        EXPECT_EQ(s(a - b), s(x - y)) << ctx;
        EXPECT_EQ(s(a * b), s(x * y)) << ctx;
        EXPECT_EQ(s(a / b), s(x / y)) << ctx;
        EXPECT_EQ(s(a % b), s(x % y)) << ctx;
        EXPECT_EQ(s(a & b), s(x & y)) << ctx;
        EXPECT_EQ(s(a | b), s(x | y)) << ctx;
        EXPECT_EQ(s(a ^ b), s(x ^ y)) << ctx;
        EXPECT_EQ(s(~a), s(mpz_int(~x))) << ctx;
        EXPECT_EQ(s(-a), s(mpz_int(-x))) << ctx;
        EXPECT_EQ(s(a << 77), s(mpz_int(x << 77))) << ctx;
        EXPECT_EQ(s(a >> 77), s(mpz_int(x >> 77))) << ctx;
        EXPECT_EQ(s(a >> 3), s(mpz_int(x >> 3))) << ctx;
        EXPECT_EQ(a < b, x < y) << ctx;
        EXPECT_EQ(a == b, x == y) << ctx;
        EXPECT_EQ(a != b, x != y) << ctx;
        EXPECT_EQ(a >= b, x >= y) << ctx;
        EXPECT_EQ(a < 5, x < 5) << ctx;
        EXPECT_EQ(s(a * 12345), s(mpz_int(x * 12345))) << ctx;
        EXPECT_EQ(s(a + -7), s(mpz_int(x + -7))) << ctx;
        boost_int q, r;
        mpz_int qq, rr;
        divide_qr(a, b, q, r);
        divide_qr(x, y, qq, rr);
        EXPECT_EQ(s(q), s(qq)) << ctx;
        EXPECT_EQ(s(r), s(rr)) << ctx;
        boost_int c = a;
        mpz_int z = x;
        c += b, z += y;
        c *= b, z *= y;
        c -= a, z -= x;
        c /= b, z /= y;
        c %= a, z %= x;
        c <<= 5, z <<= 5;
        c >>= 2, z >>= 2;
        c |= b, z |= y;
        c &= a, z &= x;
        c ^= b, z ^= y;
        ++c, ++z;
        c--, z--;
        EXPECT_EQ(s(c), s(z)) << ctx;
        EXPECT_EQ(s(gcd(a, b)), s(mpz_int(gcd(x, y)))) << ctx;
      }
    }
  }
}

TEST(BoostBackend, StringsAndFormatting) {
  for (const char* lit : {"0", "1", "-1", "123456789012345678901234567890", "0x1fFfFfFfFfFfFfFfFfFfFf", "0777", "-0x10", "-0755"}) {
    const boost_int a(lit);
    const mpz_int x(lit[0] == '-' ? lit + 1 : lit);
    const mpz_int xs = lit[0] == '-' ? mpz_int(-x) : x;
    EXPECT_EQ(a.str(), xs.str()) << lit;
    for (auto f : {std::ios_base::fmtflags(std::ios_base::dec), std::ios_base::dec | std::ios_base::showpos}) {
      EXPECT_EQ(a.str(0, f), xs.str(0, f)) << lit;
    }
    if (xs >= 0) {
      for (auto f : {std::ios_base::fmtflags(std::ios_base::hex), std::ios_base::hex | std::ios_base::showbase,
                     std::ios_base::hex | std::ios_base::showbase | std::ios_base::uppercase,
                     std::ios_base::fmtflags(std::ios_base::oct), std::ios_base::oct | std::ios_base::showbase}) {
        EXPECT_EQ(a.str(0, f), xs.str(0, f)) << lit;
      }
    } else {
      EXPECT_THROW(a.str(0, std::ios_base::hex), std::runtime_error);
    }
    std::ostringstream os;
    os << std::hex << abs(a);
    std::ostringstream ref;
    ref << std::hex << abs(xs);
    EXPECT_EQ(os.str(), ref.str());
  }
  EXPECT_THROW(boost_int("12a"), std::runtime_error);
  EXPECT_THROW(boost_int("09"), std::runtime_error);
  auto g = bigmul::test::rng(602);
  const std::string big = random_literal(g, 30000, true);
  EXPECT_EQ(boost_int(big).str(), big);
}

TEST(BoostBackend, ConversionsToAndFromBuiltins) {
  for (long long v : {0LL, 1LL, -1LL, 42LL, -9223372036854775807LL - 1, 9223372036854775807LL}) {
    const boost_int a(v);
    const mpz_int x(v);
    EXPECT_EQ(a.str(), x.str());
    EXPECT_EQ(a.convert_to<long long>(), v);
    EXPECT_EQ(static_cast<long long>(a), v);
    EXPECT_EQ(a.convert_to<int>(), x.convert_to<int>()) << v;
    EXPECT_DOUBLE_EQ(a.convert_to<double>(), x.convert_to<double>()) << v;
  }
  const boost_int u(18446744073709551615ull);
  EXPECT_EQ(u.convert_to<unsigned long long>(), 18446744073709551615ull);
  EXPECT_EQ(u.str(), "18446744073709551615");
  const boost_int huge("123456789012345678901234567890123456789");
  EXPECT_EQ(huge.convert_to<long long>(), std::numeric_limits<long long>::max());
  EXPECT_EQ((-huge).convert_to<long long>(), std::numeric_limits<long long>::min());
  EXPECT_THROW((-huge).convert_to<unsigned long long>(), std::range_error);
  EXPECT_NEAR(huge.convert_to<double>() / 1.2345678901234568e38, 1.0, 1e-15);
  for (double d : {0.0, 0.5, -0.5, 1.5, -2.75, 1e18, -1e30, 6.02214076e23}) {
    const boost_int a(d);
    const mpz_int x(d);
    EXPECT_EQ(a.str(), x.str()) << d;
  }
  EXPECT_THROW(boost_int(std::numeric_limits<double>::infinity()), std::runtime_error);
}

TEST(BoostBackend, BitQueriesAndErrors) {
  const boost_int a("0x100000000000000000000000000f0");
  const mpz_int x("0x100000000000000000000000000f0");
  EXPECT_EQ(msb(a), msb(x));
  EXPECT_EQ(lsb(a), lsb(x));
  for (unsigned i = 0; i < 140; i += 3) EXPECT_EQ(bit_test(a, i), bit_test(x, i)) << i;
  EXPECT_THROW(a / boost_int(0), std::overflow_error);
  EXPECT_THROW(a % boost_int(0), std::overflow_error);
  EXPECT_THROW(msb(boost_int(0)), std::range_error);
  EXPECT_EQ(boost_int(pow(boost_int(-3), 41)).str(), mpz_int(pow(mpz_int(-3), 41)).str());
  EXPECT_EQ(sqrt(a).str(), sqrt(x).str());
  EXPECT_EQ(boost_int(powm(a, boost_int(65537), boost_int("1000000007"))).str(),
            mpz_int(powm(x, mpz_int(65537), mpz_int("1000000007"))).str());
}
