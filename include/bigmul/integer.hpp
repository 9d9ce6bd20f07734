// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief bigmul::integer: a signed integer of any size (sign + magnitude + radix).
#pragma once

#include <compare>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bigmul/config.hpp"
#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"

// Running out of memory in any function declared here (and in arith.hpp,
// modular.hpp) throws bigmul::error kind resource, never std::bad_alloc.

namespace bigmul {

/// A signed integer of any size: sign, magnitude limbs and the radix they are
/// in (binary, base 2^64, or decimal, base 10^19). Running out of memory in
/// any of its functions (and in arith.hpp's, modular.hpp's) throws
/// bigmul::error kind resource, never std::bad_alloc.
class integer {
 public:
  integer() = default;  ///< zero, binary radix
  /// Copies allocate: declared so that running out of memory is bigmul::error
  /// kind resource, like every other entry point; moves never allocate.
  ///@{
  integer(const integer& o);
  integer& operator=(const integer& o);
  integer(integer&&) noexcept = default;
  integer& operator=(integer&&) noexcept = default;
  ///@}
  /// From a built-in integer (implicit, like mpz_class), binary radix.
  ///@{
  integer(long long v);           // NOLINT(google-explicit-constructor): like mpz_class
  integer(unsigned long long v);  // NOLINT
  integer(int v) : integer(static_cast<long long>(v)) {}            // NOLINT
  integer(unsigned v) : integer(static_cast<unsigned long long>(v)) {}  // NOLINT
  integer(long v) : integer(static_cast<long long>(v)) {}           // NOLINT
  integer(unsigned long v) : integer(static_cast<unsigned long long>(v)) {}  // NOLINT
  ///@}

  /// From magnitude limbs in radix rx (high zero limbs are dropped; decimal
  /// limbs must be < 10^19, else bigmul::error). The vector overload takes the
  /// limbs over without a copy.
  ///@{
  integer(std::span<const limb_t> magnitude, bool negative, radix rx);
  integer(std::vector<limb_t>&& magnitude, bool negative, radix rx);
  ///@}

  /// Parses an integer literal: optional '+' or '-', then decimal digits, or
  /// "0x"/"0X" and hex digits. Leading zeros are decimal, never octal. No
  /// whitespace inside. Decimal literals give radix::decimal, hex ones
  /// radix::binary; both in linear time. Throws bigmul::parse_error whose
  /// offset() is the byte offset of the first bad byte.
  static integer from_string(std::string_view text);

  /// Decimal (base 10) or hex (base 16, lowercase, "0x" prefix unless
  /// prefix == false; "-0x..." when negative). Linear time when the number's
  /// radix matches the base (decimal <-> base 10, binary <-> base 16);
  /// otherwise one radix conversion (to_radix) first.
  std::string to_string(int base = 10, bool prefix = true) const;
  /// The same text without building a std::string: to_string(base,
  /// prefix).size() characters written to out. Throws like to_string.
  ///@{
  std::size_t printed_size(int base = 10, bool prefix = true) const;
  void print(char* out, int base = 10, bool prefix = true) const;
  ///@}

  /// The same value in radix rx (a copy when it already is). Divide and
  /// conquer over cached powers of 10^19 (subquadratic), schoolbook below the
  /// tuned threshold (mul/params_cpu.inc). Every radix change in the library
  /// (printing, comparisons, mixed-radix arithmetic) goes through it.
  integer to_radix(radix rx) const;

  bool is_zero() const noexcept { return limbs_.empty(); }  ///< whether the value is 0
  bool is_negative() const noexcept { return negative_; }   ///< whether the value is below 0 (zero is not negative)
  int sign() const noexcept { return is_zero() ? 0 : (negative_ ? -1 : 1); }  ///< -1, 0 or 1
  radix get_radix() const noexcept { return radix_; }       ///< the radix of the limbs
  std::span<const limb_t> magnitude() const noexcept { return limbs_; }  ///< |value|'s limbs, no high zero limb
  std::size_t size() const noexcept { return limbs_.size(); }  ///< limbs in the magnitude

  /// The negated value (same radix).
  integer operator-() const;

  /// Compares values (radices may differ: sizes decide when they can, else the
  /// smaller operand is converted).
  ///@{
  friend bool operator==(const integer& a, const integer& b);
  friend std::strong_ordering operator<=>(const integer& a, const integer& b);
  ///@}

  /// The product (see the free function mul(integer&, ...) for radices).
  ///@{
  friend integer operator*(const integer& a, const integer& b);
  integer& operator*=(const integer& b);
  ///@}

 private:
  void normalize();  ///< drops high zero limbs; zero is non-negative

  std::vector<limb_t> limbs_;
  bool negative_ = false;
  radix radix_ = radix::binary;

  friend void mul(integer& r, const integer& a, const integer& b, const mul_options& options);
};

/// r = a * b. Safe when r aliases a and/or b. When the radices differ, the
/// smaller operand is converted to the larger one's radix. The product has the
/// operands' radix.
void mul(integer& r, const integer& a, const integer& b, const mul_options& options = {});

}  // namespace bigmul
