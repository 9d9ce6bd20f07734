// SPDX-License-Identifier: LGPL-3.0-or-later
// What every public multiplication entry point checks before any work:
// enums inside their enumerations (a value cast from an integer would
// otherwise fall through every switch and leave the result unwritten), sizes
// whose limb and byte counts cannot overflow (an + bn, 2·n·G), a result apart
// from its operands, decimal limbs below 10^19. (Allocation failure becomes
// kind resource through detail::rethrow_allocation_failure.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"

namespace bigmul::detail {

// The most limbs an operand or product may have: its byte count must fit a
// ptrdiff_t (pointer differences, allocation sizes).
inline constexpr std::size_t max_limbs = static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(limb_t);

[[noreturn]] inline void throw_not_enumerator(const char* who, const char* what, unsigned v) {
  throw error(error::kind::invalid_argument,
              std::string(who) + ": " + what + " " + std::to_string(v) + " is not one of its enumerators");
}

inline void check_radix(radix rx, const char* who) {
  if (static_cast<unsigned>(rx) > static_cast<unsigned>(radix::decimal))
    throw_not_enumerator(who, "radix", static_cast<unsigned>(rx));
}

inline void check_enums(const mul_options& o, radix rx, const char* who) {
  const auto bad = [&](const char* what, unsigned v) { throw_not_enumerator(who, what, v); };
  check_radix(rx, who);
  if (static_cast<unsigned>(o.algo) > static_cast<unsigned>(algorithm::toom3))  // the last enumerator
    bad("mul_options::algo", static_cast<unsigned>(o.algo));
  if (static_cast<unsigned>(o.where) > static_cast<unsigned>(backend::cuda))
    bad("mul_options::where", static_cast<unsigned>(o.where));
  if (static_cast<unsigned>(o.engine) > static_cast<unsigned>(fft_engine::cufft))
    bad("mul_options::engine", static_cast<unsigned>(o.engine));
}

// an + bn limbs must be countable and addressable.
inline void check_product_size(std::size_t an, std::size_t bn, const char* who) {
  if (an > max_limbs || bn > max_limbs - an)
    throw error(error::kind::invalid_argument, std::string(who) + ": an + bn = " + std::to_string(an) + " + " +
                                                   std::to_string(bn) + " limbs overflows (at most " +
                                                   std::to_string(max_limbs) + ")");
}

// G products of n x n limbs: 2·n·G result limbs must be countable and addressable.
inline void check_batch_size(std::size_t n, std::size_t G, const char* who) {
  if (n > max_limbs / 2 / G)
    throw error(error::kind::invalid_argument, std::string(who) + ": 2 * n * G = 2 * " + std::to_string(n) + " * " +
                                                   std::to_string(G) + " limbs overflows (at most " +
                                                   std::to_string(max_limbs) + ")");
}

// Whether the limb ranges [x, x + xn) and [y, y + yn) share a byte.
inline bool overlaps(const limb_t* x, std::size_t xn, const limb_t* y, std::size_t yn) {
  const auto xa = reinterpret_cast<std::uintptr_t>(x), ya = reinterpret_cast<std::uintptr_t>(y);
  return xa < ya + yn * sizeof(limb_t) && ya < xa + xn * sizeof(limb_t);
}

// Every limb of operand `which` (n limbs at p) below 10^19, else
// invalid_argument "<who>: operand <which> limb <i> is not a decimal limb"
// naming the first bad limb (mul/entry_checks.cpp: AVX2 blocks).
void check_decimal(const limb_t* p, std::size_t n, const char* who, const char* which);

}  // namespace bigmul::detail
