// SPDX-License-Identifier: LGPL-3.0-or-later
#include "fft/twiddle.hpp"

#include <cmath>

namespace bigmul::fft {

root_ld unit_root(std::uint64_t k, std::uint64_t n) {
  k %= n;
  // theta = 2 pi k / n = (octant + rem / n) * pi / 4 with 8k = octant * n + rem,
  // split in exact integer arithmetic; the symmetries of cos and sin then leave an
  // argument in [0, pi/4]. We return (cos theta, -sin theta).
  const unsigned __int128 k8 = static_cast<unsigned __int128>(k) * 8;
  const unsigned octant = static_cast<unsigned>(k8 / n);                                // 0..7
  const std::uint64_t rem = static_cast<std::uint64_t>(k8 - static_cast<unsigned __int128>(octant) * n);
  const long double pi = 3.141592653589793238462643383279502884L;
  // Odd octants are measured from the octant's upper edge to keep the argument small.
  long double c, s;
  auto eval = [&](long double frac) {  // frac in [0, 1]: angle frac * pi/4
    const long double a = frac * (pi / 4);
    c = std::cos(a);
    s = std::sin(a);
  };
  long double cr, sr;  // cos, sin of theta
  if (octant % 2 == 0) {
    eval(static_cast<long double>(rem) / static_cast<long double>(n));
  } else {
    eval(static_cast<long double>(n - rem) / static_cast<long double>(n));
  }
  // theta = q*pi/2 + phi with phi = a (even octant 2q) or pi/2 - a (odd octant 2q+1).
  switch (octant) {
    case 0: cr = c; sr = s; break;           // phi = a
    case 1: cr = s; sr = c; break;           // pi/2 - a
    case 2: cr = -s; sr = c; break;          // pi/2 + a
    case 3: cr = -c; sr = s; break;          // pi - a
    case 4: cr = -c; sr = -s; break;         // pi + a
    case 5: cr = -s; sr = -c; break;         // 3pi/2 - a
    case 6: cr = s; sr = -c; break;          // 3pi/2 + a
    default: cr = c; sr = -s; break;         // 2pi - a
  }
  return {cr, -sr};
}

template <class Real>
split_roots<Real>::split_roots(std::size_t n, unsigned shift_) : shift(shift_) {
  const std::size_t lo_n = std::size_t{1} << shift;
  mask = lo_n - 1;
  const std::size_t hi_n = (n + lo_n - 1) >> shift;
  lo_re.resize(lo_n);
  lo_im.resize(lo_n);
  hi_re.resize(hi_n ? hi_n : 1);
  hi_im.resize(hi_n ? hi_n : 1);
  for (std::size_t e = 0; e < lo_n; ++e) {
    const root_ld r = unit_root(e, n);
    lo_re[e] = static_cast<Real>(r.re);
    lo_im[e] = static_cast<Real>(r.im);
  }
  for (std::size_t e = 0; e < hi_re.size; ++e) {
    const root_ld r = unit_root(static_cast<std::uint64_t>(e) << shift, n);
    hi_re[e] = static_cast<Real>(r.re);
    hi_im[e] = static_cast<Real>(r.im);
  }
}

template struct split_roots<double>;
template struct split_roots<float>;

}  // namespace bigmul::fft
