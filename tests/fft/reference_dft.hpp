// SPDX-License-Identifier: LGPL-3.0-or-later
// Long double references for the FFT tests: the O(n^2) DFT (the definition) and
// a recursive radix-2 FFT (checked against the DFT, then used where n^2 is too slow).
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <vector>

namespace bigmul::fft::test {

using cld = std::complex<long double>;

inline cld root(std::size_t k, std::size_t n, int sign) {
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double a = 2 * pi * static_cast<long double>(k % n) / static_cast<long double>(n);
  return {std::cos(a), sign * std::sin(a)};
}

// X[k] = sum_j x[j] exp(sign * 2 pi i j k / n); sign = -1 forward.
inline std::vector<cld> naive_dft(const std::vector<cld>& x, int sign) {
  const std::size_t n = x.size();
  std::vector<cld> w(n);
  for (std::size_t k = 0; k < n; ++k) w[k] = root(k, n, sign);
  std::vector<cld> y(n);
  for (std::size_t k = 0; k < n; ++k) {
    cld s = 0;
    for (std::size_t j = 0; j < n; ++j) s += x[j] * w[j * k % n];
    y[k] = s;
  }
  return y;
}

// Same result, O(n log n), n a power of two.
inline std::vector<cld> reference_fft(const std::vector<cld>& x, int sign) {
  const std::size_t n = x.size();
  if (n == 1) return x;
  std::vector<cld> even(n / 2), odd(n / 2);
  for (std::size_t j = 0; j < n / 2; ++j) {
    even[j] = x[2 * j];
    odd[j] = x[2 * j + 1];
  }
  const std::vector<cld> e = reference_fft(even, sign), o = reference_fft(odd, sign);
  std::vector<cld> y(n);
  for (std::size_t k = 0; k < n / 2; ++k) {
    const cld t = root(k, n, sign) * o[k];
    y[k] = e[k] + t;
    y[k + n / 2] = e[k] - t;
  }
  return y;
}

}  // namespace bigmul::fft::test
