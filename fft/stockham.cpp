// SPDX-License-Identifier: LGPL-3.0-or-later
#include "fft/stockham.hpp"

#include <utility>

#include "fft/kernels.hpp"

namespace bigmul::fft {

template <class Real>
stockham_plan<Real>::stockham_plan(std::size_t n) : n_(n) {
  std::size_t total = 0;
  std::size_t s = 1;
  for (std::size_t cur = n; cur > 1;) {
    if (cur >= 4) {
      const std::size_t m = cur / 4;
      passes_.push_back({m, s, total, 4});
      if (m > 1) total += 6 * m;
      cur /= 4;
      s *= 4;
    } else {  // cur == 2
      passes_.push_back({1, s, total, 2});
      cur = 1;
      s *= 2;
    }
  }
  tw_.resize(total ? total : 1);
  for (const pass& p : passes_) {
    if (p.radix != 4 || p.m == 1) continue;
    const std::size_t cur = 4 * p.m;
    Real* t = tw_.get() + p.tw;
    for (std::size_t j = 0; j < p.m; ++j) {
      for (unsigned q = 1; q <= 3; ++q) {
        const root_ld r = unit_root(static_cast<std::uint64_t>(q) * j, cur);
        t[(2 * (q - 1)) * p.m + j] = static_cast<Real>(r.re);
        t[(2 * (q - 1) + 1) * p.m + j] = static_cast<Real>(r.im);
      }
    }
  }
}

template <class Real>
bool stockham_plan<Real>::run(Real* xr, Real* xi, Real* tr, Real* ti, std::size_t lanes,
                              bool inverse) const {
  bool swapped = false;
  for (const pass& p : passes_) {
    const std::size_t sl = p.s * lanes;
    if (p.radix == 2) {
      kernels::radix2_last(xr, xi, tr, ti, sl);
    } else if (p.m == 1) {
      kernels::radix4_last(xr, xi, tr, ti, sl, inverse);
    } else {
      kernels::radix4_pass(xr, xi, tr, ti, p.m, sl, tw_.get() + p.tw, inverse);
    }
    std::swap(xr, tr);
    std::swap(xi, ti);
    swapped = !swapped;
  }
  return swapped;
}

template class stockham_plan<double>;
template class stockham_plan<float>;

}  // namespace bigmul::fft
