// SPDX-License-Identifier: LGPL-3.0-or-later
// Integer convolution through the FFTs, as the multiplication pipeline does it:
// forward both operands, multiply spectra (with the inverse scale), inverse, round.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "fft/fft_complex.hpp"
#include "fft/fft_real.hpp"

namespace bigmul::fft::test {

struct convolution_result {
  std::vector<std::int64_t> c;  // length a.size() + b.size() - 1
  double max_rounding_error = 0;  // max |x - round(x)|
};

// a, b padded into an L-point transform, L >= a.size() + b.size() - 1.
template <class Real>
convolution_result convolve_complex(const std::vector<std::int64_t>& a,
                                    const std::vector<std::int64_t>& b, std::size_t L,
                                    unsigned threads = 0) {
  const complex_fft<Real> plan(L);
  std::vector<Real> ar(L, 0), ai(L, 0), br(L, 0), bi(L, 0);
  for (std::size_t i = 0; i < a.size(); ++i) ar[i] = static_cast<Real>(a[i]);
  for (std::size_t i = 0; i < b.size(); ++i) br[i] = static_cast<Real>(b[i]);
  plan.forward(ar.data(), ai.data(), threads);
  plan.forward(br.data(), bi.data(), threads);
  plan.multiply_spectra(ar.data(), ai.data(), br.data(), bi.data(), plan.inverse_scale(), threads);
  plan.inverse(ar.data(), ai.data(), threads);
  convolution_result r;
  r.c.resize(a.size() + b.size() - 1);
  for (std::size_t i = 0; i < L; ++i) {
    const double x = static_cast<double>(ar[i]);
    const double q = std::nearbyint(x);
    r.max_rounding_error = std::max(r.max_rounding_error, std::abs(x - q));
    if (i < r.c.size()) r.c[i] = static_cast<std::int64_t>(q);
  }
  return r;
}

// The same through real_fft (L real points, L/2 complex).
template <class Real>
convolution_result convolve_real(const std::vector<std::int64_t>& a,
                                 const std::vector<std::int64_t>& b, std::size_t L,
                                 unsigned threads = 0) {
  const real_fft<Real> plan(L);
  const std::size_t h = L / 2;
  std::vector<Real> ar(h, 0), ai(h, 0), br(h, 0), bi(h, 0);
  for (std::size_t i = 0; i < a.size(); ++i) (i % 2 ? ai : ar)[i / 2] = static_cast<Real>(a[i]);
  for (std::size_t i = 0; i < b.size(); ++i) (i % 2 ? bi : br)[i / 2] = static_cast<Real>(b[i]);
  plan.forward(ar.data(), ai.data(), threads);
  plan.forward(br.data(), bi.data(), threads);
  plan.multiply_spectra(ar.data(), ai.data(), br.data(), bi.data(), plan.inverse_scale(), threads);
  plan.inverse(ar.data(), ai.data(), threads);
  convolution_result r;
  r.c.resize(a.size() + b.size() - 1);
  for (std::size_t i = 0; i < L; ++i) {
    const double x = static_cast<double>(i % 2 ? ai[i / 2] : ar[i / 2]);
    const double q = std::nearbyint(x);
    r.max_rounding_error = std::max(r.max_rounding_error, std::abs(x - q));
    if (i < r.c.size()) r.c[i] = static_cast<std::int64_t>(q);
  }
  return r;
}

// Exact c[k] = sum_i a[i] b[k-i].
inline std::int64_t exact_coefficient(const std::vector<std::int64_t>& a,
                                      const std::vector<std::int64_t>& b, std::size_t k) {
  std::int64_t s = 0;
  const std::size_t lo = k >= b.size() ? k - b.size() + 1 : 0;
  const std::size_t hi = std::min(k, a.size() - 1);
  for (std::size_t i = lo; i <= hi; ++i) s += a[i] * b[k - i];
  return s;
}

}  // namespace bigmul::fft::test
