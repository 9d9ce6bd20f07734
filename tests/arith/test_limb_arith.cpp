// SPDX-License-Identifier: LGPL-3.0-or-later
// Limb-level add, sub, compare and shifts against GMP's mpn functions.
#include <gtest/gtest.h>

#include "arith_test_util.hpp"

using namespace bigmul;
using test::operand_kind;

TEST(LimbArith, AddSubBinaryAgainstMpn) {
  auto g = test::rng(101);
  for (std::size_t an : {1u, 2u, 7u, 64u, 1000u}) {
    for (std::size_t bn : {std::size_t{1}, an / 2 + 1, an}) {
      for (auto kind : {operand_kind::random, operand_kind::all_max, operand_kind::runs}) {
        auto a = test::operand(kind, an, g), b = test::operand(kind, bn, g);
        std::vector<limb_t> r(an), ref(an);
        const limb_t c = add(r.data(), a.data(), an, b.data(), bn);
        const mp_limb_t cref = mpn_add(reinterpret_cast<mp_ptr>(ref.data()), reinterpret_cast<mp_srcptr>(a.data()), an,
                                       reinterpret_cast<mp_srcptr>(b.data()), bn);
        EXPECT_EQ(r, ref) << "add an=" << an << " bn=" << bn;
        EXPECT_EQ(c, cref);
        const limb_t br = sub(r.data(), a.data(), an, b.data(), bn);
        const mp_limb_t bref = mpn_sub(reinterpret_cast<mp_ptr>(ref.data()), reinterpret_cast<mp_srcptr>(a.data()), an,
                                       reinterpret_cast<mp_srcptr>(b.data()), bn);
        EXPECT_EQ(r, ref) << "sub an=" << an << " bn=" << bn;
        EXPECT_EQ(br, bref);
        // In place: r = a.
        std::vector<limb_t> in = a;
        add(in.data(), in.data(), an, b.data(), bn);
        mpn_add(reinterpret_cast<mp_ptr>(ref.data()), reinterpret_cast<mp_srcptr>(a.data()), an,
                reinterpret_cast<mp_srcptr>(b.data()), bn);
        EXPECT_EQ(in, ref);
      }
    }
  }
}

TEST(LimbArith, AddSubDecimalAgainstGmp) {
  auto g = test::rng(102);
  for (std::size_t an : {1u, 3u, 50u, 777u}) {
    for (auto kind : {operand_kind::random, operand_kind::all_max, operand_kind::runs}) {
      auto a = test::make_operand(kind, an, radix::decimal, g);
      auto b = test::make_operand(kind, an / 2 + 1, radix::decimal, g);
      std::vector<limb_t> r(an + 1);
      r[an] = add(r.data(), a.data(), an, b.data(), b.size(), radix::decimal);
      const mpz_class sum = test::limbs_to_mpz(a, radix::decimal) + test::limbs_to_mpz(b, radix::decimal);
      EXPECT_EQ(test::compare_with_mpz(r.data(), r.size(), radix::decimal, sum.get_mpz_t()), "");
      std::vector<limb_t> d(an);
      const limb_t borrow = sub(d.data(), a.data(), an, b.data(), b.size(), radix::decimal);
      const mpz_class x = test::limbs_to_mpz(a, radix::decimal), y = test::limbs_to_mpz(b, radix::decimal);
      EXPECT_EQ(borrow, x < y ? 1u : 0u);
      mpz_class modulus;  // 10^(19 an): a borrow wraps around it
      mpz_ui_pow_ui(modulus.get_mpz_t(), 10, 19 * an);
      const mpz_class diff = x < y ? mpz_class(x - y + modulus) : mpz_class(x - y);
      EXPECT_EQ(test::compare_with_mpz(d.data(), d.size(), radix::decimal, diff.get_mpz_t()), "");
    }
  }
}

TEST(LimbArith, CompareIgnoresHighZeros) {
  const std::vector<limb_t> a{5, 7, 0, 0}, b{5, 7}, c{6, 7}, d{~0ull};
  EXPECT_EQ(compare(a.data(), a.size(), b.data(), b.size()), 0);
  EXPECT_EQ(compare(a.data(), a.size(), c.data(), c.size()), -1);
  EXPECT_EQ(compare(c.data(), c.size(), a.data(), a.size()), 1);
  EXPECT_EQ(compare(d.data(), d.size(), a.data(), a.size()), -1);
  EXPECT_EQ(compare(nullptr, 0, a.data(), 0), 0);
}

TEST(LimbArith, ShiftsAgainstMpn) {
  auto g = test::rng(103);
  for (std::size_t n : {1u, 2u, 33u, 500u}) {
    auto a = test::operand(operand_kind::random, n, g);
    for (unsigned bits : {0u, 1u, 13u, 63u}) {
      std::vector<limb_t> r(n), ref(n);
      const limb_t out = lshift(r.data(), a.data(), n, bits);
      if (bits) {
        const mp_limb_t oref = mpn_lshift(reinterpret_cast<mp_ptr>(ref.data()), reinterpret_cast<mp_srcptr>(a.data()), n, bits);
        EXPECT_EQ(out, oref);
        EXPECT_EQ(r, ref);
        const limb_t rout = rshift(r.data(), a.data(), n, bits);
        const mp_limb_t roref = mpn_rshift(reinterpret_cast<mp_ptr>(ref.data()), reinterpret_cast<mp_srcptr>(a.data()), n, bits);
        EXPECT_EQ(rout, roref);
        EXPECT_EQ(r, ref);
      } else {
        EXPECT_EQ(out, 0u);
        EXPECT_EQ(r, a);
      }
      // In place.
      std::vector<limb_t> in = a;
      rshift(in.data(), in.data(), n, bits);
      lshift(in.data(), in.data(), n, bits);
      for (std::size_t i = 1; i < n; ++i) EXPECT_EQ(in[i], a[i]);
    }
  }
}
