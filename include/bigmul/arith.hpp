// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief Arithmetic beyond multiplication: limb-level add/sub/compare/shift,
/// division with remainder, radix conversion, and the operators that make
/// bigmul::integer a complete integer type.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "bigmul/config.hpp"
#include "bigmul/error.hpp"
#include "bigmul/integer.hpp"

namespace bigmul {

// ---------------------------------------------------------------------------
// Limb level (GMP's mpn contract: least significant limb first, no sign, the
// caller owns all memory). Binary limbs take every value; decimal limbs are
// < 10^19.

/// r[0..an) = a[0..an) + b[0..bn), an >= bn; returns the carry (0 or 1).
/// r may be a or b (the same address), never a partial overlap.
/// Both operands and r are in radix rx.
limb_t add(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
           radix rx = radix::binary);
/// r[0..an) = a[0..an) - b[0..bn), an >= bn; returns the borrow (0 or 1).
/// r may be a or b (the same address), never a partial overlap.
limb_t sub(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
           radix rx = radix::binary);
/// Compares the values a[0..an) and b[0..bn) (high zero limbs allowed): -1, 0, 1.
int compare(const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn);

/// Binary radix only. r[0..n) = a << bits (0 <= bits < 64); returns the bits
/// shifted out of the top. r may be a, or overlap it at a higher address.
limb_t lshift(limb_t* r, const limb_t* a, std::size_t n, unsigned bits);
/// r[0..n) = a >> bits (0 <= bits < 64); returns the bits shifted out at the
/// bottom, in the high bits of the result. r may be a, or overlap it at a lower address.
limb_t rshift(limb_t* r, const limb_t* a, std::size_t n, unsigned bits);

/// The algorithm of div_qr (binary radix division).
enum class div_algorithm : unsigned char {
  automatic,  ///< by size: basecase below the Newton crossover
  basecase,   ///< Knuth's algorithm D, 2-by-1 steps with a precomputed reciprocal, O(qn dn)
  newton,     ///< blockwise Barrett division by a Newton reciprocal over bigmul::mul
};

/// q[0..an-dn+1) = a / d, r[0..dn) = a mod d. Requires an >= dn >= 1 and
/// d[dn-1] != 0; q and r must not overlap a, d or each other. Throws
/// bigmul::error on a zero divisor or bad sizes.
void div_qr(limb_t* q, limb_t* r, const limb_t* a, std::size_t an, const limb_t* d, std::size_t dn,
            div_algorithm algo = div_algorithm::automatic);
/// q[0..n) = a / d; returns a mod d. d != 0. q may be a.
limb_t divrem_1(limb_t* q, const limb_t* a, std::size_t n, limb_t d);

/// Radix conversion of a magnitude, divide and conquer over cached powers
/// (10^19)^(2^k), schoolbook below the tuned threshold; subquadratic. The
/// results have no high zero limbs. integer::to_radix is this converter.
///@{
std::vector<limb_t> binary_to_decimal(const limb_t* a, std::size_t n);
std::vector<limb_t> decimal_to_binary(const limb_t* a, std::size_t n);
///@}

// ---------------------------------------------------------------------------
// bigmul::integer operators. Mixed radices: the smaller operand is converted
// to the larger one's radix, and the result has that radix. Division,
// shifts and bitwise operations compute in binary; a decimal result is
// converted back.

/// The same value in radix rx: x.to_radix(rx) (one converter; this name is
/// kept for existing callers).
inline integer convert_radix(const integer& x, radix rx) { return x.to_radix(rx); }

/// Sum and difference.
///@{
integer operator+(const integer& a, const integer& b);
integer operator-(const integer& a, const integer& b);
///@}
/// Truncating division (like mpz_tdiv_qr): the quotient rounds toward zero,
/// the remainder has the dividend's sign. A zero divisor throws bigmul::error.
/// divmod returns {a / b, a % b}, or writes them to q and r (which may alias a and b).
///@{
integer operator/(const integer& a, const integer& b);
integer operator%(const integer& a, const integer& b);
std::pair<integer, integer> divmod(const integer& a, const integer& b);
void divmod(integer& q, integer& r, const integer& a, const integer& b);
///@}

/// Shifts by a bit count: << multiplies by 2^bits, >> divides by 2^bits
/// rounding toward minus infinity (an arithmetic shift, like mpz_fdiv_q_2exp).
///@{
integer operator<<(const integer& a, std::size_t bits);
integer operator>>(const integer& a, std::size_t bits);
///@}

/// Two's-complement semantics over an infinite sign extension (like mpz_and,
/// mpz_ior, mpz_xor, mpz_com): ~a == -a - 1.
///@{
integer operator&(const integer& a, const integer& b);
integer operator|(const integer& a, const integer& b);
integer operator^(const integer& a, const integer& b);
integer operator~(const integer& a);
///@}

/// Compound assignment and increments: a op= b is a = a op b.
///@{
integer& operator+=(integer& a, const integer& b);
integer& operator-=(integer& a, const integer& b);
integer& operator/=(integer& a, const integer& b);
integer& operator%=(integer& a, const integer& b);
integer& operator<<=(integer& a, std::size_t bits);
integer& operator>>=(integer& a, std::size_t bits);
integer& operator&=(integer& a, const integer& b);
integer& operator|=(integer& a, const integer& b);
integer& operator^=(integer& a, const integer& b);
integer& operator++(integer& a);
integer& operator--(integer& a);
integer operator++(integer& a, int);
integer operator--(integer& a, int);
///@}

/// |a|
integer abs(const integer& a);
/// Number of significant bits of |a| (0 for zero).
std::size_t bit_length(const integer& a);
/// Index of the lowest set bit of |a|; a must not be zero.
std::size_t lowest_set_bit(const integer& a);
/// Bit `index` of a in two's complement (negative numbers have infinitely many 1s on top).
bool test_bit(const integer& a, std::size_t index);

}  // namespace bigmul
