// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::integer: parsing, printing, radix conversion, signs, aliasing,
// against GMP's mpz on the same literals.
#include <gtest/gtest.h>
#include <gmpxx.h>

#include <string>
#include <vector>

#include "bigmul/integer.hpp"
#include "test_support.hpp"

using bigmul::integer;
using bigmul::radix;

namespace {

std::string random_decimal(std::mt19937_64& g, std::size_t digits) {
  std::string s(digits, '0');
  for (auto& c : s) c = static_cast<char>('0' + g() % 10);
  if (digits) s[0] = static_cast<char>('1' + g() % 9);
  return s;
}

std::string gmp_str(const mpz_class& x, int base) {
  std::string s = x.get_str(base);
  if (base == 16) s = x < 0 ? "-0x" + s.substr(1) : "0x" + s;
  return s;
}

}  // namespace

TEST(IntegerParse, DecimalAndHexRoundTripAgainstGmp) {
  auto g = bigmul::test::rng(1);
  for (std::size_t digits : {1u, 18u, 19u, 20u, 38u, 39u, 100u, 5000u}) {
    for (const char* sign : {"", "-", "+"}) {
      const std::string body = random_decimal(g, digits);
      const std::string lit = sign + body;
      const integer x = integer::from_string(lit);
      EXPECT_EQ(x.get_radix(), radix::decimal);
      const mpz_class ref(lit[0] == '+' ? lit.substr(1) : lit, 10);
      EXPECT_EQ(x.to_string(10), ref.get_str(10));
      EXPECT_EQ(x.to_string(16), gmp_str(ref, 16));
      const std::string hex = gmp_str(ref, 16);
      const integer h = integer::from_string(hex);
      EXPECT_EQ(h.get_radix(), radix::binary);
      EXPECT_EQ(h.to_string(16), hex);
      EXPECT_EQ(h.to_string(10), ref.get_str(10));
      EXPECT_TRUE(h == x);
    }
  }
}

TEST(IntegerParse, ZerosSignsAndLeadingZeros) {
  EXPECT_EQ(integer::from_string("0").to_string(), "0");
  EXPECT_EQ(integer::from_string("-0").to_string(), "0");
  EXPECT_EQ(integer::from_string("+0").to_string(), "0");
  EXPECT_EQ(integer::from_string("-0").sign(), 0);
  EXPECT_EQ(integer::from_string("0x0").to_string(16), "0x0");
  EXPECT_EQ(integer::from_string("000123").to_string(), "123");  // decimal, never octal
  EXPECT_EQ(integer::from_string("0X00fF").to_string(), "255");
  EXPECT_EQ(integer::from_string("-0xABC").to_string(16), "-0xabc");
  EXPECT_EQ(integer::from_string("10000000000000000000").to_string(), "10000000000000000000");
  EXPECT_EQ(integer::from_string("-18446744073709551616").to_string(16), "-0x10000000000000000");
  EXPECT_EQ(integer::from_string("0xff").to_string(16, false), "ff");
}

TEST(IntegerParse, MalformedLiteralsReportTheOffset) {
  struct bad {
    std::string text;
    std::size_t offset;
  };
  const std::vector<bad> cases = {
      {"", 0},         {"-", 1},        {"+", 1},         {"+-1", 1},     {"--5", 1},    {"0x", 2},
      {"-0x", 3},      {"0x-1", 2},     {"12a3", 2},      {"1 2", 1},     {" 12", 0},    {"12 ", 2},
      {"1e5", 1},      {"0b101", 1},    {"0xfg", 3},      {"1.5", 1},     {"12\t", 2},   {"\xc3\xa9", 0},
      {std::string("12\0" "3", 4), 2}, {"0x 1", 2}, {"١٢", 0},
  };
  for (const auto& c : cases) {
    try {
      (void)integer::from_string(c.text);
      ADD_FAILURE() << "accepted malformed literal '" << c.text << "'";
    } catch (const bigmul::parse_error& e) {
      EXPECT_EQ(e.offset(), c.offset) << "literal '" << c.text << "': " << e.what();
      EXPECT_NE(std::string(e.what()).find("offset " + std::to_string(c.offset)), std::string::npos) << e.what();
    }
  }
}

TEST(IntegerParse, FirstBadByteInAHugeLiteral) {
  auto g = bigmul::test::rng(2);
  std::string s = random_decimal(g, 2000000);
  s[1234567] = 'x';
  s[1900000] = 'y';
  try {
    (void)integer::from_string(s);
    FAIL() << "accepted";
  } catch (const bigmul::parse_error& e) {
    EXPECT_EQ(e.offset(), 1234567u);
  }
}

TEST(IntegerMul, SignsAliasingAndMixedRadixAgainstGmp) {
  auto g = bigmul::test::rng(3);
  for (std::size_t digits : {1u, 30u, 700u, 20000u}) {
    for (int sa : {1, -1}) {
      for (int sb : {1, -1}) {
        const std::string la = (sa < 0 ? "-" : "") + random_decimal(g, digits);
        const std::string lb = (sb < 0 ? "-" : "") + random_decimal(g, digits / 2 + 1);
        const mpz_class ra(la, 10), rb(lb, 10), rp = ra * rb;
        const integer a = integer::from_string(la), b = integer::from_string(lb);
        EXPECT_EQ((a * b).to_string(), rp.get_str(10));
        // Mixed radix: b in binary.
        const integer bh = integer::from_string(gmp_str(rb, 16));
        EXPECT_EQ((a * bh).to_string(), rp.get_str(10));
        EXPECT_EQ((bh * a).to_string(16), gmp_str(rp, 16));
        // Aliasing: r is a, r is b, r is both.
        integer r = a;
        bigmul::mul(r, r, b);
        EXPECT_EQ(r.to_string(), rp.get_str(10));
        r = b;
        bigmul::mul(r, a, r);
        EXPECT_EQ(r.to_string(), rp.get_str(10));
        r = a;
        bigmul::mul(r, r, r);
        EXPECT_EQ(r.to_string(), mpz_class(ra * ra).get_str(10));
        integer c = a;
        c *= b;
        EXPECT_TRUE(c == integer::from_string(rp.get_str(10)));
      }
    }
  }
  EXPECT_EQ((integer::from_string("-5") * integer(0)).to_string(), "0");
  EXPECT_EQ((integer(0) * integer::from_string("-5")).sign(), 0);
}

TEST(IntegerCompare, OrderingAcrossSignsAndRadices) {
  const integer a = integer::from_string("-100"), b = integer::from_string("-0x63"), c = integer(0),
                d = integer::from_string("18446744073709551616"), e = integer::from_string("0x10000000000000000");
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(b < c);
  EXPECT_TRUE(c < d);
  EXPECT_TRUE(d == e);
  EXPECT_TRUE(-d == -e);
  EXPECT_TRUE(-d < a);
  EXPECT_EQ(integer(-7LL).to_string(), "-7");
  EXPECT_EQ(integer(18446744073709551615ULL).to_string(16), "0xffffffffffffffff");
}

TEST(IntegerConvert, RadixRoundTrips) {
  auto g = bigmul::test::rng(4);
  for (std::size_t digits : {1u, 19u, 20u, 300u, 4000u}) {
    const integer x = integer::from_string(random_decimal(g, digits));
    const integer b = x.to_radix(radix::binary);
    EXPECT_EQ(b.get_radix(), radix::binary);
    EXPECT_TRUE(b.to_radix(radix::decimal) == x);
    EXPECT_EQ(b.to_radix(radix::decimal).to_string(), x.to_string());
  }
  EXPECT_THROW((void)integer(5).to_string(8), bigmul::error);
  const bigmul::limb_t bad[] = {bigmul::decimal_limb_base};
  EXPECT_THROW(integer(bad, false, radix::decimal), bigmul::error);
}
