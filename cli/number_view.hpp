// SPDX-License-Identifier: LGPL-3.0-or-later
// An operand or the product as the command line holds it: limbs in the
// run's arena or in an integer, with sign and radix; its digit count and its
// one-line description for -v.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "bigmul/integer.hpp"
#include "bigmul/mul.hpp"

namespace bigmul::cli {

// Limbs without high zeros (none for zero).
struct number_view {
  const limb_t* limbs = nullptr;
  std::size_t size = 0;
  bool negative = false;
  radix rx = radix::binary;
  std::span<const limb_t> magnitude() const { return {limbs, size}; }
  bool is_zero() const { return size == 0; }
};

number_view view_of(const integer& x);
integer to_integer(const number_view& v);

// Digits in the number's own radix (decimal digits, or hex digits for binary).
std::uint64_t digit_count(const number_view& x);

// "<digits> decimal digits (<n> limbs, decimal radix)", or hex and binary.
std::string describe(const number_view& x);

}  // namespace bigmul::cli
