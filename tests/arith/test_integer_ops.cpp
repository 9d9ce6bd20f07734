// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::integer operators against mpz on every sign and radix combination.
#include <gtest/gtest.h>

#include <string>

#include "arith_test_util.hpp"

using namespace bigmul;
using test::operand_kind;
using test::to_mpz_class;

namespace {

integer random_integer(std::mt19937_64& g, std::size_t n, bool negative, radix rx,
                       operand_kind kind = operand_kind::random) {
  if (n == 0) return test::make_integer({}, false, rx);  // zero in radix rx
  return test::make_integer(test::make_operand(kind, n, rx, g), negative, rx);
}

mpz_class tdiv_q(const mpz_class& a, const mpz_class& b) {
  mpz_class q;
  mpz_tdiv_q(q.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
  return q;
}
mpz_class tdiv_r(const mpz_class& a, const mpz_class& b) {
  mpz_class r;
  mpz_tdiv_r(r.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
  return r;
}

}  // namespace

TEST(IntegerOps, ArithmeticEverySignAndRadix) {
  auto g = test::rng(401);
  const radix radices[] = {radix::binary, radix::decimal};
  for (std::size_t an : {0u, 1u, 2u, 9u, 170u, 600u}) {
    for (std::size_t bn : {0u, 1u, 3u, 170u, 400u}) {
      for (int signs = 0; signs < 4; ++signs) {
        for (radix ra : radices) {
          for (radix rb : radices) {
            const auto kind = static_cast<operand_kind>(g() % 3);
            const integer a = random_integer(g, an, signs & 1, ra, kind);
            const integer b = random_integer(g, bn, signs & 2, rb, kind);
            const mpz_class x = to_mpz_class(a), y = to_mpz_class(b);
            const std::string ctx = "an=" + std::to_string(an) + " bn=" + std::to_string(bn) +
                                    " signs=" + std::to_string(signs) + " ra=" + std::to_string(int(ra)) +
                                    " rb=" + std::to_string(int(rb));
            const radix expect_rx = a.size() >= b.size() ? ra : rb;
            const integer sum = a + b, diff = a - b;
            EXPECT_EQ(to_mpz_class(sum), x + y) << ctx;
            EXPECT_EQ(to_mpz_class(diff), x - y) << ctx;
            EXPECT_EQ(sum.get_radix(), expect_rx) << ctx;
            EXPECT_EQ(to_mpz_class(a & b), x & y) << ctx;
            EXPECT_EQ(to_mpz_class(a | b), x | y) << ctx;
            EXPECT_EQ(to_mpz_class(a ^ b), x ^ y) << ctx;
            EXPECT_EQ(to_mpz_class(~a), mpz_class(~x)) << ctx;
            if (b.is_zero()) {
              EXPECT_THROW(a / b, bigmul::error) << ctx;
              EXPECT_THROW(a % b, bigmul::error) << ctx;
              continue;
            }
            const auto [q, r] = divmod(a, b);
            EXPECT_EQ(to_mpz_class(q), tdiv_q(x, y)) << ctx;
            EXPECT_EQ(to_mpz_class(r), tdiv_r(x, y)) << ctx;
            EXPECT_EQ(q.get_radix(), expect_rx) << ctx;
            EXPECT_EQ(to_mpz_class(a / b), tdiv_q(x, y)) << ctx;
            EXPECT_EQ(to_mpz_class(a % b), tdiv_r(x, y)) << ctx;
          }
        }
      }
    }
  }
}

TEST(IntegerOps, ShiftsFloorLikeGmp) {
  auto g = test::rng(402);
  for (std::size_t n : {0u, 1u, 5u, 300u}) {
    for (bool negative : {false, true}) {
      for (radix rx : {radix::binary, radix::decimal}) {
        const integer a = random_integer(g, n, negative, rx);
        const mpz_class x = to_mpz_class(a);
        for (std::size_t bits : {0u, 1u, 63u, 64u, 65u, 200u, 64u * 301}) {
          mpz_class l, r;
          mpz_mul_2exp(l.get_mpz_t(), x.get_mpz_t(), bits);
          mpz_fdiv_q_2exp(r.get_mpz_t(), x.get_mpz_t(), bits);
          const integer la = a << bits, ra = a >> bits;
          EXPECT_EQ(to_mpz_class(la), l) << n << " " << bits;
          EXPECT_EQ(to_mpz_class(ra), r) << n << " " << bits;
          EXPECT_EQ(la.get_radix(), rx);
        }
      }
    }
  }
}

TEST(IntegerOps, BitQueries) {
  auto g = test::rng(403);
  for (bool negative : {false, true}) {
    const integer a = random_integer(g, 4, negative, radix::binary, operand_kind::sparse);
    const mpz_class x = to_mpz_class(a);
    EXPECT_EQ(bit_length(a), mpz_sizeinbase(x.get_mpz_t(), 2));
    EXPECT_EQ(lowest_set_bit(a), mpz_scan1(x.get_mpz_t(), 0));
    for (std::size_t i = 0; i < 64 * 6; i += 7) EXPECT_EQ(test_bit(a, i), mpz_tstbit(x.get_mpz_t(), i) != 0) << i;
    EXPECT_EQ(to_mpz_class(abs(a)), abs(x));
  }
  EXPECT_EQ(bit_length(integer()), 0u);
  EXPECT_THROW(lowest_set_bit(integer()), bigmul::error);
}

TEST(IntegerOps, CompoundAssignmentsAndAliasing) {
  auto g = test::rng(404);
  integer a = random_integer(g, 50, true, radix::binary);
  const integer b = random_integer(g, 20, false, radix::decimal);
  mpz_class x = to_mpz_class(a);
  const mpz_class y = to_mpz_class(b);
  a += b, x += y;
  EXPECT_EQ(to_mpz_class(a), x);
  a -= b, x -= y;
  EXPECT_EQ(to_mpz_class(a), x);
  a *= b, x *= y;
  EXPECT_EQ(to_mpz_class(a), x);
  a /= b, x = tdiv_q(x, y);
  EXPECT_EQ(to_mpz_class(a), x);
  a %= b, x = tdiv_r(x, y);
  EXPECT_EQ(to_mpz_class(a), x);
  a <<= 100, x <<= 100;
  EXPECT_EQ(to_mpz_class(a), x);
  a >>= 37, x >>= 37;
  EXPECT_EQ(to_mpz_class(a), x);
  a &= b, x &= y;
  EXPECT_EQ(to_mpz_class(a), x);
  a |= b, x |= y;
  EXPECT_EQ(to_mpz_class(a), x);
  a ^= b, x ^= y;
  EXPECT_EQ(to_mpz_class(a), x);
  EXPECT_EQ(to_mpz_class(a++), x);
  EXPECT_EQ(to_mpz_class(a), x + 1);
  EXPECT_EQ(to_mpz_class(--a), x);
  // Self-division and remainder.
  integer c = random_integer(g, 30, true, radix::binary);
  integer q, r;
  divmod(q, r, c, c);
  EXPECT_EQ(to_mpz_class(q), 1);
  EXPECT_TRUE(r.is_zero());
  divmod(c, r, c, b);  // q aliases the dividend
  EXPECT_FALSE(c.is_zero() && !r.is_zero());
  c = a;
  c -= c;
  EXPECT_TRUE(c.is_zero());
  EXPECT_FALSE(c.is_negative());
}

TEST(IntegerOps, SmallValueEdgeCases) {
  // Truncation toward zero for every sign pair, like C++ on built-ins.
  for (long long x : {-7LL, -6LL, -1LL, 0LL, 1LL, 6LL, 7LL})
    for (long long y : {-3LL, -1LL, 1LL, 3LL}) {
      EXPECT_EQ(to_mpz_class(integer(x) / integer(y)), mpz_class(std::to_string(x / y))) << x << "/" << y;
      EXPECT_EQ(to_mpz_class(integer(x) % integer(y)), mpz_class(std::to_string(x % y))) << x << "%" << y;
      EXPECT_EQ(to_mpz_class(integer(x) & integer(y)), mpz_class(std::to_string(x & y)));
      EXPECT_EQ(to_mpz_class(integer(x) | integer(y)), mpz_class(std::to_string(x | y)));
      EXPECT_EQ(to_mpz_class(integer(x) ^ integer(y)), mpz_class(std::to_string(x ^ y)));
      EXPECT_EQ(to_mpz_class(integer(x) >> 1), mpz_class(std::to_string(x >> 1)));
    }
  EXPECT_THROW(integer(5) / integer(0), bigmul::error);
  EXPECT_THROW(integer(5) % integer(), bigmul::error);
}
