// SPDX-License-Identifier: LGPL-3.0-or-later
// The binary Karatsuba path (mul/karatsuba.cpp on mul/limb_binary.hpp's
// add/sub loops) against GMP's mpz_mul: recursion down to 4 limbs (every
// odd/even split, a(1)-a(0) of either sign), every size 4-130 at cut-offs 4
// and 9, unbalanced shapes with a short last slice, and the loops themselves
// on every length 0-40 with carries through all limbs.
#include <gtest/gtest.h>

#include <vector>

#include "mul/karatsuba.hpp"
#include "mul/limb_binary.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;
using bigmul::test::operand_kind;

TEST(KaratsubaBinary, EverySizeAndCutMatchesGmp) {
  auto g = bigmul::test::rng(2212);
  const auto check = [&](std::size_t an, std::size_t bn, std::size_t cut, operand_kind ka, operand_kind kb) {
    const auto a = bigmul::test::make_operand(ka, an, radix::binary, g);
    const auto b = bigmul::test::make_operand(kb, bn, radix::binary, g);
    std::vector<limb_t> r(an + bn + 1, 0x4444);
    detail::mul_karatsuba(r.data(), a.data(), an, b.data(), bn, radix::binary, cut);
    ASSERT_EQ(r[an + bn], 0x4444u) << "wrote past the product";
    r.pop_back();
    ASSERT_EQ(r, bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary))
        << "an=" << an << " bn=" << bn << " cut=" << cut << " " << bigmul::test::operand_kind_name(ka) << " x "
        << bigmul::test::operand_kind_name(kb);
  };
  for (std::size_t n = 4; n <= 130; ++n)
    for (std::size_t cut : {4u, 9u})
      for (operand_kind k : {operand_kind::random, operand_kind::all_max, operand_kind::runs, operand_kind::power}) {
        check(n, n, cut, k, k);
        check(n, n, cut, k, operand_kind::random);
      }
  for (std::size_t bn : {4u, 9u, 30u})
    for (std::size_t an : {bn + 1, 2 * bn - 1, 3 * bn + 2, 5 * bn})
      check(an, bn, 4, operand_kind::all_max, operand_kind::all_max);
  check(400, 301, 24, operand_kind::random, operand_kind::random);  // heap scratch (past the stack buffer)
}

TEST(KaratsubaBinary, AddSubLoopsMatchWideArithmetic) {
  auto g = bigmul::test::rng(2213);
  for (std::size_t n = 0; n <= 40; ++n)
    for (int kind = 0; kind < 3; ++kind) {
      std::vector<limb_t> x(n), y(n), s(n), d(n);
      for (std::size_t i = 0; i < n; ++i) {
        x[i] = kind == 0 ? g() : ~limb_t{0};
        y[i] = kind == 0 ? g() : kind == 1 ? (i == 0) : ~limb_t{0};
      }
      const limb_t c = detail::bin::add_n(s.data(), x.data(), y.data(), n);
      const limb_t b = detail::bin::sub_n(d.data(), s.data(), y.data(), n);  // s - y = x - c B^n
      EXPECT_EQ(d, x) << "n=" << n << " kind " << kind;
      EXPECT_EQ(b, c) << "n=" << n << " kind " << kind;
      // Limb by limb with 128-bit sums.
      unsigned __int128 carry = 0;
      for (std::size_t i = 0; i < n; ++i) {
        carry += static_cast<unsigned __int128>(x[i]) + y[i];
        ASSERT_EQ(s[i], static_cast<limb_t>(carry)) << "n=" << n << " limb " << i;
        carry >>= 64;
      }
      EXPECT_EQ(c, static_cast<limb_t>(carry));
      // In place (r aliasing x).
      std::vector<limb_t> z = x;
      EXPECT_EQ(detail::bin::add_n(z.data(), z.data(), y.data(), n), c);
      EXPECT_EQ(z, s);
    }
}

}  // namespace
