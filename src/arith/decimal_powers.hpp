// SPDX-License-Identifier: LGPL-3.0-or-later
// The cached table of powers (10^19)^(2^k) used by radix conversion (internal).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// 10^m = 5^m * 2^m with m = 19 * 2^k. Dividing by 10^m is a shift by m bits
// and a division by 5^m, which has about 30% fewer bits than 10^m.
struct decimal_power {
  std::size_t m = 0;               // 19 * 2^k
  std::vector<limb_t> five;        // 5^m in binary, no high zero limbs
  unsigned shift = 0;              // normalization shift of `five`
  std::vector<limb_t> normalized;  // five << shift
};

// Entry k of the table, built on first use (thread-safe). Shared, so that
// bigmul::release_scratch() can drop the table while a conversion on another
// thread still holds the entries it uses.
std::shared_ptr<const decimal_power> decimal_power_at(std::size_t k);

// Drops the table and the cached reciprocals (the hook bigmul::release_scratch()
// calls; registered with the first entry built).
void release_decimal_powers();

// r ~ 2^exponent_bits / 5^m for entry k, with at least min_limbs + 3 limbs
// and a relative error below 5 B^-(min_limbs + 2) (B = 2^64): the root of
// binary -> decimal multiplies by it instead of dividing. It is the Newton
// reciprocal of the top min_limbs + 2 (+1/64) limbs of 5^m (padded with zero limbs
// when 5^m is shorter): only the precision the caller asks for is paid, never
// the entry's whole length. Cached (the widest so far) per entry. Thread-safe.
struct wide_reciprocal {
  std::size_t exponent_bits = 0;
  std::vector<limb_t> r;
};
std::shared_ptr<const wide_reciprocal> decimal_power_wide_reciprocal(std::size_t k, std::size_t min_limbs);

}  // namespace bigmul::detail
