// SPDX-License-Identifier: LGPL-3.0-or-later
// Real FFT of n = 2^k >= 2 points through a complex FFT of n/2 points.
//
// Packing (in place, split arrays of n/2): re[l] = x[2l], im[l] = x[2l+1]. The
// forward runs the half-length complex FFT Z of z_l = x_{2l} + i x_{2l+1} and
// unpacks, for k = 1..n/2-1 with h = n/2 and w = exp(-2 pi i/n):
//   X_k = 1/2 [(Z_k + conj Z_{h-k}) - i w^k (Z_k - conj Z_{h-k})],
//   X_0 = Re Z_0 + Im Z_0,  X_h = Re Z_0 - Im Z_0.
// Layout of the result: X_k (1 <= k < h) at the complex plan's position_of(k);
// position 0 holds X_0 in re[0] and X_h in im[0] (both real). The inverse
// undoes it (Z'_k = (X_k + conj X_{h-k}) + i conj(w^k) (X_k - conj X_{h-k}) = 2 Z_k),
// runs the half-length inverse and leaves the packed x scaled by n:
// inverse(forward(x)) = n x, so inverse_scale() = 1/n, as for complex_fft.
#pragma once

#include <complex>
#include <cstddef>

#include "fft/fft_complex.hpp"
#include "fft/twiddle.hpp"

namespace bigmul::fft {

template <class Real>
class real_fft {
 public:
  explicit real_fft(std::size_t n);

  std::size_t size() const { return n_; }
  const complex_fft<Real>& half_plan() const { return half_; }

  // In place on the packed arrays re[n/2], im[n/2].
  void forward(Real* re, Real* im, unsigned threads = 0) const;
  // Back to packed x, unscaled (times n).
  void inverse(Real* re, Real* im, unsigned threads = 0) const;
  Real inverse_scale() const { return static_cast<Real>(1.0L / static_cast<long double>(n_)); }

  // Bin-wise products in this layout (position 0 holds two real bins).
  void multiply_spectra(Real* dst_re, Real* dst_im, const Real* src_re, const Real* src_im,
                        Real scale, unsigned threads = 0) const;
  void square_spectrum(Real* re, Real* im, Real scale, unsigned threads = 0) const;

  // Bin k (0 <= k <= n/2) read out of the layout, for tests.
  std::complex<Real> bin(const Real* re, const Real* im, std::size_t k) const;

 private:
  void unpack(Real* re, Real* im, unsigned threads) const;  // after the forward
  void pack(Real* re, Real* im, unsigned threads) const;    // before the inverse

  std::size_t n_, h_;
  complex_fft<Real> half_;
  split_roots<Real> roots_;  // w_n^k = exp(-2 pi i k / n)
};

}  // namespace bigmul::fft
