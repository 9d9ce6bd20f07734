// SPDX-License-Identifier: LGPL-3.0-or-later
// Load / store functors of the GPU FFT pass (internal to mul/), shared by its two
// engines: the in-house FFT runs them inside its first and last passes, the
// cuFFT engine (fft_mul_cufft.cu) in passes of their own around cuFFT's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fft/cuda/device_fft.cuh"
#include "fft/cuda/device_roundoff.hpp"
#include "mul/fft_round.hpp"

namespace bigmul::detail::cuda {

namespace dfft = bigmul::fft::cuda;

// Balanced int32 digits -> transform input. Packed (real FFT): element l is
// x_2l + i x_2l+1; complex: x_l + 0i. Zero past the operand.
template <class Real, bool Packed>
struct digits_load {
  const std::int32_t* d;
  std::size_t count;  // digits per problem (also the stride)
  __device__ dfft::cplx<Real> operator()(std::size_t b, std::size_t idx) const {
    const std::int32_t* p = d + b * count;
    dfft::cplx<Real> v;
    if (Packed) {
      const std::size_t i = 2 * idx;
      v.x = i < count ? static_cast<Real>(p[i]) : Real(0);
      v.y = i + 1 < count ? static_cast<Real>(p[i + 1]) : Real(0);
    } else {
      v.x = idx < count ? static_cast<Real>(p[idx]) : Real(0);
      v.y = Real(0);
    }
    return v;
  }
};

// Where the round-off statistics of a pass accumulate (device memory).
struct roundoff_sink {
  unsigned long long max_bits;  // max |x - round(x)| as the bits of a non-negative double (ordered like the values)
  double err2;                  // sum (x - round(x))^2
  double val2;                  // sum round(x)^2
};

// Inverse output -> rounded int64 coefficients, measuring the round-off (the
// same per-element arithmetic as the CPU pipeline: round_coefficient).
// Slots past the product must be ~0 (a large value there means the cyclic
// convolution wrapped), and in the complex layout imaginary parts must be ~0.
template <class Real, bool Packed>
struct round_store {
  std::int64_t* c;
  std::size_t nc;  // coefficients per product (also the stride)
  Real scale;
  roundoff_sink* sink;
  struct state {
    double err, e2, v2;
  };
  __device__ state begin() const { return {0, 0, 0}; }
  __device__ void one(state& st, std::size_t b, std::size_t i, Real x) const {
    x *= scale;
    if (i < nc) {
      std::int64_t r;
      const double e = static_cast<double>(round_coefficient(x, r));
      c[b * nc + i] = r;
      st.err = dfft::plan::worse_error(st.err, e);
      st.e2 += e * e;
      st.v2 += static_cast<double>(r) * static_cast<double>(r);
    } else {
      st.err = dfft::plan::worse_error(st.err, static_cast<double>(abs_of(x)));
    }
  }
  __device__ void operator()(state& st, std::size_t b, std::size_t idx, dfft::cplx<Real> v) const {
    if (Packed) {
      one(st, b, 2 * idx, v.x);
      one(st, b, 2 * idx + 1, v.y);
    } else {
      one(st, b, idx, v.x);
      st.err = dfft::plan::worse_error(st.err, static_cast<double>(abs_of(v.y * scale)));
    }
  }
  // Every thread of the block calls end(): warp reduction, one atomic per warp.
  // NaN stays sticky through the reduction (fmax would drop it), and the value given
  // to atomicMax has a clear sign bit (the bits of -0.0, e.g. |x - round(x)| for
  // x = -0.0, are the largest of all and would hide every real error).
  __device__ void end(state& st) const {
    for (int o = 16; o > 0; o >>= 1) {
      st.err = dfft::plan::worse_error(st.err, __shfl_down_sync(0xffffffffu, st.err, o));
      st.e2 += __shfl_down_sync(0xffffffffu, st.e2, o);
      st.v2 += __shfl_down_sync(0xffffffffu, st.v2, o);
    }
    if ((threadIdx.x & 31) == 0) {
      const double m = dfft::plan::error_for_atomic_max(st.err);
      atomicMax(&sink->max_bits, static_cast<unsigned long long>(__double_as_longlong(m)));
      atomicAdd(&sink->err2, st.e2);
      atomicAdd(&sink->val2, st.v2);
    }
  }
};

}  // namespace bigmul::detail::cuda
