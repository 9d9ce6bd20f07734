// SPDX-License-Identifier: LGPL-3.0-or-later
// Accurate roots of unity for the FFT tables.
//
// Every table entry is computed once in long double from an exactly reduced
// angle and rounded once to Real, so no error accumulates from repeated
// multiplication (the rounding error of a twiddle is at most half an ulp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

namespace bigmul::fft {

// exp(-2 pi i k / n) for 0 <= k (any k; reduced mod n exactly), as (cos, sin).
// Uses the octant symmetries so that the long double argument is at most pi/4.
struct root_ld {
  long double re, im;
};
root_ld unit_root(std::uint64_t k, std::uint64_t n);

// 64-byte aligned array of Real (the vector kernels load whole cache lines).
template <class Real>
struct aligned_array {
  struct deleter {
    void operator()(Real* p) const { ::operator delete[](p, std::align_val_t(64)); }
  };
  std::unique_ptr<Real[], deleter> data;
  std::size_t size = 0;

  aligned_array() = default;
  explicit aligned_array(std::size_t n) { resize(n); }
  void resize(std::size_t n) {
    data.reset(n ? static_cast<Real*>(::operator new[](n * sizeof(Real), std::align_val_t(64))) : nullptr);
    size = n;
  }
  Real* get() { return data.get(); }
  const Real* get() const { return data.get(); }
  Real& operator[](std::size_t i) { return data[i]; }
  const Real& operator[](std::size_t i) const { return data[i]; }
};

// Split table for w_n^e = exp(-2 pi i e / n), 0 <= e < n: w = hi[e >> shift] * lo[e & mask].
// Two small tables instead of one of n entries; each factor is correctly rounded, so
// the product is within about 1.5 ulp.
template <class Real>
struct split_roots {
  unsigned shift = 0;
  std::size_t mask = 0;
  aligned_array<Real> lo_re, lo_im, hi_re, hi_im;

  split_roots() = default;
  split_roots(std::size_t n, unsigned shift);
};

}  // namespace bigmul::fft
