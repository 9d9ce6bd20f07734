// SPDX-License-Identifier: LGPL-3.0-or-later
// The fixed-size schoolbook kernels (mul/basecase_small.hpp) and the public
// entry point's short path to them, against GMP's mpz_mul: every shape
// 1 <= bn <= an <= basecase_small_max on random, all-maximum, runs, sparse,
// power and zero operands; through bigmul::mul, the shapes just past the
// table and the short path's Karatsuba range, and that the short path still
// refuses what the full entry point refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/basecase.hpp"
#include "mul/basecase_small.hpp"
#include "mul/params_cpu.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;
using bigmul::test::operand_kind;

std::vector<limb_t> operand(operand_kind k, std::size_t n, std::mt19937_64& g, bool zero) {
  auto v = bigmul::test::make_operand(k, n, radix::binary, g);
  if (zero) std::fill(v.begin(), v.end(), limb_t{0});
  return v;
}

TEST(BasecaseSmall, EveryShapeMatchesGmp) {
  auto g = bigmul::test::rng(2201);
  const operand_kind kinds[] = {operand_kind::random, operand_kind::all_max, operand_kind::runs,
                                operand_kind::sparse, operand_kind::power};
  for (std::size_t an = 1; an <= detail::basecase_small_max; ++an)
    for (std::size_t bn = 1; bn <= an; ++bn)
      for (operand_kind ka : kinds)
        for (operand_kind kb : kinds)
          for (int zero = 0; zero < 3; ++zero) {  // 1: a is 0, 2: b is 0
            const auto a = operand(ka, an, g, zero == 1), b = operand(kb, bn, g, zero == 2);
            const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary);
            std::vector<limb_t> r(an + bn + 2, 0x5555);
            ASSERT_NE(detail::basecase_small_kernels.f[an][bn], nullptr);
            detail::mul_basecase_small(r.data() + 1, a.data(), an, b.data(), bn);
            EXPECT_EQ(r[0], 0x5555u) << "wrote below r";
            EXPECT_EQ(r[an + bn + 1], 0x5555u) << "wrote past r + an + bn";
            ASSERT_EQ(std::vector<limb_t>(r.begin() + 1, r.end() - 1), want)
                << "kernel an=" << an << " bn=" << bn << " " << bigmul::test::operand_kind_name(ka) << " x "
                << bigmul::test::operand_kind_name(kb) << " zero=" << zero;
            // The public entry point (its short path for these shapes).
            std::vector<limb_t> p(an + bn, 0x7777);
            mul(p.data(), a.data(), an, b.data(), bn);
            ASSERT_EQ(p, want) << "bigmul::mul an=" << an << " bn=" << bn;
          }
  // No kernel outside 1 <= bn <= an.
  for (std::size_t an = 0; an <= detail::basecase_small_max; ++an) {
    EXPECT_EQ(detail::basecase_small_kernels.f[an][0], nullptr);
    for (std::size_t bn = an + 1; bn <= detail::basecase_small_max; ++bn)
      EXPECT_EQ(detail::basecase_small_kernels.f[an][bn], nullptr);
  }
}

// The balanced kernels past the table (11 .. basecase_balanced_max limbs),
// directly, through the schoolbook entry and through bigmul::mul.
TEST(BasecaseSmall, BalancedKernelsMatchGmp) {
  auto g = bigmul::test::rng(2207);
  const operand_kind kinds[] = {operand_kind::random, operand_kind::all_max, operand_kind::runs,
                                operand_kind::sparse, operand_kind::power};
  for (std::size_t n = 0; n <= detail::basecase_small_max; ++n)
    EXPECT_EQ(detail::basecase_balanced_kernels.f[n], nullptr);
  for (std::size_t n = detail::basecase_small_max + 1; n <= detail::basecase_balanced_max; ++n) {
    ASSERT_NE(detail::basecase_balanced_kernels.f[n], nullptr);
    for (operand_kind ka : kinds)
      for (operand_kind kb : kinds)
        for (int zero = 0; zero < 3; ++zero) {
          const auto a = operand(ka, n, g, zero == 1), b = operand(kb, n, g, zero == 2);
          const auto want = bigmul::test::gmp_product(a.data(), n, b.data(), n, radix::binary);
          std::vector<limb_t> r(2 * n + 2, 0x5555);
          detail::basecase_balanced_kernels.f[n](r.data() + 1, a.data(), b.data());
          EXPECT_EQ(r[0], 0x5555u) << "wrote below r";
          EXPECT_EQ(r[2 * n + 1], 0x5555u) << "wrote past r + 2n";
          ASSERT_EQ(std::vector<limb_t>(r.begin() + 1, r.end() - 1), want) << "kernel n=" << n;
          std::vector<limb_t> p(2 * n);
          detail::mul_basecase(p.data(), a.data(), n, b.data(), n, radix::binary);
          ASSERT_EQ(p, want) << "mul_basecase n=" << n;
          mul(p.data(), a.data(), n, b.data(), n);
          ASSERT_EQ(p, want) << "bigmul::mul n=" << n;
        }
  }
  // Just past the balanced kernels and unbalanced shapes beside them take the rows.
  for (std::size_t an : {detail::basecase_balanced_max, detail::basecase_balanced_max + 1})
    for (std::size_t bn : {an - 1, an}) {
      const auto a = operand(operand_kind::all_max, an, g, false), b = operand(operand_kind::random, bn, g, false);
      std::vector<limb_t> p(an + bn);
      detail::mul_basecase(p.data(), a.data(), an, b.data(), bn, radix::binary);
      ASSERT_EQ(p, bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary)) << an << " x " << bn;
    }
}

// Around the table's edge (10 limbs), through bigmul::mul, unbalanced too,
// with and without options that send the product down the full path.
TEST(BasecaseSmall, PublicEntryAroundTheEdge) {
  auto g = bigmul::test::rng(2202);
  for (std::size_t an : {7u, 8u, 9u, 10u, 11u, 12u, 17u})
    for (std::size_t bn : {std::size_t{1}, std::size_t{2}, std::size_t{8}, std::size_t{10}, std::size_t{11}}) {
      if (bn > an) continue;
      for (operand_kind k : {operand_kind::random, operand_kind::all_max}) {
        const auto a = bigmul::test::make_operand(k, an, radix::binary, g);
        const auto b = bigmul::test::make_operand(k, bn, radix::binary, g);
        const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary);
        for (int variant = 0; variant < 4; ++variant) {
          mul_options o;
          mul_stats st;
          if (variant == 1) o.stats = &st;
          if (variant == 2) o.modular_check = true;
          if (variant == 3) {
            o.algo = algorithm::basecase;
            o.where = backend::cpu;
          }
          std::vector<limb_t> r(an + bn, 0x9999);
          mul(r.data(), a.data(), an, b.data(), bn, radix::binary, o);
          ASSERT_EQ(r, want) << "an=" << an << " bn=" << bn << " variant " << variant;
          if (variant == 1) {
            EXPECT_EQ(st.used, algorithm::basecase);
          }
        }
      }
    }
}

// The short path's Karatsuba range: its ends +-1 (the Karatsuba crossover,
// the smallest NTT crossover), balanced and not, with default options (short
// path) and with statistics (full path, which must report the same choice).
TEST(BasecaseSmall, PublicEntryKaratsubaRange) {
  auto g = bigmul::test::rng(2214);
  const auto& x = detail::params_cpu::binary_radix;
  const std::size_t top = std::min({x.ntt, x.ntt_avx2, x.ntt_portable, x.fft});
  for (std::size_t bn : {x.karatsuba - 1, x.karatsuba, x.karatsuba + 1, top - 1, top, top + 1})
    for (std::size_t an : {bn, bn + 1, 3 * bn + 7}) {
      const auto a = bigmul::test::make_operand(operand_kind::all_max, an, radix::binary, g);
      const auto b = bigmul::test::make_operand(operand_kind::random, bn, radix::binary, g);
      const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary);
      std::vector<limb_t> r(an + bn, 0x1111);
      mul(r.data(), a.data(), an, b.data(), bn);
      ASSERT_EQ(r, want) << "an=" << an << " bn=" << bn;
      mul_options o;
      mul_stats st;
      o.stats = &st;
      std::fill(r.begin(), r.end(), 0x2222);
      mul(r.data(), a.data(), an, b.data(), bn, radix::binary, o);
      ASSERT_EQ(r, want) << "an=" << an << " bn=" << bn << " (full path)";
      if (bn < x.karatsuba) {
        EXPECT_EQ(st.used, algorithm::basecase);
      } else if (bn < top) {
        EXPECT_EQ(st.used, algorithm::karatsuba);
      }
    }
}

// The short path refuses exactly what the full entry point refuses.
TEST(BasecaseSmall, ShortPathStillChecksArguments) {
  std::vector<limb_t> buf(16, 3);
  limb_t* a = buf.data();
  EXPECT_THROW(mul(buf.data() + 1, a, 4, a, 4), error);        // r overlaps a
  EXPECT_THROW(mul(buf.data(), a + 12, 4, a + 4, 2), error);    // r overlaps b only
  EXPECT_THROW(mul(nullptr, a, 2, a, 2), error);
  EXPECT_THROW(mul(buf.data() + 8, nullptr, 2, a, 2), error);
  EXPECT_THROW(mul(buf.data() + 8, a, 2, a, 3), error);        // an < bn
  EXPECT_THROW(mul(buf.data() + 8, a, 2, a, 0), error);        // bn = 0
  mul_options bad;
  bad.engine = static_cast<fft_engine>(7);
  EXPECT_THROW(mul(buf.data() + 8, a, 2, a, 2, radix::binary, bad), error);
  bad = mul_options{};
  bad.where = static_cast<backend>(9);
  EXPECT_THROW(mul(buf.data() + 8, a, 2, a, 2, radix::binary, bad), error);
  // Decimal limbs are still checked (the short path is binary only).
  std::vector<limb_t> d(2, decimal_limb_base), r(4);
  EXPECT_THROW(mul(r.data(), d.data(), 2, d.data(), 2, radix::decimal), error);
  // A decimal product of the same shape is a decimal product.
  std::vector<limb_t> x{decimal_limb_base - 1, 5}, y{decimal_limb_base - 1, 7};
  mul(r.data(), x.data(), 2, y.data(), 2, radix::decimal);
  EXPECT_EQ(r, bigmul::test::gmp_product(x.data(), 2, y.data(), 2, radix::decimal));
}

}  // namespace
