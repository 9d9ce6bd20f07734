// SPDX-License-Identifier: LGPL-3.0-or-later
// The shared entry-point checks (mul/entry_checks.hpp) as the entry points
// other than bigmul::mul reach them: mul_batched names itself and the exact
// limb of the whole batch, check_decimal and check_radix name their caller,
// overlaps sees a shared byte and nothing else.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/entry_checks.hpp"

namespace bigmul {
namespace {

constexpr limb_t top = 9999999999999999999ull;  // 10^19 - 1

std::string invalid_message(const auto& f) {
  try {
    f();
  } catch (const error& e) {
    EXPECT_EQ(e.code(), error::kind::invalid_argument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

// G products of n limbs: the bad limb's index counts over the whole batch,
// inside the AVX2 blocks (64 limbs) and in the tail.
TEST(EntryChecks, BatchedNamesItselfAndTheLimbOfTheBatch) {
  constexpr std::size_t n = 50, G = 3;
  for (const std::size_t at : {std::size_t{0}, std::size_t{63}, std::size_t{64}, std::size_t{127}, n * G - 1})
    for (const bool in_b : {false, true}) {
      std::vector<limb_t> a(n * G, top), b(n * G, top), r(2 * n * G, 0);
      (in_b ? b : a)[at] = top + 1;
      const std::string m = invalid_message([&] { mul_batched(r.data(), a.data(), b.data(), n, G, radix::decimal); });
      const std::string want = std::string("bigmul::mul_batched: operand ") + (in_b ? "b" : "a") + " limb " +
                               std::to_string(at) + " is not a decimal limb";
      EXPECT_EQ(m.rfind(want, 0), 0u) << m;
    }
}

TEST(EntryChecks, CheckDecimalNamesCallerOperandAndFirstBadLimb) {
  for (const std::size_t n : {1u, 64u, 65u, 200u})
    for (const std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      std::vector<limb_t> x(n, top);
      detail::check_decimal(x.data(), n, "who", "x");  // all 10^19 - 1: fine
      x[at] = ~limb_t{0};
      if (at + 1 < n) x[n - 1] = top + 1;  // a later bad limb is not the one named
      const std::string m = invalid_message([&] { detail::check_decimal(x.data(), n, "who", "x"); });
      EXPECT_EQ(m, "who: operand x limb " + std::to_string(at) + " is not a decimal limb (>= 10^19)");
    }
}

TEST(EntryChecks, CheckRadixAndOverlaps) {
  detail::check_radix(radix::binary, "who");
  detail::check_radix(radix::decimal, "who");
  EXPECT_EQ(invalid_message([] { detail::check_radix(static_cast<radix>(2), "who"); }),
            "who: radix 2 is not one of its enumerators");
  limb_t v[8];
  EXPECT_TRUE(detail::overlaps(v, 4, v + 3, 2));
  EXPECT_TRUE(detail::overlaps(v + 3, 2, v, 4));
  EXPECT_FALSE(detail::overlaps(v, 4, v + 4, 4));
  EXPECT_FALSE(detail::overlaps(v + 4, 4, v, 4));
  EXPECT_FALSE(detail::overlaps(v, 0, v, 4));
}

}  // namespace
}  // namespace bigmul
