// SPDX-License-Identifier: LGPL-3.0-or-later
// Rounding one inverse-FFT output to its integer coefficient, with the
// round-off the exactness guard measures: the per-element arithmetic shared
// by the CPU pipeline (mul/fft_mul.cpp) and the GPU one (mul/cuda), so both
// accept and reject exactly the same values.
#pragma once

#include <cstdint>
#include <limits>

#include "bigmul/hd.hpp"

namespace bigmul::detail {

template <class Real>
struct fft_rounding {
  // Past 2^(mantissa - 3) a value's fraction (its round-off) can no longer be
  // seen, so such a value counts as round-off 0.5: the pass fails.
  static constexpr Real precise_limit =
      static_cast<Real>(std::uint64_t{1} << (std::numeric_limits<Real>::digits - 3));
  // (x + magic) - magic rounds to nearest for |x| < 2^(mantissa - 2).
  static constexpr Real magic = static_cast<Real>(3 * (std::uint64_t{1} << (std::numeric_limits<Real>::digits - 2)));
};

// |x| with a clear sign bit also for -0.0 (-0.0 + 0.0 = +0.0): the GPU reduces
// round-offs as ordered bit patterns, where -0.0 would be the largest.
template <class Real>
BIGMUL_HD Real abs_of(Real x) {
  return x < 0 ? -x : x + Real(0);
}

// Writes round(x) to out and returns |x - round(x)|; a value too large to
// judge (or NaN) returns 0.5 and writes 0.
template <class Real>
BIGMUL_HD Real round_coefficient(Real x, std::int64_t& out) {
  if (!(abs_of(x) <= fft_rounding<Real>::precise_limit)) {  // NaN too
    out = 0;
    return Real(0.5);
  }
  const Real r = (x + fft_rounding<Real>::magic) - fft_rounding<Real>::magic;
  out = static_cast<std::int64_t>(r);
  return abs_of(x - r);
}

}  // namespace bigmul::detail
