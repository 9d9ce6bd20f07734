// SPDX-License-Identifier: LGPL-3.0-or-later
// The real FFT's fused pointwise step on the GPU: unpack a pair of the half-length
// spectrum, multiply, re-pack (the pair formulas: fft/real_pair.hpp, shared with
// the CPU real_fft).
#pragma once

#include <cstddef>

#include "bigmul/hd.hpp"
#include "fft/cuda/device_complex.hpp"
#include "fft/cuda/device_fft_plan.hpp"
#include "fft/cuda/device_twiddle_tables.hpp"
#include "fft/real_pair.hpp"

namespace bigmul::fft::cuda::plan {

// ---- real-FFT pair arithmetic: fft/real_pair.hpp (shared with the CPU real_fft) --
using bigmul::fft::real_pack;
using bigmul::fft::real_pack0;
using bigmul::fft::real_unpack;
using bigmul::fft::real_unpack0;

// The pointwise step of the real FFT for index i = b*h + pos (pos < h = 2^log_h >= 2:
// a storage position of transform b's half-length spectrum Z, plan order `ord`).
// With f = frequency_at(pos): if f < h - f, reads the pair (f, h-f) of dst (and src),
// unpacks X (Y), multiplies P = X*Y*scale (X*X when Square) and re-packs 2x the packed
// spectrum of P into both positions; f = 0 also does the real bins 0 and h and the
// self-paired f = h/2; every other index does nothing. Iterating over positions keeps
// the accesses coalesced (consecutive positions: consecutive partners, descending).
// lo/hi: split table of w_n (n = 2h). src may alias dst.
template <class C, bool Square, class Real>
BIGMUL_HD void real_pointwise_at(C* dst, const C* src, std::size_t i, unsigned log_h, const order& ord, const C* lo,
                                 const C* hi, unsigned log_split, Real scale) {
  const std::size_t h = std::size_t{1} << log_h, quarter = h >> 1;
  const std::size_t b = i >> log_h;
  const std::size_t f = ord.frequency_at(i & (h - 1));
  if (f != 0 && f >= h - f) return;  // the lower frequency of the pair does the work
  C* zd = dst + b * h;
  const C* zs = (Square ? dst : src) + b * h;
  const std::size_t fe = f == 0 ? quarter : f;      // f = 0 also does the self pair h/2
  const std::size_t g = f == 0 ? quarter : h - f;
  const std::size_t pf = ord.position_of(fe), pg = ord.position_of(g);
  const C w = split_root(lo, hi, log_split, fe);
  C xf, xg, yf, yg;
  real_unpack(zd[pf], zd[pg], w, xf, xg);
  if (Square) {
    yf = xf;
    yg = xg;
  } else {
    real_unpack(zs[pf], zs[pg], w, yf, yg);
  }
  C zf, zg;
  real_pack(c_scale(c_mul(xf, yf), scale), c_scale(c_mul(xg, yg), scale), w, zf, zg);
  if (f == 0) {
    const std::size_t p0 = i & (h - 1);
    Real x0, xh, y0, yh;
    real_unpack0(zd[p0], x0, xh);
    if (Square) {
      y0 = x0;
      yh = xh;
    } else {
      real_unpack0(zs[p0], y0, yh);
    }
    zd[p0] = real_pack0<C>(x0 * y0 * scale, xh * yh * scale);
    zd[pf] = zf;  // self pair: pf == pg
    return;
  }
  zd[pf] = zf;
  zd[pg] = zg;
}

}  // namespace bigmul::fft::cuda::plan
