// SPDX-License-Identifier: LGPL-3.0-or-later
// Toom-3 (mul/toom3.hpp) against GMP's mpz_mul: balanced sizes at and around
// the split points (N mod 3, the smallest N, toom3 and Karatsuba cut-offs
// +-1), several recursion levels, unbalanced shapes (slices of a, a short
// last slice), random, all-maximum (longest carries; a(-1) and b(-1) of
// either sign), runs and sparse operands; and through bigmul::mul at the
// dispatcher's crossover +-1.
#include <gtest/gtest.h>

#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/params_cpu.hpp"
#include "mul/toom3.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;
using bigmul::test::operand_kind;

void check(std::size_t an, std::size_t bn, operand_kind ka, operand_kind kb, std::size_t t3, std::size_t kc,
           std::mt19937_64& g) {
  const auto a = bigmul::test::make_operand(ka, an, radix::binary, g);
  const auto b = bigmul::test::make_operand(kb, bn, radix::binary, g);
  std::vector<limb_t> r(an + bn + 2, 0x3333);
  detail::mul_toom3(r.data() + 1, a.data(), an, b.data(), bn, t3, kc);
  ASSERT_EQ(r[0], 0x3333u);
  ASSERT_EQ(r[an + bn + 1], 0x3333u);
  const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary);
  ASSERT_EQ(std::vector<limb_t>(r.begin() + 1, r.end() - 1), want)
      << "an=" << an << " bn=" << bn << " toom3 from " << t3 << " karatsuba from " << kc << " "
      << bigmul::test::operand_kind_name(ka) << " x " << bigmul::test::operand_kind_name(kb);
}

TEST(Toom3, BalancedEverySplitMatchesGmp) {
  auto g = bigmul::test::rng(2203);
  const operand_kind kinds[] = {operand_kind::random, operand_kind::all_max, operand_kind::runs,
                                operand_kind::sparse, operand_kind::power};
  // Split at every size from the smallest: recursion to the bottom (toom3 from 9, schoolbook below).
  for (std::size_t n = 1; n <= 120; ++n)
    for (operand_kind ka : kinds)
      for (operand_kind kb : {operand_kind::random, operand_kind::all_max}) check(n, n, ka, kb, 9, 1000, g);
  // Karatsuba below, several Toom levels above.
  for (std::size_t n : {200u, 243u, 244u, 245u, 301u, 730u, 1001u})
    for (operand_kind k : kinds) check(n, n, k, k, 12, 24, g);
}

TEST(Toom3, SignsOfTheMinusOneValues) {
  // a(-1) = a0 - a1 + a2 negative (a1 large), positive, zero; the same for b.
  auto g = bigmul::test::rng(2204);
  for (std::size_t N : {9u, 10u, 11u, 30u, 31u, 32u, 100u})
    for (int sa = 0; sa < 3; ++sa)
      for (int sb = 0; sb < 3; ++sb) {
        const std::size_t n = (N + 2) / 3;
        const auto shape = [&](int kind) {
          std::vector<limb_t> v = bigmul::test::make_operand(operand_kind::random, N, radix::binary, g);
          for (std::size_t i = 0; i < N; ++i) {
            const bool mid = i >= n && i < 2 * n;
            if (kind == 0) v[i] = mid ? ~limb_t{0} : 0;  // a(-1) < 0
            if (kind == 1) v[i] = mid ? 0 : ~limb_t{0};  // a(-1) > 0
            if (kind == 2) v[i] = 1;                    // a(-1) = a0 + a2 - a1, small
          }
          v[N - 1] |= 1;
          return v;
        };
        const auto a = shape(sa), b = shape(sb);
        std::vector<limb_t> r(2 * N);
        detail::mul_toom3(r.data(), a.data(), N, b.data(), N, 9, 1000);
        ASSERT_EQ(r, bigmul::test::gmp_product(a.data(), N, b.data(), N, radix::binary))
            << "N=" << N << " shapes " << sa << "," << sb;
      }
}

TEST(Toom3, UnbalancedMatchesGmp) {
  auto g = bigmul::test::rng(2205);
  for (std::size_t bn : {9u, 10u, 17u, 40u, 101u})
    for (std::size_t an : {bn, bn + 1, 2 * bn - 1, 2 * bn, 3 * bn + 5, 7 * bn + 1})
      for (operand_kind k : {operand_kind::random, operand_kind::all_max}) check(an, bn, k, k, 9, 16, g);
  // bn below the Toom cut-off: Karatsuba or the schoolbook on the whole.
  for (std::size_t bn : {1u, 5u, 8u, 20u}) check(300, bn, operand_kind::all_max, operand_kind::random, 30, 10, g);
}

// Through bigmul::mul: the tuned Toom-3 crossover +-1 (where the dispatcher
// uses Toom-3 at all, i.e. below the NTT's), with the modular check on.
TEST(Toom3, DispatcherAroundItsCrossover) {
  auto g = bigmul::test::rng(2206);
  const std::size_t t = detail::params_cpu::binary_radix.toom3;
  for (std::size_t bn : {t - 1, t, t + 1, t + 2})
    for (std::size_t an : {bn, bn + 3, 2 * bn + 1}) {
      const auto a = bigmul::test::make_operand(operand_kind::all_max, an, radix::binary, g);
      const auto b = bigmul::test::make_operand(operand_kind::random, bn, radix::binary, g);
      for (algorithm algo : {algorithm::automatic, algorithm::karatsuba}) {
        std::vector<limb_t> r(an + bn);
        mul_options o;
        o.algo = algo;
        o.modular_check = true;
        mul(r.data(), a.data(), an, b.data(), bn, radix::binary, o);
        ASSERT_EQ(r, bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary))
            << "an=" << an << " bn=" << bn;
      }
    }
}

// toom3 by name: Toom-3 throughout (pieces down to toom3_min_limbs), in
// mul_stats, on every shape; decimal radix refused as a domain error, nothing
// written. Suite name starts with Mul: scripts/test.sh reruns it with the AVX2
// engine, whose NTT crossover leaves the automatic Toom-3 range non-empty.
TEST(MulToom3Named, ByNameMatchesGmpAndIsReported) {
  auto g = bigmul::test::rng(2207);
  algorithm parsed{};
  ASSERT_TRUE(parse_algorithm("toom3", parsed));
  EXPECT_EQ(parsed, algorithm::toom3);
  EXPECT_STREQ(algorithm_name(algorithm::toom3), "toom3");
  for (std::size_t bn : {1u, 8u, 9u, 10u, 26u, 27u, 28u, 100u, 301u})
    for (std::size_t an : {bn, bn + 1, 2 * bn + 5})
      for (operand_kind k : {operand_kind::random, operand_kind::all_max, operand_kind::runs}) {
        const auto a = bigmul::test::make_operand(k, an, radix::binary, g);
        const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, radix::binary, g);
        for (bool square : {false, true}) {
          if (square && an != bn) continue;
          const limb_t* bp = square ? a.data() : b.data();
          std::vector<limb_t> r(an + bn, 0x4444);
          mul_stats st;
          mul_options o;
          o.algo = algorithm::toom3;
          o.stats = &st;
          o.modular_check = true;
          mul(r.data(), a.data(), an, bp, bn, radix::binary, o);
          ASSERT_EQ(r, bigmul::test::gmp_product(a.data(), an, bp, bn, radix::binary))
              << "an=" << an << " bn=" << bn << (square ? " square" : "");
          EXPECT_EQ(st.used, algorithm::toom3) << "an=" << an << " bn=" << bn;
        }
      }
}

TEST(MulToom3Named, DecimalRadixIsRefused) {
  std::vector<limb_t> a(40, 9), r(80, 0x5555);
  mul_options o;
  o.algo = algorithm::toom3;
  try {
    mul(r.data(), a.data(), a.size(), a.data(), a.size(), radix::decimal, o);
    FAIL() << "toom3 accepted decimal limbs";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), error::kind::domain);
    EXPECT_NE(std::string(e.what()).find("toom3"), std::string::npos) << e.what();
  }
  EXPECT_EQ(r, std::vector<limb_t>(80, 0x5555));
}

// automatic reports toom3 exactly where it runs it: from the tuned crossover
// up to the NTT's for this processor's engine (squares: their own).
TEST(MulToom3Named, AutomaticReportsToom3InItsRange) {
  auto g = bigmul::test::rng(2208);
  const auto& x = detail::params_cpu::binary_radix;
  const std::size_t t = x.toom3, ntt = detail::params_cpu::ntt_crossover(x, detail::ntt_default_engine());
  for (std::size_t bn : {t - 1, t, t + 1, ntt - 1, ntt}) {
    const auto a = bigmul::test::make_operand(operand_kind::random, bn + 2, radix::binary, g);
    const auto b = bigmul::test::make_operand(operand_kind::all_max, bn, radix::binary, g);
    std::vector<limb_t> r(2 * bn + 2);
    mul_stats st;
    mul_options o;
    o.stats = &st;
    mul(r.data(), a.data(), bn + 2, b.data(), bn, radix::binary, o);
    ASSERT_EQ(r, bigmul::test::gmp_product(a.data(), bn + 2, b.data(), bn, radix::binary)) << "bn=" << bn;
    const bool toom = bn >= t && bn < ntt && bn < x.fft;
    EXPECT_EQ(st.used == algorithm::toom3, toom) << "bn=" << bn << " used " << algorithm_name(st.used);
  }
}

}  // namespace
