// SPDX-License-Identifier: LGPL-3.0-or-later
// The real-FFT pair formulas, shared by the CPU real_fft (fft/fft_real.cpp) and
// the GPU's fused pointwise step (fft/cuda/device_real_pointwise.hpp). Packing
// z_l = x_2l + i x_2l+1 (n real points into h = n/2 complex), Z = the
// half-length spectrum, w = w_n^f = exp(-2 pi i f / n), g = h - f:
//   unpack  A = Z_f + conj Z_g, B = Z_f - conj Z_g, C = i w B,
//           X_f = (A - C)/2, X_g = conj(A + C)/2
//   pack    A = X_f + conj X_g, B = X_f - conj X_g, D = i conj(w) B,
//           Z'_f = A + D, Z'_g = conj(A - D)            (Z' = 2 Z)
//   f = 0   X_0 = Re Z_0 + Im Z_0, X_h = Re Z_0 - Im Z_0 (both real);
//           re-pack Z'_0 = (P_0 + P_h) + i (P_0 - P_h)   (= 2 Z_0)
// C is any complex type with members x (real) and y (imaginary): double2 and
// float2 on the device, a plain struct on the CPU. The operation order is the
// one both backends ran before they shared it. BIGMUL_HD, C++17.
#pragma once

#include "bigmul/hd.hpp"

namespace bigmul::fft {

template <class C>
BIGMUL_HD C pair_c(decltype(C{}.x) x, decltype(C{}.x) y) {
  C r;
  r.x = x;
  r.y = y;
  return r;
}

// (Z_f, Z_g) -> (X_f, X_g).
template <class C>
BIGMUL_HD void real_unpack(const C& zf, const C& zg, const C& w, C& xf, C& xg) {
  using Real = decltype(C{}.x);
  const Real ar = zf.x + zg.x, ai = zf.y - zg.y;  // A
  const Real br = zf.x - zg.x, bi = zf.y + zg.y;  // B
  const Real tr = w.x * br - w.y * bi, ti = w.x * bi + w.y * br;  // w B
  const Real cr = -ti, ci = tr;                                   // C = i w B
  xf = pair_c<C>(Real(0.5) * (ar - cr), Real(0.5) * (ai - ci));
  xg = pair_c<C>(Real(0.5) * (ar + cr), Real(-0.5) * (ai + ci));
}

// (X_f, X_g) -> (Z'_f, Z'_g) = 2 (Z_f, Z_g); w = w_n^f (conjugated here).
template <class C>
BIGMUL_HD void real_pack(const C& xf, const C& xg, const C& w, C& zf, C& zg) {
  using Real = decltype(C{}.x);
  const Real ar = xf.x + xg.x, ai = xf.y - xg.y;  // A
  const Real br = xf.x - xg.x, bi = xf.y + xg.y;  // B
  const Real wr = w.x, wi = -w.y;                 // conj(w)
  const Real tr = wr * br - wi * bi, ti = wr * bi + wi * br;
  const Real dr = -ti, di = tr;  // D = i conj(w) B
  zf = pair_c<C>(ar + dr, ai + di);
  zg = pair_c<C>(ar - dr, -(ai - di));
}

// Frequency 0: the two real bins X_0, X_h held in Z_0.
template <class C>
BIGMUL_HD void real_unpack0(const C& z0, decltype(C{}.x)& x0, decltype(C{}.x)& xh) {
  x0 = z0.x + z0.y;
  xh = z0.x - z0.y;
}
template <class C>
BIGMUL_HD C real_pack0(decltype(C{}.x) p0, decltype(C{}.x) ph) {
  return pair_c<C>(p0 + ph, p0 - ph);
}

}  // namespace bigmul::fft
