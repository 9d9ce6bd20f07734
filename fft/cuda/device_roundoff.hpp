// SPDX-License-Identifier: LGPL-3.0-or-later
// Round-off statistics of the in-house GPU FFT's rounding Store: the max |error|
// is reduced in registers and published through atomicMax on its bits.
#pragma once

#include "bigmul/hd.hpp"

namespace bigmul::fft::cuda::plan {

// The larger error, NaN sticky (fmax would drop a NaN and let a broken pass through).
BIGMUL_HD double worse_error(double a, double b) { return (b > a || b != b) ? b : a; }
// The value whose bits go to atomicMax on unsigned long long: non-negative with a clear
// sign bit (-0.0 has the largest bits of all and would win every max), NaN and
// inf as 1e300 (a huge failing value with ordered bits).
BIGMUL_HD double error_for_atomic_max(double e) {
  if (!(e <= 1e300)) return 1e300;
  return e > 0 ? e : 0.0;
}

}  // namespace bigmul::fft::cuda::plan
