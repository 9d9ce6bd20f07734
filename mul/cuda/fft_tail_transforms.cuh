// SPDX-License-Identifier: LGPL-3.0-or-later
// The in-house engine's transforms with the product tail (fft_job::fused_tail,
// BIGMUL_GPU_FUSED_TAIL=1; fft/cuda/device_fft_tail.cuh): the forward passes but the
// last of each operand into its spectrum buffer, one kernel for the last forward pass
// of both, the product and the first inverse pass (into A), then the other inverse
// passes into the rounding store. One pass (n <= S): the whole product is the one kernel
// from the digits to the rounding store. Same arithmetic as forward + pointwise +
// inverse, in the same order (the CPU model checks the results bit for bit).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "fft/cuda/device_fft.cuh"
#include "fft/cuda/device_fft_tail.cuh"
#include "mul/cuda/phase_clock.cuh"

namespace bigmul::detail::cuda {

template <class Real, bool Packed, class Plan>
const fft::cuda::device_complex_fft<Real>& tail_half_plan(const Plan& plan) {
  if constexpr (Packed) {
    return plan.half_plan();
  } else {
    return plan;
  }
}

// Whether the plan takes the tail (a packed plan of several passes needs two rows a
// tile in its last pass; otherwise the caller keeps forward + pointwise + inverse).
template <class Real, bool Packed, class Plan>
bool tail_fits(const Plan& plan) {
  return fft::cuda::product_tail_supported<Real>(tail_half_plan<Real, Packed>(plan), Packed);
}

// n: the transform's real length (packed) or points (complex): the product's scale 1/n.
// Marks the clock after the forward head, after the tail and after the inverse rest.
template <class Real, bool Packed, class Plan, class Load, class Store>
cudaError_t tail_transforms(const Plan& plan, bool square, std::size_t n, const Load& load_a, const Load& load_b,
                            const Store& rounder, fft::cuda::cplx<Real>* A, fft::cuda::cplx<Real>* B,
                            phase_clock& clock, cudaStream_t st) {
  namespace dfft = fft::cuda;
  const dfft::device_complex_fft<Real>& half = tail_half_plan<Real, Packed>(plan);
  const dfft::detail::device_tables<Real>* roots = nullptr;
  if constexpr (Packed) roots = &plan.roots();
  const Real scale = Real(1) / Real(n);
  cudaError_t e = cudaSuccess;
  if (half.plan_desc().npasses == 1) {
    clock.mark();
    e = square ? dfft::product_tail<Real, Packed, true>(half, roots, scale, load_a, load_a, rounder, st)
               : dfft::product_tail<Real, Packed, false>(half, roots, scale, load_a, load_b, rounder, st);
    clock.mark();
    clock.mark();
    return e;
  }
  e = dfft::forward_head<Real>(half, load_a, A, st);
  if (e == cudaSuccess && !square) e = dfft::forward_head<Real>(half, load_b, B, st);
  if (e != cudaSuccess) return e;
  clock.mark();
  const dfft::array_load<Real> la{A, half.size()}, lb{B, half.size()};
  const dfft::array_store<Real> sa{A, half.size()};
  e = square ? dfft::product_tail<Real, Packed, true>(half, roots, scale, la, la, sa, st)
             : dfft::product_tail<Real, Packed, false>(half, roots, scale, la, lb, sa, st);
  if (e != cudaSuccess) return e;
  clock.mark();
  e = dfft::inverse_rest<Real>(half, A, rounder, st);
  clock.mark();
  return e;
}

}  // namespace bigmul::detail::cuda
