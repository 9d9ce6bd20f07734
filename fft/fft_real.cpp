// SPDX-License-Identifier: LGPL-3.0-or-later
#include "fft/fft_real.hpp"

#include <bit>
#include <stdexcept>
#include <string>

#include "fft/real_pair.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

// The pair formulas' complex type on the CPU (split re/im arrays in and out).
template <class Real>
struct cplx {
  Real x, y;
};

std::size_t checked_half(std::size_t n) {
  if (n < 2 || !std::has_single_bit(n))
    throw std::invalid_argument("real_fft: length must be a power of two >= 2, got " +
                                std::to_string(n));
  return n / 2;
}

// The split of w^k = hi[k >> shift] * lo[k & mask] that follows the plan order:
// the low bits of a frequency are the four-step row index (constant along a row),
// the high bits vary along the row, so both tables are read with locality.
template <class Real>
unsigned split_shift(const complex_fft<Real>& half) {
  const std::size_t h = half.size();
  const std::size_t n2 = h / half.row_length();
  if (n2 > 1) return static_cast<unsigned>(std::countr_zero(n2));
  return static_cast<unsigned>(std::countr_zero(2 * h)) / 2;
}

// The walk both directions share: each frequency pair (f, h - f) once, at the
// lower frequency, with its twiddle w^f; frequency 0 alone (two real bins).
template <class Real, class Half, class Roots, class Zero, class Pair>
void over_pairs(const Half& half, const Roots& w, std::size_t h, Real* re, Real* im,
                unsigned threads, Zero zero, Pair pair) {
  prim::parallel_chunks(h, std::size_t{1} << 13, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t pos = b; pos < e; ++pos) {
      const std::size_t f = half.frequency_at(pos);
      if (f == 0) {
        zero(re[pos], im[pos]);
        continue;
      }
      const std::size_t g = h - f;
      if (f > g) continue;  // the pair is handled at the lower frequency
      const std::size_t pg = half.position_of(g);
      const std::size_t hi = f >> w.shift, lo = f & w.mask;
      const cplx<Real> wf{w.hi_re[hi] * w.lo_re[lo] - w.hi_im[hi] * w.lo_im[lo],
                          w.hi_re[hi] * w.lo_im[lo] + w.hi_im[hi] * w.lo_re[lo]};
      cplx<Real> zf, zg;
      pair(cplx<Real>{re[pos], im[pos]}, cplx<Real>{re[pg], im[pg]}, wf, zf, zg);
      re[pos] = zf.x;
      im[pos] = zf.y;
      if (pg != pos) {
        re[pg] = zg.x;
        im[pg] = zg.y;
      }
    }
  });
}

}  // namespace

template <class Real>
real_fft<Real>::real_fft(std::size_t n)
    : n_(n), h_(checked_half(n)), half_(h_), roots_(n, split_shift(half_)) {}

template <class Real>
void real_fft<Real>::unpack(Real* re, Real* im, unsigned threads) const {
  over_pairs(
      half_, roots_, h_, re, im, threads,
      [](Real& r, Real& i) { real_unpack0(cplx<Real>{r, i}, r, i); },  // X_0, X_h
      [](cplx<Real> a, cplx<Real> b, cplx<Real> wf, cplx<Real>& xf, cplx<Real>& xg) {
        real_unpack(a, b, wf, xf, xg);
      });
}

template <class Real>
void real_fft<Real>::pack(Real* re, Real* im, unsigned threads) const {
  over_pairs(
      half_, roots_, h_, re, im, threads,
      [](Real& r, Real& i) {
        const cplx<Real> z0 = real_pack0<cplx<Real>>(r, i);
        r = z0.x;
        i = z0.y;
      },
      [](cplx<Real> a, cplx<Real> b, cplx<Real> wf, cplx<Real>& zf, cplx<Real>& zg) {
        real_pack(a, b, wf, zf, zg);
      });
}

template <class Real>
void real_fft<Real>::forward(Real* re, Real* im, unsigned threads) const {
  half_.forward(re, im, threads);
  unpack(re, im, threads);
}

template <class Real>
void real_fft<Real>::inverse(Real* re, Real* im, unsigned threads) const {
  pack(re, im, threads);
  half_.inverse(re, im, threads);
}

template <class Real>
void real_fft<Real>::multiply_spectra(Real* dst_re, Real* dst_im, const Real* src_re,
                                      const Real* src_im, Real scale, unsigned threads) const {
  // Position 0 holds two real bins: multiply them separately.
  const Real r0 = dst_re[0] * src_re[0] * scale, i0 = dst_im[0] * src_im[0] * scale;
  half_.multiply_spectra(dst_re, dst_im, src_re, src_im, scale, threads);
  dst_re[0] = r0;
  dst_im[0] = i0;
}

template <class Real>
void real_fft<Real>::square_spectrum(Real* re, Real* im, Real scale, unsigned threads) const {
  const Real r0 = re[0] * re[0] * scale, i0 = im[0] * im[0] * scale;
  half_.square_spectrum(re, im, scale, threads);
  re[0] = r0;
  im[0] = i0;
}

template <class Real>
std::complex<Real> real_fft<Real>::bin(const Real* re, const Real* im, std::size_t k) const {
  if (k > h_) throw std::out_of_range("real_fft::bin: k > n/2");
  if (k == 0) return {re[0], Real(0)};
  if (k == h_) return {im[0], Real(0)};
  const std::size_t p = half_.position_of(k);
  return {re[p], im[p]};
}

template class real_fft<double>;
template class real_fft<float>;

}  // namespace bigmul::fft
