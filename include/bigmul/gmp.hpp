// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief Bridge to GMP: bigmul::integer <-> mpz_t, a zero-copy read-only mpz view
/// of an integer, and a drop-in mpz_mul that multiplies through bigmul::mul.
/// Header-only; the including program links GMP. GMP runs under a gmp_guard
/// here (bigmul/gmp_guard.hpp): running out of memory throws bigmul::error
/// kind resource instead of aborting, and an output mpz stays valid (its
/// value unspecified) after any error.
#pragma once

#include <gmp.h>

#include <algorithm>
#include <climits>
#include <new>
#include <cstring>
#include <span>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/gmp_guard.hpp"
#include "bigmul/integer.hpp"
#include "bigmul/mul.hpp"

static_assert(GMP_LIMB_BITS == 64, "bigmul's GMP bridge needs 64-bit GMP limbs");
static_assert(sizeof(mp_limb_t) == sizeof(bigmul::limb_t), "bigmul's GMP bridge needs 64-bit GMP limbs");

namespace bigmul {
namespace detail {

/// Room for n limbs in z before anything is written: mpz_realloc2 assigns
/// z's pointer and size only after a successful reallocation, so a failure
/// leaves z as it was, and the GMP calls that follow need no allocation for z.
inline void mpz_reserve(mpz_ptr z, std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX))  // GMP aborts past this ("overflow in mpz type")
    throw error(error::kind::resource, "bigmul: " + std::to_string(n) + " limbs do not fit an mpz_t");
  if (static_cast<std::size_t>(z->_mp_alloc) < n) mpz_realloc2(z, static_cast<mp_bitcnt_t>(n) * GMP_NUMB_BITS);
}

}  // namespace detail

/// out = x (a decimal-radix x is converted first).
inline void to_mpz(mpz_ptr out, const integer& x) try {
  const gmp_guard guard;
  if (x.is_zero()) {
    mpz_set_ui(out, 0);
    return;
  }
  const integer converted = x.get_radix() == radix::binary ? integer() : convert_radix(x, radix::binary);
  const integer& b = x.get_radix() == radix::binary ? x : converted;
  const auto m = b.magnitude();
  detail::mpz_reserve(out, m.size());
  mp_limb_t* p = mpz_limbs_write(out, static_cast<mp_size_t>(m.size()));
  std::memcpy(p, m.data(), m.size() * sizeof(limb_t));
  const auto n = static_cast<mp_size_t>(m.size());
  mpz_limbs_finish(out, b.is_negative() ? -n : n);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::to_mpz");
}

/// The value of z as a binary-radix integer (one copy of the limbs).
inline integer from_mpz(mpz_srcptr z) try {
  const std::size_t n = mpz_size(z);
  const mp_limb_t* p = mpz_limbs_read(z);
  return integer(std::span<const limb_t>(reinterpret_cast<const limb_t*>(p), n), mpz_sgn(z) < 0, radix::binary);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::from_mpz");
}

/// A read-only mpz over an integer's limbs, without copying them (mpz_roinit_n).
/// A decimal-radix integer is converted once and the view owns the copy. The
/// integer must outlive the view and stay unchanged; never pass the view as
/// a GMP output.
class mpz_view {
 public:
  /// A view of x (converted to binary radix first when it is decimal).
  explicit mpz_view(const integer& x) {
    const integer* src = &x;
    if (x.get_radix() != radix::binary) {
      converted_ = convert_radix(x, radix::binary);
      src = &converted_;
    }
    const auto m = src->magnitude();
    const auto n = static_cast<mp_size_t>(m.size());
    mpz_roinit_n(view_, reinterpret_cast<const mp_limb_t*>(m.data()), src->is_negative() ? -n : n);
  }
  mpz_view(const mpz_view&) = delete;
  mpz_view& operator=(const mpz_view&) = delete;
  /// The mpz, for GMP functions' inputs.
  ///@{
  mpz_srcptr get() const noexcept { return view_; }
  operator mpz_srcptr() const noexcept { return view_; }  // NOLINT: used where GMP takes mpz_srcptr
  ///@}

 private:
  integer converted_;
  mpz_t view_;
};

/// Below this many limbs in the smaller operand, GMP's own mpz_mul is used:
/// the measured crossover of this processor (bigmul::gmp_crossover_limbs()).
inline std::size_t mpz_mul_crossover_limbs() { return gmp_crossover_limbs(); }

/// r = a * b, like GMP's own mpz_mul (r may be a and/or b). Large products go through
/// bigmul::mul on the limbs in place (zero-copy operands); so does every
/// product when options.algo names an algorithm.
inline void mpz_mul(mpz_ptr r, mpz_srcptr a, mpz_srcptr b, const mul_options& options = {}) try {
  const gmp_guard guard;
  std::size_t an = mpz_size(a), bn = mpz_size(b);
  // r's room first (r may be a or b: growing keeps their value), so that no
  // allocation can fail half-way through r; only then read the operands' limbs.
  detail::mpz_reserve(r, an + bn);
  if (std::min(an, bn) == 0 ||
      (options.algo == algorithm::automatic && std::min(an, bn) < mpz_mul_crossover_limbs())) {
    ::mpz_mul(r, a, b);
    return;
  }
  const bool negative = (mpz_sgn(a) < 0) != (mpz_sgn(b) < 0);
  if (an < bn) {
    std::swap(a, b);
    std::swap(an, bn);
  }
  const auto* ap = reinterpret_cast<const limb_t*>(mpz_limbs_read(a));
  const auto* bp = reinterpret_cast<const limb_t*>(mpz_limbs_read(b));
  std::size_t n = an + bn;
  if (r == a || r == b) {
    // The product cannot be written over an operand: multiply into a buffer.
    std::vector<limb_t> out(n);
    bigmul::mul(out.data(), ap, an, bp, bn, radix::binary, options);
    if (out[n - 1] == 0) --n;
    mp_limb_t* rp = mpz_limbs_write(r, static_cast<mp_size_t>(n));
    std::memcpy(rp, out.data(), n * sizeof(limb_t));
  } else {
    auto* rp = reinterpret_cast<limb_t*>(mpz_limbs_write(r, static_cast<mp_size_t>(n)));
    bigmul::mul(rp, ap, an, bp, bn, radix::binary, options);
    if (rp[n - 1] == 0) --n;
  }
  mpz_limbs_finish(r, negative ? -static_cast<mp_size_t>(n) : static_cast<mp_size_t>(n));
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::mpz_mul");
}

}  // namespace bigmul
