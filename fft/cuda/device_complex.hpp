// SPDX-License-Identifier: LGPL-3.0-or-later
// Complex arithmetic of the in-house GPU FFT on any {x, y} type (double2, float2
// on the device; a plain struct in tests/fft/test_fft_gpu_model.cpp) and the
// compile-time roots of unity inside its radix-2..16 butterflies. Plain C++17, BIGMUL_HD.
#pragma once

#include "bigmul/hd.hpp"

namespace bigmul::fft::cuda::plan {

template <class C>
BIGMUL_HD C make_c(decltype(C{}.x) x, decltype(C{}.x) y) {
  C r;
  r.x = x;
  r.y = y;
  return r;
}
template <class C>
BIGMUL_HD C c_add(const C& a, const C& b) { return make_c<C>(a.x + b.x, a.y + b.y); }
template <class C>
BIGMUL_HD C c_sub(const C& a, const C& b) { return make_c<C>(a.x - b.x, a.y - b.y); }
template <class C>
BIGMUL_HD C c_mul(const C& a, const C& b) {
  return make_c<C>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
// a * conj(b)
template <class C>
BIGMUL_HD C c_mul_conj(const C& a, const C& b) {
  return make_c<C>(a.x * b.x + a.y * b.y, a.y * b.x - a.x * b.y);
}
template <class C>
BIGMUL_HD C c_conj(const C& a) { return make_c<C>(a.x, -a.y); }
template <class C>
BIGMUL_HD C c_scale(const C& a, decltype(C{}.x) s) { return make_c<C>(a.x * s, a.y * s); }

// cos and sin of 2 pi k / 16, k < 16 (the roots inside the radix-16 butterfly).
BIGMUL_HD constexpr double root16_cos(unsigned k) {
  constexpr double c1 = 0.92387953251128675613, c2 = 0.70710678118654752440, c3 = 0.38268343236508977173;
  switch (k & 15) {
    case 0: return 1.0;
    case 1: return c1;
    case 2: return c2;
    case 3: return c3;
    case 4: return 0.0;
    case 5: return -c3;
    case 6: return -c2;
    case 7: return -c1;
    case 8: return -1.0;
    case 9: return -c1;
    case 10: return -c2;
    case 11: return -c3;
    case 12: return 0.0;
    case 13: return c3;
    case 14: return c2;
    default: return c1;
  }
}
BIGMUL_HD constexpr double root16_sin(unsigned k) { return root16_cos(k + 12); }  // sin x = cos(x - pi/2)

// v * w_R^k with w_R = exp(-2 pi i / R) (forward) or its conjugate (Inv).
template <int R, int K, bool Inv, class C>
BIGMUL_HD C mul_root(const C& v) {
  using Real = decltype(C{}.x);
  constexpr int k = K % R;
  if constexpr (k == 0) {
    return v;
  } else if constexpr (4 * k == R) {  // -i (forward), +i (inverse)
    return Inv ? make_c<C>(-v.y, v.x) : make_c<C>(v.y, -v.x);
  } else if constexpr (2 * k == R) {
    return make_c<C>(-v.x, -v.y);
  } else if constexpr (4 * k == 3 * R) {  // +i (forward), -i (inverse)
    return Inv ? make_c<C>(v.y, -v.x) : make_c<C>(-v.y, v.x);
  } else {
    constexpr unsigned i16 = static_cast<unsigned>(k * (16 / R));
    const Real c = static_cast<Real>(root16_cos(i16));
    const Real s = Inv ? static_cast<Real>(root16_sin(i16)) : -static_cast<Real>(root16_sin(i16));
    return make_c<C>(v.x * c - v.y * s, v.x * s + v.y * c);
  }
}

}  // namespace bigmul::fft::cuda::plan
