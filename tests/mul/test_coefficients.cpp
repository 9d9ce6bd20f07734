// SPDX-License-Identifier: LGPL-3.0-or-later
#include <gtest/gtest.h>

#include <vector>

#include "mul/coefficients.hpp"
#include "mul/limb_ops.hpp"
#include "mul/modcheck.hpp"
#include "test_support.hpp"

using namespace bigmul;
using namespace bigmul::detail;
using bigmul::test::operand_kind;

namespace {
std::vector<coeff_format> all_formats() {
  std::vector<coeff_format> v;
  for (unsigned k = 1; k <= 32; ++k) v.push_back({radix::binary, k});
  for (unsigned k = 1; k <= 9; ++k) v.push_back({radix::decimal, k});
  return v;
}
}  // namespace

TEST(Coefficients, SplitJoinRoundTripEveryFormat) {
  auto g = bigmul::test::rng(11);
  for (const coeff_format f : all_formats()) {
    for (std::size_t n : {1u, 2u, 3u, 17u, 40u, 301u}) {
      for (auto kind : {operand_kind::random, operand_kind::all_max, operand_kind::runs}) {
        const auto a = bigmul::test::make_operand(kind, n, f.rx, g);
        std::vector<std::uint32_t> d(f.count(n));
        split_digits(a.data(), n, f, d.data(), 3);
        for (auto x : d) ASSERT_LT(x, f.base());
        std::vector<limb_t> back(n + 1, 12345);
        join_digits(d.data(), d.size(), f, back.data(), n + 1, 2);
        ASSERT_EQ(back[n], 0u) << "digits " << f.digits;
        back.pop_back();
        ASSERT_EQ(back, a) << "format " << (f.rx == radix::binary ? "2^" : "10^") << f.digits << " n=" << n;
      }
    }
  }
}

TEST(Coefficients, BalancedSplitKeepsTheValue) {
  auto g = bigmul::test::rng(12);
  for (const coeff_format f : all_formats()) {
    if (f.digits > 24) continue;
    for (std::size_t n : {1u, 5u, 70u, 2000u}) {
      for (auto kind : {operand_kind::random, operand_kind::all_max, operand_kind::half_max, operand_kind::runs}) {
        const auto a = bigmul::test::make_operand(kind, n, f.rx, g);
        std::vector<std::int64_t> c(f.count(n) + 1, 99);
        split_balanced(a.data(), n, f, [&](std::size_t i, std::int64_t v) { c[i] = v; }, 3);
        const std::int64_t half = static_cast<std::int64_t>(f.base() / 2);
        for (std::size_t i = 0; i + 1 < c.size(); ++i) {
          ASSERT_GE(c[i], -half);
          ASSERT_LT(c[i], half);
        }
        // Value check through GMP: sum c_i B^i.
        mpz_t want, got, t, bpow;
        mpz_inits(want, got, t, bpow, nullptr);
        bigmul::test::to_mpz(want, a.data(), n, f.rx);
        mpz_set_ui(bpow, 1);
        for (std::size_t i = 0; i < c.size(); ++i) {
          mpz_set_si(t, c[i]);
          mpz_mul(t, t, bpow);
          mpz_add(got, got, t);
          mpz_mul_ui(bpow, bpow, f.base());
        }
        EXPECT_EQ(mpz_cmp(want, got), 0) << "digits " << f.digits << " n=" << n << " "
                                         << bigmul::test::operand_kind_name(kind);
        mpz_clears(want, got, t, bpow, nullptr);
      }
    }
  }
}

// Wide binary coefficients (k = 25..32), where digit + carry reaches 2^32 on
// all-maximum limbs: the balanced value must still be exact.
TEST(Coefficients, BalancedSplitWideBinaryDigits) {
  auto g = bigmul::test::rng(15);
  for (unsigned k = 25; k <= 32; ++k) {
    const coeff_format f{radix::binary, k};
    for (std::size_t n : {1u, 3u, 33u}) {
      for (auto kind : {operand_kind::all_max, operand_kind::random, operand_kind::runs}) {
        const auto a = bigmul::test::make_operand(kind, n, f.rx, g);
        std::vector<std::int64_t> c(f.count(n) + 1, 99);
        split_balanced(a.data(), n, f, [&](std::size_t i, std::int64_t v) { c[i] = v; }, 2);
        const std::int64_t half = static_cast<std::int64_t>(f.base() / 2);
        for (std::size_t i = 0; i + 1 < c.size(); ++i) {
          ASSERT_GE(c[i], -half);
          ASSERT_LT(c[i], half);
        }
        mpz_t want, got, t;
        mpz_inits(want, got, t, nullptr);
        bigmul::test::to_mpz(want, a.data(), n, f.rx);
        for (std::size_t i = c.size(); i-- > 0;) {
          mpz_mul_2exp(got, got, k);
          mpz_set_si(t, c[i]);
          mpz_add(got, got, t);
        }
        EXPECT_EQ(mpz_cmp(want, got), 0) << "k " << k << " n=" << n << " " << bigmul::test::operand_kind_name(kind);
        mpz_clears(want, got, t, nullptr);
      }
    }
  }
}

TEST(ModCheck, ResidueMatchesGmp) {
  auto g = bigmul::test::rng(13);
  // Sizes around the four interleaved Horner chains (n mod 4) and the chunks; all-max limbs: the largest folds.
  for (radix rx : {radix::binary, radix::decimal})
    for (operand_kind kind : {operand_kind::random, operand_kind::all_max})
      for (std::size_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 1000u, 1001u, 1002u, 1003u, 200000u, 200003u}) {
        const auto a = bigmul::test::make_operand(kind, n, rx, g);
        mpz_t x;
        mpz_init(x);
        bigmul::test::to_mpz(x, a.data(), n, rx);
        mpz_t p;
        mpz_init_set_ui(p, 1);
        mpz_mul_2exp(p, p, 61);
        mpz_sub_ui(p, p, 1);
        mpz_mod(x, x, p);
        EXPECT_EQ(residue_mod_p(a.data(), n, rx, 1), mpz_get_ui(x));
        EXPECT_EQ(residue_mod_p(a.data(), n, rx, 3), mpz_get_ui(x));
        mpz_clears(x, p, nullptr);
      }
}

TEST(LimbOps, DivBy1e19MatchesHardwareDivision) {
  auto g = bigmul::test::rng(14);
  for (int i = 0; i < 200000; ++i) {
    const limb_t hi = g() % decimal_limb_base, lo = i % 3 == 0 ? ~limb_t{0} : g();
    const u128 t = (static_cast<u128>(hi) << 64) | lo;
    const auto qr = div_1e19(t);
    ASSERT_EQ(qr.q, static_cast<limb_t>(t / decimal_limb_base));
    ASSERT_EQ(qr.r, static_cast<limb_t>(t % decimal_limb_base));
  }
  const u128 top = (static_cast<u128>(decimal_limb_base - 1) << 64) | ~limb_t{0};
  EXPECT_EQ(div_1e19(top).q, static_cast<limb_t>(top / decimal_limb_base));
}
