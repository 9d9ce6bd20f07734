// SPDX-License-Identifier: LGPL-3.0-or-later
// The GMP bridge: to_mpz / from_mpz / mpz_view round trips and the drop-in
// mpz_mul (every aliasing pattern, both sides of the crossover).
#include <gtest/gtest.h>
#include <gmpxx.h>

#include "bigmul/gmp.hpp"
#include "test_support.hpp"

using namespace bigmul;
using test::operand_kind;

namespace {

mpz_class random_mpz(std::mt19937_64& g, std::size_t n, bool negative, operand_kind kind = operand_kind::random) {
  mpz_class z;
  if (n == 0) return z;
  const auto limbs = test::make_operand(kind, n, radix::binary, g);
  test::to_mpz(z.get_mpz_t(), limbs.data(), n, radix::binary);
  return negative ? mpz_class(-z) : z;
}

}  // namespace

TEST(GmpBridge, RoundTripsBothRadices) {
  auto g = test::rng(501);
  for (std::size_t n : {0u, 1u, 2u, 100u, 3000u}) {
    for (bool negative : {false, true}) {
      const mpz_class z = random_mpz(g, n, negative && n > 0);
      const integer x = from_mpz(z.get_mpz_t());
      EXPECT_EQ(x.get_radix(), radix::binary);
      EXPECT_EQ(x.sign(), mpz_sgn(z.get_mpz_t()));
      mpz_class back;
      to_mpz(back.get_mpz_t(), x);
      EXPECT_EQ(back, z);
      // A decimal-radix integer converts on the way out.
      const integer d = convert_radix(x, radix::decimal);
      to_mpz(back.get_mpz_t(), d);
      EXPECT_EQ(back, z);
      // The view shares the limbs of a binary integer.
      const mpz_view v(x);
      EXPECT_EQ(mpz_cmp(v.get(), z.get_mpz_t()), 0);
      if (n > 0) {
        EXPECT_EQ(static_cast<const void*>(mpz_limbs_read(v.get())), static_cast<const void*>(x.magnitude().data()));
      }
      const mpz_view vd(d);
      EXPECT_EQ(mpz_cmp(vd, z.get_mpz_t()), 0);
    }
  }
}

// Through GMP (automatic, below the crossover) and through bigmul (an
// algorithm named: ntt, the crossover's algorithm with IFMA), aliasing included.
TEST(GmpBridge, MpzMulMatchesGmpWithAliasing) {
  auto g = test::rng(502);
  const std::size_t cross = mpz_mul_crossover_limbs();
  EXPECT_GE(cross, 1u);
  std::vector<std::size_t> sizes = {0, 1, 40, 3000};
  if (cross <= 5000) sizes.insert(sizes.end(), {cross - 1, cross, cross + 1});
  for (bigmul::algorithm algo : {bigmul::algorithm::automatic, bigmul::algorithm::ntt}) {
    bigmul::mul_options opt;
    opt.algo = algo;
    for (std::size_t an : sizes) {
      for (std::size_t bn : {std::size_t{1}, std::size_t{700}, cross <= 5000 ? cross : std::size_t{2000}}) {
        for (int signs = 0; signs < 4; ++signs) {
          const auto kind = static_cast<operand_kind>(g() % 3);
          const mpz_class a = random_mpz(g, an, signs & 1, kind), b = random_mpz(g, bn, signs & 2, kind);
          const mpz_class ref = a * b;
          mpz_class r;
          bigmul::mpz_mul(r.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t(), opt);
          EXPECT_EQ(r, ref) << an << "x" << bn;
          mpz_class x = a;  // r == a
          bigmul::mpz_mul(x.get_mpz_t(), x.get_mpz_t(), b.get_mpz_t(), opt);
          EXPECT_EQ(x, ref);
          mpz_class y = b;  // r == b
          bigmul::mpz_mul(y.get_mpz_t(), a.get_mpz_t(), y.get_mpz_t(), opt);
          EXPECT_EQ(y, ref);
          mpz_class s = a;  // r == a == b
          bigmul::mpz_mul(s.get_mpz_t(), s.get_mpz_t(), s.get_mpz_t(), opt);
          EXPECT_EQ(s, mpz_class(a * a));
        }
      }
    }
  }
}

TEST(GmpBridge, AllMaximumOperands) {
  auto g = test::rng(503);
  const std::size_t n = std::min<std::size_t>(mpz_mul_crossover_limbs(), 20000) + 17;
  const mpz_class a = random_mpz(g, n, false, operand_kind::all_max), b = random_mpz(g, n, true, operand_kind::all_max);
  for (bigmul::algorithm algo : {bigmul::algorithm::automatic, bigmul::algorithm::ntt, bigmul::algorithm::fft_real}) {
    bigmul::mul_options opt;
    opt.algo = algo;
    mpz_class r;
    bigmul::mpz_mul(r.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t(), opt);
    EXPECT_EQ(r, mpz_class(a * b)) << bigmul::algorithm_name(algo);
  }
}
