// Bridge to GMP: bigmul::integer <-> mpz_t, a zero-copy read-only mpz view
// of an integer, and a drop-in mpz_mul that multiplies through bigmul::mul.
// Header-only; the including program links GMP.
#pragma once

#include <gmp.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/integer.hpp"
#include "bigmul/mul.hpp"

static_assert(GMP_LIMB_BITS == 64, "bigmul's GMP bridge needs 64-bit GMP limbs");
static_assert(sizeof(mp_limb_t) == sizeof(bigmul::limb_t), "bigmul's GMP bridge needs 64-bit GMP limbs");

namespace bigmul {

// out = x (a decimal-radix x is converted first).
inline void to_mpz(mpz_ptr out, const integer& x) {
  if (x.is_zero()) {
    mpz_set_ui(out, 0);
    return;
  }
  const integer converted = x.get_radix() == radix::binary ? integer() : convert_radix(x, radix::binary);
  const integer& b = x.get_radix() == radix::binary ? x : converted;
  const auto m = b.magnitude();
  mp_limb_t* p = mpz_limbs_write(out, static_cast<mp_size_t>(m.size()));
  std::memcpy(p, m.data(), m.size() * sizeof(limb_t));
  const auto n = static_cast<mp_size_t>(m.size());
  mpz_limbs_finish(out, b.is_negative() ? -n : n);
}

// The value of z as a binary-radix integer (one copy of the limbs).
inline integer from_mpz(mpz_srcptr z) {
  const std::size_t n = mpz_size(z);
  const mp_limb_t* p = mpz_limbs_read(z);
  return integer(std::span<const limb_t>(reinterpret_cast<const limb_t*>(p), n), mpz_sgn(z) < 0, radix::binary);
}

// A read-only mpz over an integer's limbs, without copying them (mpz_roinit_n).
// A decimal-radix integer is converted once and the view owns the copy. The
// integer must outlive the view and stay unchanged; never pass the view as
// a GMP output.
class mpz_view {
 public:
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
  mpz_srcptr get() const noexcept { return view_; }
  operator mpz_srcptr() const noexcept { return view_; }  // NOLINT: used where GMP takes mpz_srcptr

 private:
  integer converted_;
  mpz_t view_;
};

// Below this many limbs in the smaller operand, GMP's own mpz_mul is used:
// the measured crossover of this processor (bigmul::gmp_crossover_limbs()).
inline std::size_t mpz_mul_crossover_limbs() { return gmp_crossover_limbs(); }

// r = a * b, like ::mpz_mul (r may be a and/or b). Large products go through
// bigmul::mul on the limbs in place (zero-copy operands); so does every
// product when options.algo names an algorithm.
inline void mpz_mul(mpz_ptr r, mpz_srcptr a, mpz_srcptr b, const mul_options& options = {}) {
  std::size_t an = mpz_size(a), bn = mpz_size(b);
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
}

}  // namespace bigmul
