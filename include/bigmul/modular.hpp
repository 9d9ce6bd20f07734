// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief Modular arithmetic for an odd modulus by Montgomery's method: products,
/// squares and powers of bigmul::integer, one at a time or batched (G moduli,
/// or one modulus with G operands). Batches run eight operations per AVX-512
/// IFMA vector where the processor has it (one operation per 64-bit lane),
/// else one at a time on 64-bit limbs; both spread over the threads.
///
/// Arguments: the modulus must be odd and positive; factors and bases must lie
/// in [0, m); exponents must be >= 0. Anything else throws bigmul::error (never
/// a wrong answer). Results are in [0, m), in the modulus's radix.
///
/// Constant time (mod_pow_sec): no branch and no memory address depends on the
/// base's or the exponent's value, nor on the result; the fixed window reads
/// every table entry and selects by mask. Run time depends on public sizes
/// only: the modulus's limb count (batched: the largest in each group of eight),
/// the exponent's limb count (64 bits processed per limb; batched: the largest
/// in each group of eight), as in OpenSSL's BN_mod_exp_mont_consttime, and the
/// base's limb count (copied in). bigmul::integer drops high zero limbs, so
/// these limb counts are the values' sizes rounded up to 64 bits: pass
/// exponents of a fixed public size (e.g. a private exponent below m) if even
/// that must not show.
/// Not constant time: the argument checks (they compare with the modulus and
/// throw), conversions from decimal radix, memory allocation, and mod_pow,
/// mod_mul and mod_sqr of a lone operation (sliding window / data-dependent
/// sizes are fine there: use mod_pow_sec for secrets). The modulus itself is
/// treated as public (its inverse and R^2 mod m come from divisions).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "bigmul/integer.hpp"

namespace bigmul {

namespace detail {
struct montgomery_state;
}

/// The reusable context for one odd modulus m > 0: -m^-1 mod 2^64, R^2 mod m
/// and R mod m (R = 2^(64 n) for n limbs). Cheap to copy (shared, immutable).
class montgomery_context {
 public:
  explicit montgomery_context(const integer& modulus);  ///< throws for m <= 0 or even m

  /// The modulus m.
  const integer& modulus() const noexcept;

  integer mod_mul(const integer& a, const integer& b) const;  ///< a b mod m
  integer mod_sqr(const integer& a) const;                    ///< a^2 mod m
  integer mod_pow(const integer& base, const integer& exponent) const;      ///< sliding window
  integer mod_pow_sec(const integer& base, const integer& exponent) const;  ///< fixed window, constant time

  /// Batched over this modulus: element g of the result is the operation on
  /// element g of the inputs (spans of equal length G >= 0). threads = 0:
  /// bigmul's default thread count.
  ///@{
  std::vector<integer> mod_mul(std::span<const integer> a, std::span<const integer> b, unsigned threads = 0) const;
  std::vector<integer> mod_sqr(std::span<const integer> a, unsigned threads = 0) const;
  std::vector<integer> mod_pow(std::span<const integer> bases, std::span<const integer> exponents,
                               unsigned threads = 0) const;
  std::vector<integer> mod_pow_sec(std::span<const integer> bases, std::span<const integer> exponents,
                                   unsigned threads = 0) const;
  ///@}

 private:
  std::shared_ptr<const detail::montgomery_state> s_;
};

/// One operation modulo m (a context built for it; reuse a montgomery_context for many).
/// a b mod m, a^2 mod m, base^exponent mod m (sliding window) and the same in
/// constant time (fixed window); arguments as for montgomery_context.
///@{
integer mod_mul(const integer& a, const integer& b, const integer& m);
integer mod_sqr(const integer& a, const integer& m);
integer mod_pow(const integer& base, const integer& exponent, const integer& m);
integer mod_pow_sec(const integer& base, const integer& exponent, const integer& m);
///@}

/// Batched over G moduli: moduli.size() is G (one modulus per operation) or 1
/// (the same modulus for all). threads = 0: bigmul's default thread count.
/// Element g of the result is the operation on element g of the inputs.
///@{
std::vector<integer> mod_mul_batched(std::span<const integer> a, std::span<const integer> b,
                                     std::span<const integer> moduli, unsigned threads = 0);
std::vector<integer> mod_sqr_batched(std::span<const integer> a, std::span<const integer> moduli,
                                     unsigned threads = 0);
std::vector<integer> mod_pow_batched(std::span<const integer> bases, std::span<const integer> exponents,
                                     std::span<const integer> moduli, unsigned threads = 0);
std::vector<integer> mod_pow_sec_batched(std::span<const integer> bases, std::span<const integer> exponents,
                                         std::span<const integer> moduli, unsigned threads = 0);
///@}

}  // namespace bigmul
