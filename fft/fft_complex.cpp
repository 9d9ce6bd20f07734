// SPDX-License-Identifier: LGPL-3.0-or-later
#include "fft/fft_complex.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

#include "fft/kernels.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

// Sizes (in points) that decide the shape; see the header.
constexpr unsigned direct_max_log2 = 5;     // n < 64: plain Stockham
constexpr unsigned six_step_max_log2 = 12;  // n <= 4096: in-cache six-step
constexpr unsigned column_max_log2 = 10;    // four-step column FFT length cap

// Columns per four-step block: two 64-byte cache lines of each row (the adjacent-line
// prefetcher then fetches whole 128-byte pairs).
template <class Real>
constexpr std::size_t column_lanes = 128 / sizeof(Real);

// Per-thread scratch, grown on demand and kept for the thread's lifetime so
// repeated transforms do not allocate. Separate slots for the four-step column
// blocks and for the small transforms (a row transform runs while no column
// block is active on that thread, but a sub-plan's column block may run inside a
// parent's row task, so the slots must differ).
template <class Real>
struct workspace {
  aligned_array<Real> buf[4];
  Real* get(int i, std::size_t n) {
    if (buf[i].size < n) buf[i].resize(n);
    return buf[i].get();
  }
};
template <class Real>
workspace<Real>& small_workspace() {
  thread_local workspace<Real> w;
  return w;
}
template <class Real>
workspace<Real>& column_workspace(unsigned depth) {
  // One slot per recursion depth of the four-step (a row sub-plan may be four-step);
  // n <= 2^40 needs at most 3 levels.
  thread_local workspace<Real> w[4];
  return w[depth];
}

}  // namespace

template <class Real>
complex_fft<Real>::complex_fft(std::size_t n, unsigned depth) : n_(n), depth_(depth) {
  if (n == 0 || !std::has_single_bit(n) || n > (std::size_t{1} << 40))
    throw std::invalid_argument("complex_fft: length must be a power of two, got " +
                                std::to_string(n));
  log2n_ = static_cast<unsigned>(std::countr_zero(n));
  if (log2n_ <= direct_max_log2) {
    shape_ = shape::direct;
    first_ = stockham_plan<Real>(n);
  } else if (log2n_ <= six_step_max_log2) {
    shape_ = shape::six_step;
    // Prefer two even exponents (radix-4 passes only, no radix-2 pass) when k is even.
    unsigned la = log2n_ / 2;
    if (log2n_ % 2 == 0 && la % 2 == 1) --la;
    a_ = std::size_t{1} << la;
    b_ = n / a_;
    first_ = stockham_plan<Real>(b_);
    second_ = stockham_plan<Real>(a_);
    tw_re_.resize(n);
    tw_im_.resize(n);
    for (std::size_t j1 = 0; j1 < a_; ++j1) {
      for (std::size_t k2 = 0; k2 < b_; ++k2) {
        const root_ld r = unit_root(static_cast<std::uint64_t>(j1) * k2, n);
        tw_re_[j1 * b_ + k2] = static_cast<Real>(r.re);
        tw_im_[j1 * b_ + k2] = static_cast<Real>(r.im);
      }
    }
  } else {
    shape_ = shape::four_step;
    log2n2_ = std::min(log2n_ / 2, column_max_log2);
    if (log2n2_ % 2 == 1) --log2n2_;  // even: the column FFT has no radix-2 pass
    n2_ = std::size_t{1} << log2n2_;
    n1_ = n / n2_;
    lanes_ = std::min(column_lanes<Real>, n1_);
    first_ = stockham_plan<Real>(n2_);
    rows_.reset(new complex_fft(n1_, depth + 1));
    roots_ = split_roots<Real>(n, (log2n_ + 1) / 2);
    step_re_.resize(n2_ * lanes_);
    step_im_.resize(n2_ * lanes_);
    for (std::size_t r = 0; r < n2_; ++r) {
      for (std::size_t l = 0; l < lanes_; ++l) {
        const root_ld w = unit_root(static_cast<std::uint64_t>(l) * r, n);
        step_re_[r * lanes_ + l] = static_cast<Real>(w.re);
        step_im_[r * lanes_ + l] = static_cast<Real>(w.im);
      }
    }
  }
}

template <class Real>
complex_fft<Real>::~complex_fft() = default;
template <class Real>
complex_fft<Real>::complex_fft(complex_fft&&) noexcept = default;
template <class Real>
complex_fft<Real>& complex_fft<Real>::operator=(complex_fft&&) noexcept = default;

template <class Real>
void complex_fft<Real>::run_serial(Real* re, Real* im, bool inverse) const {
  workspace<Real>& ws = small_workspace<Real>();
  Real* sr = ws.get(0, n_);
  Real* si = ws.get(1, n_);
  if (shape_ == shape::direct) {
    if (first_.run(re, im, sr, si, 1, inverse)) {
      std::memcpy(re, sr, n_ * sizeof(Real));
      std::memcpy(im, si, n_ * sizeof(Real));
    }
    return;
  }
  // Six-step: b-point FFTs down the a columns (in place, lanes = a) ...
  Real* xr = re;
  Real* xi = im;
  Real* yr = sr;
  Real* yi = si;
  if (first_.run(xr, xi, yr, yi, a_, inverse)) {
    std::swap(xr, yr);
    std::swap(xi, yi);
  }
  // ... transpose with twiddle: y[j1*b + k2] = x[k2*a + j1] * w^{j1 k2} ...
  kernels::transpose_twiddle(xr, xi, yr, yi, b_, a_, tw_re_.get(), tw_im_.get(), inverse);
  // ... a-point FFTs across the b lanes: position k1*b + k2 holds X[k2 + b k1].
  if (second_.run(yr, yi, xr, xi, b_, inverse)) {
    std::swap(xr, yr);
    std::swap(xi, yi);
  }
  if (yr != re) {
    std::memcpy(re, yr, n_ * sizeof(Real));
    std::memcpy(im, yi, n_ * sizeof(Real));
  }
}

template <class Real>
void complex_fft<Real>::column_block(Real* re, Real* im, std::size_t c, bool inverse) const {
  // A row sub-plan never shares a slot with its parent's column blocks.
  workspace<Real>& ws = column_workspace<Real>(depth_);
  const std::size_t len = n2_ * lanes_;
  Real* br = ws.get(0, len);
  Real* bi = ws.get(1, len);
  Real* tr = ws.get(2, len);
  Real* ti = ws.get(3, len);
  const auto& w = roots_;
  // Forward: plain gather, FFT, scatter with twiddle. Inverse: gather with
  // conjugate twiddle, FFT, plain scatter.
  kernels::gather_columns(re, im, br, bi, n2_, n1_, c, lanes_, w.lo_re.get(), w.lo_im.get(),
                          w.hi_re.get(), w.hi_im.get(), w.shift, w.mask, step_re_.get(),
                          step_im_.get(), inverse);
  if (first_.run(br, bi, tr, ti, lanes_, inverse)) {
    std::swap(br, tr);
    std::swap(bi, ti);
  }
  kernels::scatter_columns(br, bi, re, im, n2_, n1_, c, lanes_, w.lo_re.get(), w.lo_im.get(),
                           w.hi_re.get(), w.hi_im.get(), w.shift, w.mask, step_re_.get(),
                           step_im_.get(), !inverse);
}

template <class Real>
void complex_fft<Real>::run_four_step(Real* re, Real* im, bool inverse, unsigned threads) const {
  const std::size_t blocks = n1_ / lanes_;
  auto columns = [&] {
    prim::parallel_for(blocks, threads,
                       [&](std::size_t b) { column_block(re, im, b * lanes_, inverse); });
  };
  auto rows = [&] {
    const std::size_t grain = std::max<std::size_t>(1, (std::size_t{1} << 14) / n1_);
    prim::parallel_chunks(n2_, grain, threads, [&](std::size_t r0, std::size_t r1) {
      for (std::size_t r = r0; r < r1; ++r) {
        if (inverse)
          rows_->inverse(re + r * n1_, im + r * n1_, 1);
        else
          rows_->forward(re + r * n1_, im + r * n1_, 1);
      }
    });
  };
  if (inverse) {
    rows();
    columns();
  } else {
    columns();
    rows();
  }
}

template <class Real>
void complex_fft<Real>::forward(Real* re, Real* im, unsigned threads) const {
  if (shape_ == shape::four_step)
    run_four_step(re, im, false, threads);
  else
    run_serial(re, im, false);
}

template <class Real>
void complex_fft<Real>::inverse(Real* re, Real* im, unsigned threads) const {
  if (shape_ == shape::four_step)
    run_four_step(re, im, true, threads);
  else
    run_serial(re, im, true);
}

template <class Real>
std::size_t complex_fft<Real>::frequency_at(std::size_t pos) const {
  if (shape_ != shape::four_step) return pos;
  const std::size_t r = pos >> (log2n_ - log2n2_), c = pos & (n1_ - 1);
  return r + (rows_->frequency_at(c) << log2n2_);
}

template <class Real>
std::size_t complex_fft<Real>::position_of(std::size_t freq) const {
  if (shape_ != shape::four_step) return freq;
  const std::size_t r = freq & (n2_ - 1), k1 = freq >> log2n2_;
  return (r << (log2n_ - log2n2_)) + rows_->position_of(k1);
}

template <class Real>
void complex_fft<Real>::multiply_spectra(Real* dst_re, Real* dst_im, const Real* src_re,
                                         const Real* src_im, Real scale, unsigned threads) const {
  prim::parallel_chunks(n_, std::size_t{1} << 15, threads, [&](std::size_t b, std::size_t e) {
    kernels::multiply_pointwise(dst_re + b, dst_im + b, src_re + b, src_im + b, scale, e - b);
  });
}

template <class Real>
void complex_fft<Real>::square_spectrum(Real* re, Real* im, Real scale, unsigned threads) const {
  prim::parallel_chunks(n_, std::size_t{1} << 15, threads, [&](std::size_t b, std::size_t e) {
    kernels::square_pointwise(re + b, im + b, scale, e - b);
  });
}

template class complex_fft<double>;
template class complex_fft<float>;

}  // namespace bigmul::fft
