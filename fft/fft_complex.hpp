// SPDX-License-Identifier: LGPL-3.0-or-later
// Complex FFT of length n = 2^k on split (SoA) arrays, for double and float.
//
// Shapes, chosen by size so that every pass works in cache:
//  - n < 64: one batched Stockham transform (radix 4, one radix-2 pass when k is odd);
//  - n <= 2^12: in-cache six-step, n = a*b: b-point Stockham FFTs across a interleaved
//    columns, transpose with twiddle into scratch, a-point FFTs across b columns;
//    output in natural order;
//  - larger: four-step [BAILEY90], n = n1*n2: blocks of columns are gathered into a small
//    contiguous buffer, transformed by a batched n2-point Stockham FFT, multiplied by
//    the twiddles and written back; then every row (contiguous, n1 points) is
//    transformed by a sub-plan (recursively four-step when n1 is still large). No
//    final transpose: the spectrum stays in "plan order" (frequency_at / position_of).
// Forward uses exp(-2 pi i jk/n); inverse exp(+2 pi i jk/n), takes plan order and
// returns natural order, unscaled (inverse(forward(x)) = n x).
// Multithreaded over column blocks and rows; each task's arithmetic is fixed by the
// plan alone, so the output is bit-identical for every thread count.
#pragma once

#include <cstddef>
#include <memory>

#include "fft/stockham.hpp"
#include "fft/twiddle.hpp"

namespace bigmul::fft {

template <class Real>
class complex_fft {
 public:
  explicit complex_fft(std::size_t n) : complex_fft(n, 0) {}
  ~complex_fft();
  complex_fft(complex_fft&&) noexcept;
  complex_fft& operator=(complex_fft&&) noexcept;
  complex_fft(const complex_fft&) = delete;
  complex_fft& operator=(const complex_fft&) = delete;

  std::size_t size() const { return n_; }

  // In place on re[n], im[n]: natural order in, plan order out.
  void forward(Real* re, Real* im, unsigned threads = 0) const;
  // In place: plan order in, natural order out, unscaled (times n).
  void inverse(Real* re, Real* im, unsigned threads = 0) const;
  // 1/n: the scale that makes inverse(forward(x)) == x.
  Real inverse_scale() const { return static_cast<Real>(1.0L / static_cast<long double>(n_)); }

  // Frequency index held at storage position pos after forward(), and its inverse.
  std::size_t frequency_at(std::size_t pos) const;
  std::size_t position_of(std::size_t freq) const;

  // dst[i] = dst[i] * src[i] * scale for every bin (complex products); the order of the
  // bins does not matter, so this works on plan order directly.
  void multiply_spectra(Real* dst_re, Real* dst_im, const Real* src_re, const Real* src_im,
                        Real scale, unsigned threads = 0) const;
  void square_spectrum(Real* re, Real* im, Real scale, unsigned threads = 0) const;

  // Row length n1 of the four-step shape (n for the small shapes): position r*n1 + c
  // holds frequency r + (n/n1) * row_plan.frequency_at(c). The real FFT uses it to
  // split its twiddle table along the plan order.
  std::size_t row_length() const { return shape_ == shape::four_step ? n1_ : n_; }

 private:
  enum class shape { direct, six_step, four_step };
  complex_fft(std::size_t n, unsigned depth);  // depth: nesting as a row sub-plan
  void run_serial(Real* re, Real* im, bool inverse) const;  // direct and six-step
  void run_four_step(Real* re, Real* im, bool inverse, unsigned threads) const;
  void column_block(Real* re, Real* im, std::size_t c, bool inverse) const;

  std::size_t n_ = 1;
  unsigned log2n_ = 0;
  unsigned depth_ = 0;
  shape shape_ = shape::direct;
  // six-step: stage 1 is b_-point FFTs over a_ lanes, stage 2 a_-point over b_ lanes.
  std::size_t a_ = 1, b_ = 1;
  stockham_plan<Real> first_, second_;
  aligned_array<Real> tw_re_, tw_im_;  // w_n^{j1 k2} at [j1 * b + k2]
  // four-step: n2_ rows of n1_ elements; column blocks of lanes_ columns.
  std::size_t n1_ = 1, n2_ = 1, lanes_ = 1;
  unsigned log2n2_ = 0;
  std::unique_ptr<complex_fft> rows_;
  split_roots<Real> roots_;                // w_n^e, for the per-row base w_n^{c r}
  aligned_array<Real> step_re_, step_im_;  // w_n^{l r} at [r * lanes + l]
};

}  // namespace bigmul::fft
