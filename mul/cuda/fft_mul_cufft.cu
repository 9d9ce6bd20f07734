// SPDX-License-Identifier: LGPL-3.0-or-later
// The cuFFT engine of the GPU FFT pass (see fft_mul_cufft.cuh).
#include "mul/cuda/fft_mul_cufft.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "fft/cuda/cufft_plans.cuh"

namespace bigmul::detail::cuda {
namespace {

#define BIGMUL_TRY(expr)                \
  do {                                  \
    const cudaError_t e_ = (expr);      \
    if (e_ != cudaSuccess) return e_;   \
  } while (0)

// Generic passes around cuFFT's transforms: a load functor into cuFFT's input,
// a store functor out of its output.
template <class Load, class C>
__global__ void apply_load_kernel(Load load, C* out, std::size_t len, std::size_t total) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < total;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = load(i / len, i % len);
}

// Every thread runs begin() / end() (the store protocol), whatever its share.
template <class Store, class C>
__global__ void apply_store_kernel(Store store, const C* in, std::size_t len, std::size_t total) {
  auto st = store.begin();
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < total;
       i += std::size_t{gridDim.x} * blockDim.x)
    store(st, i / len, i % len, in[i]);
  store.end(st);
}

unsigned grid_for(std::size_t total, unsigned block) {
  const std::size_t blocks = (total + block - 1) / block;
  return static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(blocks, 1), 65536));
}

template <class Real>
constexpr dfft::cufft_kind cufft_kind_of(bool real_layout) {
  if (std::is_same<Real, double>::value) return real_layout ? dfft::cufft_kind::d2z_z2d : dfft::cufft_kind::z2z;
  return real_layout ? dfft::cufft_kind::r2c_c2r : dfft::cufft_kind::c2c;
}

}  // namespace

template <class Real>
cudaError_t cufft_pass_work_bytes(bool real_layout, std::size_t n, std::size_t G, std::size_t& bytes) {
  return dfft::cufft_work_bytes(cufft_kind_of<Real>(real_layout), n, G, bytes);
}

template <class Real, bool Packed>
cudaError_t cufft_transforms(bool square, std::size_t n, std::size_t G, const digits_load<Real, Packed>& load_a,
                             const digits_load<Real, Packed>& load_b, const round_store<Real, Packed>& rounder,
                             dfft::cplx<Real>* A, dfft::cplx<Real>* B, void* ra, void* rb, void* work,
                             std::size_t work_bytes, phase_clock& clock, cudaStream_t st) {
  using C = dfft::cplx<Real>;
  constexpr unsigned block = 256;
  if (Packed) {  // cuFFT R2C / C2R
    Real* Ra = static_cast<Real*>(ra);
    Real* Rb = square ? Ra : static_cast<Real*>(rb);
    const std::size_t half = n / 2;
    apply_load_kernel<<<grid_for(G * half, block), block, 0, st>>>(load_a, reinterpret_cast<C*>(Ra), half, G * half);
    BIGMUL_TRY(cudaGetLastError());
    BIGMUL_TRY(dfft::cufft_forward_r2c(Ra, A, n, G, st, work, work_bytes));
    if (!square) {
      apply_load_kernel<<<grid_for(G * half, block), block, 0, st>>>(load_b, reinterpret_cast<C*>(Rb), half,
                                                                      G * half);
      BIGMUL_TRY(cudaGetLastError());
      BIGMUL_TRY(dfft::cufft_forward_r2c(Rb, B, n, G, st, work, work_bytes));
    }
    clock.mark();
    BIGMUL_TRY(dfft::cufft_pointwise_multiply_r2c(A, B, n, G, Real(1) / Real(n), st));
    clock.mark();
    BIGMUL_TRY(dfft::cufft_inverse_c2r(A, Ra, n, G, st, work, work_bytes));
    apply_store_kernel<<<grid_for(G * half, block), block, 0, st>>>(rounder, reinterpret_cast<const C*>(Ra), half,
                                                                     G * half);
    BIGMUL_TRY(cudaGetLastError());
    clock.mark();
  } else {  // cuFFT C2C
    apply_load_kernel<<<grid_for(G * n, block), block, 0, st>>>(load_a, A, n, G * n);
    BIGMUL_TRY(cudaGetLastError());
    BIGMUL_TRY(dfft::cufft_forward_c2c(A, A, n, G, st, work, work_bytes));
    if (!square) {
      apply_load_kernel<<<grid_for(G * n, block), block, 0, st>>>(load_b, B, n, G * n);
      BIGMUL_TRY(cudaGetLastError());
      BIGMUL_TRY(dfft::cufft_forward_c2c(B, B, n, G, st, work, work_bytes));
    }
    clock.mark();
    BIGMUL_TRY(dfft::cufft_pointwise_multiply_c2c(A, B, n, G, Real(1) / Real(n), st));
    clock.mark();
    BIGMUL_TRY(dfft::cufft_inverse_c2c(A, A, n, G, st, work, work_bytes));
    apply_store_kernel<<<grid_for(G * n, block), block, 0, st>>>(rounder, A, n, G * n);
    BIGMUL_TRY(cudaGetLastError());
    clock.mark();
  }
  return cudaSuccess;
}

template cudaError_t cufft_pass_work_bytes<double>(bool, std::size_t, std::size_t, std::size_t&);
template cudaError_t cufft_pass_work_bytes<float>(bool, std::size_t, std::size_t, std::size_t&);
#define BIGMUL_CUFFT_TRANSFORMS(Real, Packed)                                                                       \
  template cudaError_t cufft_transforms<Real, Packed>(                                                              \
      bool, std::size_t, std::size_t, const digits_load<Real, Packed>&, const digits_load<Real, Packed>&,         \
      const round_store<Real, Packed>&, dfft::cplx<Real>*, dfft::cplx<Real>*, void*, void*, void*, std::size_t, \
      phase_clock&, cudaStream_t);
BIGMUL_CUFFT_TRANSFORMS(double, true)
BIGMUL_CUFFT_TRANSFORMS(double, false)
BIGMUL_CUFFT_TRANSFORMS(float, true)
BIGMUL_CUFFT_TRANSFORMS(float, false)
#undef BIGMUL_CUFFT_TRANSFORMS

}  // namespace bigmul::detail::cuda
