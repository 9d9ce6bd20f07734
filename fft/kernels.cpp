// SPDX-License-Identifier: LGPL-3.0-or-later
// The loops are written so that GCC auto-vectorizes them (restrict-qualified
// SoA arrays, unit-stride inner loops); each is compiled three times through
// target_clones and the dynamic loader binds the best one for the CPU.
#include "fft/kernels.hpp"

#include <cstdint>

#define BIGMUL_FFT_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define BIGMUL_FFT_INLINE inline __attribute__((always_inline))

namespace bigmul::fft::kernels {
namespace {

template <class Real, bool Inverse>
BIGMUL_FFT_INLINE void radix4_pass_body(const Real* xr, const Real* xi, Real* yr, Real* yi,
                                        std::size_t m, std::size_t sl, const Real* tw) {
  const Real* w1r = tw;
  const Real* w1i = tw + m;
  const Real* w2r = tw + 2 * m;
  const Real* w2i = tw + 3 * m;
  const Real* w3r = tw + 4 * m;
  const Real* w3i = tw + 5 * m;
  const std::size_t q = m * sl;  // distance between the four inputs
  for (std::size_t p = 0; p < m; ++p) {
    const Real c1 = w1r[p], s1 = Inverse ? -w1i[p] : w1i[p];
    const Real c2 = w2r[p], s2 = Inverse ? -w2i[p] : w2i[p];
    const Real c3 = w3r[p], s3 = Inverse ? -w3i[p] : w3i[p];
    const Real* __restrict a0r = xr + p * sl;
    const Real* __restrict a0i = xi + p * sl;
    const Real* __restrict a1r = a0r + q;
    const Real* __restrict a1i = a0i + q;
    const Real* __restrict a2r = a0r + 2 * q;
    const Real* __restrict a2i = a0i + 2 * q;
    const Real* __restrict a3r = a0r + 3 * q;
    const Real* __restrict a3i = a0i + 3 * q;
    Real* __restrict y0r = yr + 4 * p * sl;
    Real* __restrict y0i = yi + 4 * p * sl;
    Real* __restrict y1r = y0r + sl;
    Real* __restrict y1i = y0i + sl;
    Real* __restrict y2r = y0r + 2 * sl;
    Real* __restrict y2i = y0i + 2 * sl;
    Real* __restrict y3r = y0r + 3 * sl;
    Real* __restrict y3i = y0i + 3 * sl;
#pragma GCC ivdep
    for (std::size_t i = 0; i < sl; ++i) {
      const Real t0r = a0r[i] + a2r[i], t0i = a0i[i] + a2i[i];
      const Real t1r = a0r[i] - a2r[i], t1i = a0i[i] - a2i[i];
      const Real t2r = a1r[i] + a3r[i], t2i = a1i[i] + a3i[i];
      const Real dr = a1r[i] - a3r[i], di = a1i[i] - a3i[i];
      // t3 = -i*d forward, +i*d inverse
      const Real t3r = Inverse ? -di : di;
      const Real t3i = Inverse ? dr : -dr;
      y0r[i] = t0r + t2r;
      y0i[i] = t0i + t2i;
      const Real u1r = t1r + t3r, u1i = t1i + t3i;
      const Real u2r = t0r - t2r, u2i = t0i - t2i;
      const Real u3r = t1r - t3r, u3i = t1i - t3i;
      y1r[i] = u1r * c1 - u1i * s1;
      y1i[i] = u1r * s1 + u1i * c1;
      y2r[i] = u2r * c2 - u2i * s2;
      y2i[i] = u2r * s2 + u2i * c2;
      y3r[i] = u3r * c3 - u3i * s3;
      y3i[i] = u3r * s3 + u3i * c3;
    }
  }
}

template <class Real, bool Inverse>
BIGMUL_FFT_INLINE void radix4_last_body(const Real* xr, const Real* xi, Real* yr, Real* yi,
                                        std::size_t sl) {
  const Real* __restrict a0r = xr;
  const Real* __restrict a0i = xi;
  const Real* __restrict a1r = xr + sl;
  const Real* __restrict a1i = xi + sl;
  const Real* __restrict a2r = xr + 2 * sl;
  const Real* __restrict a2i = xi + 2 * sl;
  const Real* __restrict a3r = xr + 3 * sl;
  const Real* __restrict a3i = xi + 3 * sl;
  Real* __restrict y0r = yr;
  Real* __restrict y0i = yi;
  Real* __restrict y1r = yr + sl;
  Real* __restrict y1i = yi + sl;
  Real* __restrict y2r = yr + 2 * sl;
  Real* __restrict y2i = yi + 2 * sl;
  Real* __restrict y3r = yr + 3 * sl;
  Real* __restrict y3i = yi + 3 * sl;
#pragma GCC ivdep
  for (std::size_t i = 0; i < sl; ++i) {
    const Real t0r = a0r[i] + a2r[i], t0i = a0i[i] + a2i[i];
    const Real t1r = a0r[i] - a2r[i], t1i = a0i[i] - a2i[i];
    const Real t2r = a1r[i] + a3r[i], t2i = a1i[i] + a3i[i];
    const Real dr = a1r[i] - a3r[i], di = a1i[i] - a3i[i];
    const Real t3r = Inverse ? -di : di;
    const Real t3i = Inverse ? dr : -dr;
    y0r[i] = t0r + t2r;
    y0i[i] = t0i + t2i;
    y1r[i] = t1r + t3r;
    y1i[i] = t1i + t3i;
    y2r[i] = t0r - t2r;
    y2i[i] = t0i - t2i;
    y3r[i] = t1r - t3r;
    y3i[i] = t1i - t3i;
  }
}

template <class Real>
BIGMUL_FFT_INLINE void radix2_last_body(const Real* xr, const Real* xi, Real* yr, Real* yi,
                                        std::size_t sl) {
  const Real* __restrict a0r = xr;
  const Real* __restrict a0i = xi;
  const Real* __restrict a1r = xr + sl;
  const Real* __restrict a1i = xi + sl;
  Real* __restrict y0r = yr;
  Real* __restrict y0i = yi;
  Real* __restrict y1r = yr + sl;
  Real* __restrict y1i = yi + sl;
#pragma GCC ivdep
  for (std::size_t i = 0; i < sl; ++i) {
    const Real ar = a0r[i], ai = a0i[i], br = a1r[i], bi = a1i[i];
    y0r[i] = ar + br;
    y0i[i] = ai + bi;
    y1r[i] = ar - br;
    y1i[i] = ai - bi;
  }
}

template <class Real, bool Inverse>
BIGMUL_FFT_INLINE void transpose_twiddle_body(const Real* xr, const Real* xi, Real* yr, Real* yi,
                                              std::size_t rows, std::size_t cols, const Real* wr,
                                              const Real* wi) {
  // Blocks of 8 x 8 keep both the strided reads and the writes in few cache lines.
  constexpr std::size_t blk = 8;
  for (std::size_t c0 = 0; c0 < cols; c0 += blk) {
    const std::size_t c1 = c0 + blk < cols ? c0 + blk : cols;
    for (std::size_t r0 = 0; r0 < rows; r0 += blk) {
      const std::size_t r1 = r0 + blk < rows ? r0 + blk : rows;
      for (std::size_t c = c0; c < c1; ++c) {
        const Real* __restrict sr = xr + c;
        const Real* __restrict si = xi + c;
        Real* __restrict dr = yr + c * rows;
        Real* __restrict di = yi + c * rows;
        const Real* __restrict tr = wr + c * rows;
        const Real* __restrict ti = wi + c * rows;
#pragma GCC ivdep
        for (std::size_t r = r0; r < r1; ++r) {
          const Real ar = sr[r * cols], ai = si[r * cols];
          const Real br = tr[r], bi = Inverse ? -ti[r] : ti[r];
          dr[r] = ar * br - ai * bi;
          di[r] = ar * bi + ai * br;
        }
      }
    }
  }
}

template <class Real, bool Twiddle, bool Scatter>
BIGMUL_FFT_INLINE void move_columns_body(const Real* fr, const Real* fi, Real* tr, Real* ti,
                                         std::size_t rows, std::size_t cols, std::size_t c,
                                         std::size_t lanes, const Real* lo_re, const Real* lo_im,
                                         const Real* hi_re, const Real* hi_im, unsigned shift,
                                         std::size_t mask, const Real* step_re,
                                         const Real* step_im) {
  // Rows of the matrix are a power-of-two stride apart, usually a page or more, so
  // the hardware prefetchers do not follow them: prefetch a few rows ahead.
  constexpr std::size_t ahead = 6;
  for (std::size_t r = 0; r < rows; ++r) {
    if (r + ahead < rows) {
      for (std::size_t l = 0; l < lanes; l += 64 / sizeof(Real)) {
        if constexpr (Scatter) {
          __builtin_prefetch(tr + (r + ahead) * cols + c + l, 1);
          __builtin_prefetch(ti + (r + ahead) * cols + c + l, 1);
        } else {
          __builtin_prefetch(fr + (r + ahead) * cols + c + l, 0);
          __builtin_prefetch(fi + (r + ahead) * cols + c + l, 0);
        }
      }
    }
    // Scatter: from buf (row r, lanes) to matrix (row r, columns c..); gather: the reverse.
    const Real* __restrict sr = Scatter ? fr + r * lanes : fr + r * cols + c;
    const Real* __restrict si = Scatter ? fi + r * lanes : fi + r * cols + c;
    Real* __restrict dr = Scatter ? tr + r * cols + c : tr + r * lanes;
    Real* __restrict di = Scatter ? ti + r * cols + c : ti + r * lanes;
    if constexpr (Twiddle) {
      // w^{(c+l) r} = w^{c r} * w^{l r}: one split-table root per row times the
      // per-lane step table (contiguous, so no gathers).
      const std::size_t e = c * r;
      const std::size_t h = e >> shift, o = e & mask;
      const Real cr = hi_re[h] * lo_re[o] - hi_im[h] * lo_im[o];
      const Real ci = hi_re[h] * lo_im[o] + hi_im[h] * lo_re[o];
      const Real* __restrict pr = step_re + r * lanes;
      const Real* __restrict pi = step_im + r * lanes;
#pragma GCC ivdep
      for (std::size_t l = 0; l < lanes; ++l) {
        const Real wr = cr * pr[l] - ci * pi[l];
        const Real wi0 = cr * pi[l] + ci * pr[l];
        // The forward (scatter) uses w, the inverse (gather) conj(w).
        const Real wi = Scatter ? wi0 : -wi0;
        const Real ar = sr[l], ai = si[l];
        dr[l] = ar * wr - ai * wi;
        di[l] = ar * wi + ai * wr;
      }
    } else {
#pragma GCC ivdep
      for (std::size_t l = 0; l < lanes; ++l) {
        dr[l] = sr[l];
        di[l] = si[l];
      }
    }
  }
}

template <class Real>
BIGMUL_FFT_INLINE void multiply_body(Real* dr_, Real* di_, const Real* sr_, const Real* si_,
                                     Real scale, std::size_t n) {
  Real* __restrict dr = dr_;
  Real* __restrict di = di_;
  const Real* __restrict sr = sr_;
  const Real* __restrict si = si_;
#pragma GCC ivdep
  for (std::size_t i = 0; i < n; ++i) {
    const Real ar = dr[i], ai = di[i], br = sr[i], bi = si[i];
    dr[i] = (ar * br - ai * bi) * scale;
    di[i] = (ar * bi + ai * br) * scale;
  }
}

template <class Real>
BIGMUL_FFT_INLINE void square_body(Real* xr_, Real* xi_, Real scale, std::size_t n) {
  Real* __restrict xr = xr_;
  Real* __restrict xi = xi_;
#pragma GCC ivdep
  for (std::size_t i = 0; i < n; ++i) {
    const Real ar = xr[i], ai = xi[i];
    xr[i] = (ar * ar - ai * ai) * scale;
    xi[i] = (2 * ar * ai) * scale;
  }
}

// One multiversioned entry point per (kernel, type, direction), named
// <kernel>_<d|f>_<direction>: d = double, f = float; forward/inverse, or for
// the column moves twiddled/plain (with or without the twiddle multiply).
#define BIGMUL_FFT_FOR_TYPES(X) X(double, d) X(float, f)

#define BIGMUL_FFT_DEFINE(T, S)                                                                      \
  BIGMUL_FFT_CLONES void radix4_pass_##S##_forward(const T* xr, const T* xi, T* yr, T* yi, std::size_t m,          \
                                    std::size_t sl, const T* tw) {                                  \
    radix4_pass_body<T, false>(xr, xi, yr, yi, m, sl, tw);                                          \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void radix4_pass_##S##_inverse(const T* xr, const T* xi, T* yr, T* yi, std::size_t m,          \
                                    std::size_t sl, const T* tw) {                                  \
    radix4_pass_body<T, true>(xr, xi, yr, yi, m, sl, tw);                                           \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void radix4_last_##S##_forward(const T* xr, const T* xi, T* yr, T* yi, std::size_t sl) {      \
    radix4_last_body<T, false>(xr, xi, yr, yi, sl);                                                 \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void radix4_last_##S##_inverse(const T* xr, const T* xi, T* yr, T* yi, std::size_t sl) {      \
    radix4_last_body<T, true>(xr, xi, yr, yi, sl);                                                  \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void radix2_last_##S(const T* xr, const T* xi, T* yr, T* yi, std::size_t sl) {          \
    radix2_last_body<T>(xr, xi, yr, yi, sl);                                                        \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void transpose_twiddle_##S##_forward(const T* xr, const T* xi, T* yr, T* yi, std::size_t rows,       \
                                    std::size_t cols, const T* wr, const T* wi) {                   \
    transpose_twiddle_body<T, false>(xr, xi, yr, yi, rows, cols, wr, wi);                           \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void transpose_twiddle_##S##_inverse(const T* xr, const T* xi, T* yr, T* yi, std::size_t rows,       \
                                    std::size_t cols, const T* wr, const T* wi) {                   \
    transpose_twiddle_body<T, true>(xr, xi, yr, yi, rows, cols, wr, wi);                            \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void gather_columns_##S##_twiddled(const T* xr, const T* xi, T* br, T* bi, std::size_t rows,       \
                                    std::size_t cols, std::size_t c, std::size_t lanes,             \
                                    const T* lo_re, const T* lo_im, const T* hi_re, const T* hi_im,             \
                                    unsigned shift, std::size_t mask, const T* step_re, const T* step_im) {  \
    move_columns_body<T, true, false>(xr, xi, br, bi, rows, cols, c, lanes, lo_re, lo_im, hi_re, hi_im, shift,  \
                                      mask, step_re, step_im);                                                \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void gather_columns_##S##_plain(const T* xr, const T* xi, T* br, T* bi, std::size_t rows,       \
                                    std::size_t cols, std::size_t c, std::size_t lanes,             \
                                    const T* lo_re, const T* lo_im, const T* hi_re, const T* hi_im,             \
                                    unsigned shift, std::size_t mask, const T* step_re, const T* step_im) {  \
    move_columns_body<T, false, false>(xr, xi, br, bi, rows, cols, c, lanes, lo_re, lo_im, hi_re, hi_im, shift, \
                                       mask, step_re, step_im);                                               \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void scatter_columns_##S##_twiddled(const T* br, const T* bi, T* xr, T* xi, std::size_t rows,       \
                                    std::size_t cols, std::size_t c, std::size_t lanes,             \
                                    const T* lo_re, const T* lo_im, const T* hi_re, const T* hi_im,             \
                                    unsigned shift, std::size_t mask, const T* step_re, const T* step_im) {  \
    move_columns_body<T, true, true>(br, bi, xr, xi, rows, cols, c, lanes, lo_re, lo_im, hi_re, hi_im, shift,   \
                                     mask, step_re, step_im);                                                 \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void scatter_columns_##S##_plain(const T* br, const T* bi, T* xr, T* xi, std::size_t rows,       \
                                    std::size_t cols, std::size_t c, std::size_t lanes,             \
                                    const T* lo_re, const T* lo_im, const T* hi_re, const T* hi_im,             \
                                    unsigned shift, std::size_t mask, const T* step_re, const T* step_im) {  \
    move_columns_body<T, false, true>(br, bi, xr, xi, rows, cols, c, lanes, lo_re, lo_im, hi_re, hi_im, shift,  \
                                      mask, step_re, step_im);                                                \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void multiply_pointwise_##S(T* dr, T* di, const T* sr, const T* si, T scale, std::size_t n) {  \
    multiply_body<T>(dr, di, sr, si, scale, n);                                                     \
  }                                                                                                 \
  BIGMUL_FFT_CLONES void square_pointwise_##S(T* xr, T* xi, T scale, std::size_t n) {                            \
    square_body<T>(xr, xi, scale, n);                                                               \
  }

BIGMUL_FFT_FOR_TYPES(BIGMUL_FFT_DEFINE)

}  // namespace

#define BIGMUL_FFT_SPECIALIZE(T, S)                                                                 \
  void radix4_pass(const T* xr, const T* xi, T* yr, T* yi, std::size_t m, std::size_t sl,          \
                   const T* tw, bool inverse) {                                                    \
    if (inverse)                                                                                   \
      radix4_pass_##S##_inverse(xr, xi, yr, yi, m, sl, tw);                                                       \
    else                                                                                           \
      radix4_pass_##S##_forward(xr, xi, yr, yi, m, sl, tw);                                                       \
  }                                                                                                \
  void radix4_last(const T* xr, const T* xi, T* yr, T* yi, std::size_t sl, bool inverse) {         \
    if (inverse)                                                                                   \
      radix4_last_##S##_inverse(xr, xi, yr, yi, sl);                                                             \
    else                                                                                           \
      radix4_last_##S##_forward(xr, xi, yr, yi, sl);                                                             \
  }                                                                                                \
  void radix2_last(const T* xr, const T* xi, T* yr, T* yi, std::size_t sl) {                       \
    radix2_last_##S(xr, xi, yr, yi, sl);                                                                   \
  }                                                                                                \
  void transpose_twiddle(const T* xr, const T* xi, T* yr, T* yi, std::size_t rows,                 \
                         std::size_t cols, const T* wr, const T* wi, bool inverse) {               \
    if (inverse)                                                                                   \
      transpose_twiddle_##S##_inverse(xr, xi, yr, yi, rows, cols, wr, wi);                                              \
    else                                                                                           \
      transpose_twiddle_##S##_forward(xr, xi, yr, yi, rows, cols, wr, wi);                                              \
  }                                                                                                \
  void gather_columns(const T* xr, const T* xi, T* br, T* bi, std::size_t rows, std::size_t cols,  \
                      std::size_t c, std::size_t lanes, const T* lo_re, const T* lo_im, const T* hi_re,     \
                      const T* hi_im, unsigned shift, std::size_t mask, const T* step_re,      \
                      const T* step_im, bool twiddle) {                                                 \
    if (twiddle)                                                                                   \
      gather_columns_##S##_twiddled(xr, xi, br, bi, rows, cols, c, lanes, lo_re, lo_im, hi_re, hi_im, shift, mask, step_re, step_im);       \
    else                                                                                           \
      gather_columns_##S##_plain(xr, xi, br, bi, rows, cols, c, lanes, lo_re, lo_im, hi_re, hi_im, shift, mask, step_re, step_im);       \
  }                                                                                                \
  void scatter_columns(const T* br, const T* bi, T* xr, T* xi, std::size_t rows, std::size_t cols, \
                       std::size_t c, std::size_t lanes, const T* lo_re, const T* lo_im, const T* hi_re,    \
                       const T* hi_im, unsigned shift, std::size_t mask, const T* step_re,     \
                       const T* step_im, bool twiddle) {                                                \
    if (twiddle)                                                                                   \
      scatter_columns_##S##_twiddled(br, bi, xr, xi, rows, cols, c, lanes, lo_re, lo_im, hi_re, hi_im, shift, mask, step_re, step_im);       \
    else                                                                                           \
      scatter_columns_##S##_plain(br, bi, xr, xi, rows, cols, c, lanes, lo_re, lo_im, hi_re, hi_im, shift, mask, step_re, step_im);       \
  }                                                                                                \
  void multiply_pointwise(T* dr, T* di, const T* sr, const T* si, T scale, std::size_t n) {        \
    multiply_pointwise_##S(dr, di, sr, si, scale, n);                                                             \
  }                                                                                                \
  void square_pointwise(T* xr, T* xi, T scale, std::size_t n) { square_pointwise_##S(xr, xi, scale, n); }

BIGMUL_FFT_FOR_TYPES(BIGMUL_FFT_SPECIALIZE)

}  // namespace bigmul::fft::kernels
