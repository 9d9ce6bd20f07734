// SPDX-License-Identifier: LGPL-3.0-or-later
// Vector kernels of the FFT, compiled for several instruction sets (AVX-512,
// AVX2+FMA, baseline x86-64) and picked at run time by GCC function
// multiversioning, so one binary runs anywhere and uses the widest vectors the
// CPU has. All operate on split (SoA) real/imaginary arrays.
#pragma once

#include <cstddef>

namespace bigmul::fft::kernels {

// Every kernel is overloaded for double and float; `inverse` selects the
// conjugate direction (+i and conj(w) in place of -i and w).
#define BIGMUL_FFT_DECLARE_KERNELS(T)                                                            \
  /* One radix-4 decimation-in-frequency Stockham pass over interleaved lanes: x holds 4m      \
     groups of sl contiguous values; output group 4p+t gets                                    \
     (sum_q x_{p+qm} (-i)^{qt}) w^{tp}; tw[0..6m) = w^p, w^2p, w^3p as re, im pairs of rows. */ \
  void radix4_pass(const T* xr, const T* xi, T* yr, T* yi, std::size_t m, std::size_t sl,      \
                   const T* tw, bool inverse);                                                 \
  /* The last radix-4 pass (m == 1): no twiddles. */                                           \
  void radix4_last(const T* xr, const T* xi, T* yr, T* yi, std::size_t sl, bool inverse);      \
  /* The closing radix-2 pass (m == 1): y0 = x0 + x1, y1 = x0 - x1. */                         \
  void radix2_last(const T* xr, const T* xi, T* yr, T* yi, std::size_t sl);                    \
  /* y[c*rows + r] = x[r*cols + c] * w[c*rows + r] (conj(w) when inverse): the transpose with  \
     twiddle of the in-cache six-step FFT. */                                                   \
  void transpose_twiddle(const T* xr, const T* xi, T* yr, T* yi, std::size_t rows,             \
                         std::size_t cols, const T* wr, const T* wi, bool inverse);            \
  /* Four-step column block: copies columns [c, c+lanes) of a rows x cols matrix into buf      \
     (rows x lanes); with twiddle, multiplies element (r, c+l) by conj(w_n^{(c+l) r}) (the     \
     inverse's twiddle), computed as w_n^{c r} * step[r * lanes + l] with                      \
     w_n^e = hi[e >> shift] * lo[e & mask] and step[r * lanes + l] = w_n^{l r}. */             \
  void gather_columns(const T* xr, const T* xi, T* br, T* bi, std::size_t rows,                \
                      std::size_t cols, std::size_t c, std::size_t lanes, const T* lo_re,      \
                      const T* lo_im, const T* hi_re, const T* hi_im, unsigned shift,          \
                      std::size_t mask, const T* step_re, const T* step_im, bool twiddle);                                         \
  /* The reverse: buf back into columns [c, c+lanes), times w_n^{(c+l) r} with twiddle (the    \
     forward's twiddle). */                                                                    \
  void scatter_columns(const T* br, const T* bi, T* xr, T* xi, std::size_t rows,               \
                       std::size_t cols, std::size_t c, std::size_t lanes, const T* lo_re,     \
                       const T* lo_im, const T* hi_re, const T* hi_im, unsigned shift,         \
                       std::size_t mask, const T* step_re, const T* step_im, bool twiddle);                                        \
  /* dst[i] = dst[i] * src[i] * scale over [0, n) (complex). */                                \
  void multiply_pointwise(T* dr, T* di, const T* sr, const T* si, T scale, std::size_t n);     \
  /* x[i] = x[i]^2 * scale over [0, n) (complex). */                                           \
  void square_pointwise(T* xr, T* xi, T scale, std::size_t n);

BIGMUL_FFT_DECLARE_KERNELS(double)
BIGMUL_FFT_DECLARE_KERNELS(float)
#undef BIGMUL_FFT_DECLARE_KERNELS

}  // namespace bigmul::fft::kernels
