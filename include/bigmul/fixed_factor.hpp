// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief Transform once, multiply many: one fixed operand prepared for many
/// products (docs/fixed-factor.md).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "bigmul/config.hpp"
#include "bigmul/integer.hpp"

namespace bigmul {

/// One fixed operand b, prepared once for many products a * b by operands
/// of up to max_an limbs (a matrix-vector product's row, a polynomial's
/// evaluation point, a radix conversion's power).
///
/// Where bigmul::mul would run the NTT for a max_an x bn product, the
/// constructor computes b's forward transforms once, of a length that holds
/// every product of up to max_an + bn limbs without wrapping; each product
/// then transforms only a (and the inverse): two transforms where mul takes
/// three. Smaller products keep a copy of b and call bigmul::mul. A product
/// whose a is so much shorter than max_an that mul's own shorter transform
/// costs less also goes to mul. Products are exact, as mul's: the NTT's
/// coefficients are recovered exactly (Chinese remaindering), no rounding.
///
/// CPU only (the NTT engine bigmul::mul picks: ifma, avx2 or portable,
/// BIGMUL_NTT_ENGINE as for mul). Thread safe: const members may run on
/// several threads at once (each keeps its own scratch, freed by
/// bigmul::release_scratch on that thread). Errors are bigmul::error:
/// invalid_argument for misuse (sizes, radix, null pointers, overlap, a
/// decimal limb >= 10^19, a released object), resource when memory runs out.
class fixed_factor {
 public:
  /// Prepares b[0 .. bn) (radix rx, bn >= 1) for products by operands of
  /// 1 .. max_an limbs (max_an >= 1) in the same radix. threads: 0 for the
  /// library's default (bigmul::prim::default_threads()).
  fixed_factor(const limb_t* b, std::size_t bn, std::size_t max_an, radix rx = radix::binary, unsigned threads = 0);
  /// Prepares |b| (its radix, its sign kept for the products) for operands
  /// of up to max_an limbs in that radix; b must not be 0.
  fixed_factor(const integer& b, std::size_t max_an, unsigned threads = 0);
  ~fixed_factor();                                   ///< frees the transforms
  fixed_factor(fixed_factor&&) noexcept;             ///< takes o's preparation over; o is released
  fixed_factor& operator=(fixed_factor&&) noexcept;  ///< frees this one's, takes o's over
  fixed_factor(const fixed_factor&) = delete;
  fixed_factor& operator=(const fixed_factor&) = delete;

  /// r[0 .. an + bn) = a[0 .. an) * b, 1 <= an <= max_an, both in radix rx,
  /// which must be the prepared radix; r must not overlap a. threads: 0 for
  /// the library's default.
  void mul(limb_t* r, const limb_t* a, std::size_t an, radix rx = radix::binary, unsigned threads = 0) const;
  /// G products of operands of an limbs each, back to back in a (operand g
  /// at a[g an ..)): r[g (an + bn) .. (g + 1)(an + bn)) = operand g * b.
  /// Small transforms run one product per thread, large ones each on all
  /// threads. G = 0 does nothing.
  void mul_batched(limb_t* r, const limb_t* a, std::size_t an, std::size_t G, radix rx = radix::binary,
                   unsigned threads = 0) const;
  /// a * b as an integer (signs multiply; 0 gives 0). An a in the other
  /// radix is converted to the prepared one first (integer::to_radix); its
  /// magnitude must have at most max_an limbs in the prepared radix.
  integer mul(const integer& a, unsigned threads = 0) const;
  /// mul(a) for each a in as, spread over the threads as mul_batched does.
  std::vector<integer> mul(const std::vector<integer>& as, unsigned threads = 0) const;

  /// Frees the prepared transforms now; every later product throws
  /// invalid_argument. Idempotent.
  void release() noexcept;
  /// Whether the object holds a preparation (not released or moved from).
  bool prepared() const noexcept;
  /// The fixed operand's length bn in limbs.
  std::size_t size() const noexcept;
  /// The longest operand prepared for, in limbs.
  std::size_t max_an() const noexcept;
  /// The radix of the fixed operand and of every product.
  radix get_radix() const noexcept;
  /// The transform length in points, 0 where the products go to bigmul::mul.
  std::size_t transform_length() const noexcept;
  /// The heap bytes the preparation holds (transforms, or b's copy).
  std::size_t heap_bytes() const noexcept;

  /// The heap bytes preparing bn limbs for operands of max_an limbs would
  /// hold (what heap_bytes() would give), plus the scratch each thread
  /// running products allocates once (kept until release_scratch): a
  /// caller checks it against free memory before preparing, as
  /// bigmul::mul_heap_bytes before a product. SIZE_MAX beyond the longest
  /// transform.
  static std::size_t heap_bytes(std::size_t bn, std::size_t max_an, radix rx = radix::binary);

 private:
  struct state;
  std::unique_ptr<state> s_;
  const state& checked(const char* who) const;
  static void product(const state& s, limb_t* r, const limb_t* a, std::size_t an, unsigned threads);
  static bool spread(const state& s, std::size_t an);
  static void check_operand(const state& s, const limb_t* a, std::size_t an, std::size_t G, radix rx,
                            const char* who);
};

}  // namespace bigmul
