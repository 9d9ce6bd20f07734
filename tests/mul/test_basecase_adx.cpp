// SPDX-License-Identifier: LGPL-3.0-or-later
// The MULX/ADX schoolbook rows (mul/basecase_adx.hpp) directly against GMP's
// mpz_mul: every shape an >= bn for an up to 40 (every row remainder mod 4),
// random, all-maximum and runs operands, and a few long rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "mul/basecase_adx.hpp"
#include "test_support.hpp"

namespace {

using namespace bigmul;
using bigmul::test::operand_kind;

TEST(BasecaseAdx, EveryShapeMatchesGmp) {
  if (!detail::basecase_adx_supported()) GTEST_SKIP() << "no BMI2 + ADX on this processor";
  auto g = bigmul::test::rng(1520);
  const auto check = [&](std::size_t an, std::size_t bn, operand_kind ka, operand_kind kb) {
    const auto a = bigmul::test::make_operand(ka, an, radix::binary, g);
    const auto b = bigmul::test::make_operand(kb, bn, radix::binary, g);
    std::vector<limb_t> r(an + bn, 0x5555);
    detail::mul_basecase_adx(r.data(), a.data(), an, b.data(), bn);
    const auto want = bigmul::test::gmp_product(a.data(), an, b.data(), bn, radix::binary);
    ASSERT_EQ(r, want) << "an=" << an << " bn=" << bn << " " << bigmul::test::operand_kind_name(ka) << " x "
                       << bigmul::test::operand_kind_name(kb);
  };
  for (std::size_t an = 1; an <= 40; ++an)
    for (std::size_t bn = 1; bn <= an; ++bn) {
      check(an, bn, operand_kind::random, operand_kind::random);
      check(an, bn, operand_kind::all_max, operand_kind::all_max);
      if (bn % 3 == 0) check(an, bn, operand_kind::runs, operand_kind::all_max);
    }
  for (std::size_t an : {85u, 128u, 173u, 301u})
    for (std::size_t bn : {std::size_t{1}, std::size_t{7}, an}) {
      check(an, bn, operand_kind::random, operand_kind::random);
      check(an, bn, operand_kind::all_max, operand_kind::all_max);
    }
}

}  // namespace
