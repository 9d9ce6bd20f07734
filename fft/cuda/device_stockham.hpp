// SPDX-License-Identifier: LGPL-3.0-or-later
// Radix-2..16 in-register DFTs and one Stockham autosort stage of the in-house GPU
// FFT's in-tile transform (the scheme: fft/cuda/device_fft_plan.hpp). Plain C++17,
// BIGMUL_HD: the CPU model test runs the same stages.
#pragma once

#include <cstddef>
#include <type_traits>

#include "bigmul/hd.hpp"
#include "fft/cuda/device_complex.hpp"
#include "fft/cuda/device_fft_plan.hpp"

namespace bigmul::fft::cuda::plan {

// In-register DFT of R = 2, 4, 8, 16 points, natural order in and out (radix-2
// decimation in time, all indices compile-time constants).
template <int R, bool Inv, class C>
struct dft {
  template <int K = 0>
  static BIGMUL_HD void combine(C* v, const C* e, const C* o) {
    if constexpr (K < R / 2) {
      const C t = mul_root<R, K, Inv>(o[K]);
      v[K] = c_add(e[K], t);
      v[K + R / 2] = c_sub(e[K], t);
      combine<K + 1>(v, e, o);
    }
  }
  template <int I = 0>
  static BIGMUL_HD void split(const C* v, C* e, C* o) {
    if constexpr (I < R / 2) {
      e[I] = v[2 * I];
      o[I] = v[2 * I + 1];
      split<I + 1>(v, e, o);
    }
  }
  static BIGMUL_HD void run(C* v) {
    C e[R / 2], o[R / 2];
    split(v, e, o);
    dft<R / 2, Inv, C>::run(e);
    dft<R / 2, Inv, C>::run(o);
    combine(v, e, o);
  }
};
template <bool Inv, class C>
struct dft<2, Inv, C> {
  static BIGMUL_HD void run(C* v) {
    const C a = v[0], b = v[1];
    v[0] = c_add(a, b);
    v[1] = c_sub(a, b);
  }
};

// ---- one Stockham stage ----------------------------------------------------------
// A thread owns butterflies tid + i*threads, i < V/R; v[i*R + r] holds input r.

// Read phase: get(lane, idx) gives element idx (along j) of the lane.
template <int R, class C, class Get>
BIGMUL_HD void stage_read(const pass_desc& d, unsigned tid, C* v, const Get& get) {
  constexpr unsigned log_r = ilog2(R);
  const unsigned log_q = d.log_m - log_r;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (unsigned i = 0; i < elems_per_thread / R; ++i) {
    unsigned lane, j;
    butterfly_coords(d, log_q, tid + std::size_t(i) * d.threads, lane, j);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned r = 0; r < unsigned(R); ++r) v[i * R + r] = get(lane, j + (r << log_q));
  }
}

// Compute and write phase: twiddle, DFT_R, put(lane, idx, value). tw(e) gives
// w_M^e from the block table of M = 2^log_table entries; log_ns = log2(Ns).
template <int R, bool Inv, class C, class Tw, class Put>
BIGMUL_HD void stage_write(const pass_desc& d, unsigned tid, unsigned log_ns, unsigned log_table, C* v, const Tw& tw,
                           const Put& put) {
  constexpr unsigned log_r = ilog2(R);
  const unsigned log_q = d.log_m - log_r;
  const unsigned ns_mask = (1u << log_ns) - 1;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (unsigned i = 0; i < elems_per_thread / R; ++i) {
    unsigned lane, j;
    butterfly_coords(d, log_q, tid + std::size_t(i) * d.threads, lane, j);
    const unsigned k = j & ns_mask;
    if (log_ns > 0) {
      const unsigned tshift = log_table - log_ns - log_r;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (unsigned r = 1; r < unsigned(R); ++r) {
        const C w = tw((k * r) << tshift);
        v[i * R + r] = Inv ? c_mul_conj(v[i * R + r], w) : c_mul(v[i * R + r], w);
      }
    }
    dft<R, Inv, C>::run(v + i * R);
    const unsigned base = ((j >> log_ns) << (log_ns + log_r)) + k;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned r = 0; r < unsigned(R); ++r) put(lane, base + (r << log_ns), v[i * R + r]);
  }
}

// Calls f(std::integral_constant<int, R>{}) for the radix R = 2^log_r (log_r = 1..4).
template <class F>
BIGMUL_HD void with_radix(unsigned log_r, F&& f) {
  switch (log_r) {
    case 1: f(std::integral_constant<int, 2>{}); break;
    case 2: f(std::integral_constant<int, 4>{}); break;
    case 3: f(std::integral_constant<int, 8>{}); break;
    default: f(std::integral_constant<int, 16>{}); break;
  }
}

}  // namespace bigmul::fft::cuda::plan
