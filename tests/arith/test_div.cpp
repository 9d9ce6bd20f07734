// SPDX-License-Identifier: LGPL-3.0-or-later
// Division with remainder against mpn_tdiv_qr: every algorithm on random and
// adversarial operands.
#include <gtest/gtest.h>

#include <string>

#include "arith_test_util.hpp"

using namespace bigmul;
using test::operand_kind;

namespace {

const char* name(div_algorithm a) {
  switch (a) {
    case div_algorithm::automatic: return "automatic";
    case div_algorithm::basecase: return "basecase";
    case div_algorithm::newton: return "newton";
  }
  return "?";
}

// Divides by bigmul and by GMP; returns "" or a description of the first difference.
std::string check_div(const std::vector<limb_t>& a, const std::vector<limb_t>& d, div_algorithm algo) {
  const std::size_t an = a.size(), dn = d.size();
  std::vector<limb_t> q(an - dn + 1, 0xdeadbeef), r(dn, 0xdeadbeef), gq(an - dn + 1), gr(dn);
  div_qr(q.data(), r.data(), a.data(), an, d.data(), dn, algo);
  mpn_tdiv_qr(reinterpret_cast<mp_ptr>(gq.data()), reinterpret_cast<mp_ptr>(gr.data()), 0,
              reinterpret_cast<mp_srcptr>(a.data()), an, reinterpret_cast<mp_srcptr>(d.data()), dn);
  const std::string where = std::string(" (") + name(algo) + ", an=" + std::to_string(an) + ", dn=" + std::to_string(dn) + ")";
  for (std::size_t i = 0; i < q.size(); ++i)
    if (q[i] != gq[i]) return "quotient limb " + std::to_string(i) + " differs" + where;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (r[i] != gr[i]) return "remainder limb " + std::to_string(i) + " differs" + where;
  return "";
}

constexpr div_algorithm all_algorithms[] = {div_algorithm::basecase, div_algorithm::newton, div_algorithm::automatic};

// a = q * d + r from its parts (r < d), as an limbs.
std::vector<limb_t> compose(const std::vector<limb_t>& q, const std::vector<limb_t>& d, const mpz_class& r) {
  const mpz_class a = test::limbs_to_mpz(q) * test::limbs_to_mpz(d) + r;
  std::vector<limb_t> out(mpz_size(a.get_mpz_t()));
  mpz_export(out.data(), nullptr, -1, sizeof(limb_t), 0, 0, a.get_mpz_t());
  return out;
}

}  // namespace

TEST(Division, RandomSizesEveryAlgorithm) {
  auto g = test::rng(201);
  for (int it = 0; it < 400; ++it) {
    const std::size_t dn = 1 + g() % (it < 300 ? 40 : 400);
    const std::size_t an = dn + g() % (it < 300 ? 60 : 900);
    const auto kind = static_cast<operand_kind>(g() % 3);  // random, all_max, runs
    const auto a = test::operand(kind, an, g);
    auto d = test::operand(static_cast<operand_kind>(g() % 3), dn, g);
    d.back() >>= g() % 64;  // every normalization shift
    if (d.back() == 0) d.back() = 1;
    for (auto algo : all_algorithms) ASSERT_EQ(check_div(a, d, algo), "");
  }
}

TEST(Division, OneLimbDivisor) {
  auto g = test::rng(202);
  for (std::size_t an : {1u, 2u, 3u, 100u, 5000u})
    for (limb_t dv : {limb_t{1}, limb_t{2}, limb_t{3}, limb_t{10}, ~limb_t{0}, limb_t{1} << 63, g() | 1, g() >> 40}) {
      const auto a = test::operand(operand_kind::random, an, g);
      for (auto algo : all_algorithms) ASSERT_EQ(check_div(a, {dv}, algo), "");
      std::vector<limb_t> q(an);
      EXPECT_EQ(divrem_1(q.data(), a.data(), an, dv), mpz_class(test::limbs_to_mpz(a) % dv).get_ui());
    }
}

TEST(Division, DivisorJustBelowDividend) {
  auto g = test::rng(203);
  for (std::size_t dn : {2u, 5u, 64u, 300u, 1500u}) {
    auto d = test::operand(operand_kind::random, dn, g);
    // a = d + 1, a = 2d - 1, a = d (quotient 1, 1, 1 with remainders 1, d-1, 0).
    for (const mpz_class& av : {mpz_class(test::limbs_to_mpz(d) + 1), mpz_class(2 * test::limbs_to_mpz(d) - 1),
                                test::limbs_to_mpz(d)}) {
      std::vector<limb_t> a(mpz_size(av.get_mpz_t()));
      mpz_export(a.data(), nullptr, -1, sizeof(limb_t), 0, 0, av.get_mpz_t());
      if (a.size() < dn) continue;
      for (auto algo : all_algorithms) ASSERT_EQ(check_div(a, d, algo), "");
    }
    // a = B^dn * d - 1: the quotient's top limbs are at their maximum.
    const mpz_class big = (test::limbs_to_mpz(d) << (64 * dn)) - 1;
    std::vector<limb_t> a(mpz_size(big.get_mpz_t()));
    mpz_export(a.data(), nullptr, -1, sizeof(limb_t), 0, 0, big.get_mpz_t());
    for (auto algo : all_algorithms) ASSERT_EQ(check_div(a, d, algo), "");
  }
}

TEST(Division, QuotientWithRunsOfMaximumLimbs) {
  auto g = test::rng(204);
  for (std::size_t dn : {2u, 17u, 160u, 700u}) {
    for (std::size_t qn : {std::size_t{1}, dn / 2 + 1, dn, 2 * dn + 3}) {
      const auto d = test::operand(operand_kind::random, dn, g);
      const auto q = test::operand(operand_kind::all_max, qn, g);
      for (const mpz_class& r : {mpz_class(0), mpz_class(test::limbs_to_mpz(d) - 1), mpz_class(test::limbs_to_mpz(d) / 3)}) {
        const auto a = compose(q, d, r);
        for (auto algo : all_algorithms) ASSERT_EQ(check_div(a, d, algo), "");
      }
    }
  }
}

TEST(Division, AllMaximumAndPowerOperands) {
  auto g = test::rng(205);
  for (std::size_t dn : {1u, 2u, 49u, 200u, 1000u}) {
    for (std::size_t an : {dn, dn + 1, 2 * dn, 3 * dn + 7}) {
      for (auto dk : {operand_kind::all_max, operand_kind::power, operand_kind::one, operand_kind::sparse}) {
        if (dk == operand_kind::one && dn != 1) continue;
        const auto a = test::operand(operand_kind::all_max, an, g);
        auto d = test::operand(dk, dn, g);
        for (auto algo : all_algorithms) ASSERT_EQ(check_div(a, d, algo), "");
        // Divisor of exactly 2^(64 dn - 1): normalized, every lower limb zero.
        d.assign(dn, 0);
        d.back() = limb_t{1} << 63;
        for (auto algo : all_algorithms) ASSERT_EQ(check_div(a, d, algo), "");
      }
    }
  }
}

TEST(Division, LargeOperands) {
  auto g = test::rng(206);
  const std::size_t big = test::heavy() ? 1000000 : 100000;
  struct shape {
    std::size_t an, dn;
  };
  for (const shape s : {shape{big, big / 2}, shape{big / 4, big / 4 - 3}, shape{big / 2, 300}, shape{big / 5, big / 50}}) {
    const auto a = test::operand(operand_kind::random, s.an, g);
    const auto d = test::operand(operand_kind::runs, s.dn, g);
    ASSERT_EQ(check_div(a, d, div_algorithm::automatic), "");
  }
}

TEST(Division, HeavySweep) {
  if (!test::heavy()) GTEST_SKIP() << "set BIGMUL_TEST_HEAVY=1";
  auto g = test::rng(207);
  for (std::size_t dn = 2; dn < 5000; dn += 1 + dn / 7)
    for (std::size_t qn : {std::size_t{1}, dn / 3 + 1, dn, dn + 1, 3 * dn}) {
      const auto a = test::operand(operand_kind::runs, dn + qn - 1, g);
      const auto d = test::operand(operand_kind::runs, dn, g);
      for (auto algo : all_algorithms) ASSERT_EQ(check_div(a, d, algo), "");
    }
}

TEST(Division, RejectsZeroDivisorAndBadSizes) {
  std::vector<limb_t> a{1, 2, 3}, d{0}, q(3), r(1);
  EXPECT_THROW(div_qr(q.data(), r.data(), a.data(), 3, d.data(), 1), bigmul::error);
  EXPECT_THROW(div_qr(q.data(), r.data(), a.data(), 3, d.data(), 0), bigmul::error);
  const std::vector<limb_t> big{1, 2, 3, 4};
  EXPECT_THROW(div_qr(q.data(), r.data(), a.data(), 3, big.data(), 4), bigmul::error);
  EXPECT_THROW(divrem_1(q.data(), a.data(), 3, 0), bigmul::error);
}
