// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched Stockham autosort FFT [STOCKHAM66] of length n = 2^k on interleaved lanes.
//
// Element j of lane l lives at x[j * lanes + l]; all lanes are transformed at
// once, so every pass is a unit-stride loop of length >= lanes that vectorizes
// even when the butterfly span is 1. Radix-4 passes (decimation in frequency),
// with one radix-2 pass at the end when k is odd; ping-pong between x and a
// scratch buffer; output in natural order, unscaled.
#pragma once

#include <cstddef>
#include <vector>

#include "fft/twiddle.hpp"

namespace bigmul::fft {

template <class Real>
class stockham_plan {
 public:
  explicit stockham_plan(std::size_t n = 1);
  std::size_t size() const { return n_; }

  // Transforms x (re, im) using scratch t of the same size (n * lanes each);
  // returns true when the result ended up in t instead of x.
  bool run(Real* xr, Real* xi, Real* tr, Real* ti, std::size_t lanes, bool inverse) const;

 private:
  struct pass {
    std::size_t m;       // butterflies per lane group (n_cur / radix)
    std::size_t s;       // span: product of the radices already applied
    std::size_t tw;      // offset of this pass's twiddles in tw_ (radix-4 with m > 1)
    unsigned radix;      // 4 or 2
  };
  std::size_t n_;
  std::vector<pass> passes_;
  aligned_array<Real> tw_;
};

}  // namespace bigmul::fft
