// SPDX-License-Identifier: LGPL-3.0-or-later
// CUDA twin of carry_normalize_two_phase: kernels and the CUB-shaped entry
// points (see carry/cuda/carry_device.cuh for the algorithm).
#include "carry/cuda/carry_device.cuh"

#include <cuda_runtime.h>

#include "prim/cuda/common.cuh"
#include "prim/cuda/grid.cuh"
#include "prim/cuda/carry_scan_space.cuh"
#include "prim/cuda/warp_totals.cuh"

namespace bigmul::carry::cuda {
namespace {

using prim::carry_gp;
using prim::carry_op;

constexpr unsigned spread_threads = 256;
using prim::cuda::grid_y;
using warp_pairs = prim::cuda::warp_totals<carry_gp, carry_threads>;

// One spread round: out[g * out_stride + p] for p < n_out, gather form.
template <class T, class Base>
__global__ void spread_kernel(const T* in, std::size_t n_in, std::size_t in_stride, unsigned D, bool signed_top,
                              Base base, std::int64_t* out, std::size_t n_out, std::size_t out_stride,
                              std::size_t G) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    const T* ig = in + g * in_stride;
    std::int64_t* og = out + g * out_stride;
    for (std::size_t p = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; p < n_out; p += stride)
      og[p] = hd::gather_position(base, ig, n_in, p, D, signed_top);
  }
}

// The t values and (g, p) masks of one warp's carry_items rounds of 32
// positions; positions at or past M propagate (the identity). The warp's
// (g, p) pair goes to `pairs` (every thread of the block calls this).
template <class Base>
__device__ __forceinline__ void warp_flags(const Base& base, const std::int64_t* s, std::size_t ns, std::size_t M,
                                           std::size_t first, unsigned lane, std::int64_t (&t)[carry_items],
                                           std::uint32_t (&gm)[carry_items], std::uint32_t (&pm)[carry_items],
                                           warp_pairs& pairs) {
  const auto B = static_cast<std::int64_t>(base.base());
  carry_gp agg = prim::carry_identity;
#pragma unroll
  for (unsigned r = 0; r < carry_items; ++r) {
    const std::size_t p = first + r * 32 + lane;
    const bool in = p < M;
    t[r] = in ? hd::phase2_t(base, s, ns, p) : 0;
    gm[r] = __ballot_sync(prim::cuda::full_warp, in && t[r] >= B);
    pm[r] = __ballot_sync(prim::cuda::full_warp, !in || t[r] == B - 1);
    agg = carry_op{}(agg, hd::warp_pair(gm[r], pm[r]));
  }
  pairs.publish(agg);
}

// Phase 2, pass 1: one (g, p) pair per block of carry_block_positions
// positions into pairs[g * (nblk + 1) + block]; block 0 also writes the
// problem's closing kill pair and sets d_ok[g] = 1 (pass 2 clears it).
template <class Base>
__global__ void __launch_bounds__(carry_threads) fold_kernel(const std::int64_t* s, std::size_t ns,
                                                             std::size_t s_stride, std::size_t M, std::size_t G,
                                                             std::size_t nblk, Base base, carry_gp* pairs,
                                                             int* d_ok) {
  __shared__ warp_pairs warp_agg;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::size_t first = std::size_t{blockIdx.x} * carry_block_positions + std::size_t{warp} * 32 * carry_items;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    std::int64_t t[carry_items];
    std::uint32_t gm[carry_items], pm[carry_items];
    warp_flags(base, s + g * s_stride, ns, M, first, lane, t, gm, pm, warp_agg);
    if (threadIdx.x == 0) {
      pairs[g * (nblk + 1) + blockIdx.x] = warp_agg.fold(warp_pairs::warps, prim::carry_identity, carry_op{});
      if (blockIdx.x == 0) {
        pairs[g * (nblk + 1) + nblk] = carry_gp{0, 0};  // kill: no carry into problem g + 1
        d_ok[g] = 1;
      }
    }
    __syncthreads();
  }
}

// Phase 2, pass 2: block carry-in from the exclusive scan, warp carry-ins
// from the warp pairs, lane carries from warp_carry_bits; digits below m are
// written, digits in [m, M) and the carry out of M - 1 decide d_ok.
template <class Base>
__global__ void __launch_bounds__(carry_threads) emit_kernel(const std::int64_t* s, std::size_t ns,
                                                             std::size_t s_stride, std::size_t M, std::size_t m,
                                                             std::size_t G, std::size_t nblk, Base base,
                                                             const carry_gp* scanned, std::uint32_t* out,
                                                             int* d_ok) {
  __shared__ warp_pairs warp_agg;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::size_t first = std::size_t{blockIdx.x} * carry_block_positions + std::size_t{warp} * 32 * carry_items;
  const auto B = static_cast<std::int64_t>(base.base());
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    std::int64_t t[carry_items];
    std::uint32_t gm[carry_items], pm[carry_items];
    warp_flags(base, s + g * s_stride, ns, M, first, lane, t, gm, pm, warp_agg);
    // The block's carry-in through the warps below this one: folded onto
    // the pair (cin, 0), whose g is the carry out of them.
    std::uint32_t cin =
        warp_agg.fold(warp, carry_gp{scanned[g * (nblk + 1) + blockIdx.x].g, 0}, carry_op{}).g;
    if (hd::emit_positions(t, gm, pm, cin, first, lane, M, m, B, out + g * m)) d_ok[g] = 0;
    __syncthreads();
  }
}

template <class T, class Base>
cudaError_t run(void* d_temp, std::size_t& temp_bytes, const T* d_c, std::size_t nc, std::size_t G,
                const Base& base, const carry_plan& plan, std::uint32_t* d_out, std::size_t m, int* d_ok,
                cudaStream_t stream) {
  const std::size_t ns = plan.ns, M = plan.M;
  const std::size_t nblk = prim::cuda::ceil_div(M, carry_block_positions);
  const std::size_t npairs = G * (nblk + 1);
  prim::cuda::temp_carver carve(d_temp);
  std::int64_t* buf[2];
  buf[0] = carve.take<std::int64_t>(G * ns);
  buf[1] = carve.take<std::int64_t>(plan.rounds > 1 ? G * ns : 0);
  prim::cuda::carry_scan_space look_ahead;
  if (cudaError_t e = look_ahead.carve(carve, npairs, stream)) return e;
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (temp_bytes < carve.bytes()) return cudaErrorInvalidValue;
  if (G == 0) return cudaSuccess;

  // Phase 1: the spread rounds, ping-ponging between the two buffers.
  const std::int64_t* s = nullptr;
  for (unsigned r = 0; r < plan.rounds; ++r) {
    std::int64_t* o = buf[r & 1];
    if (plan.n_out[r] > 0) {
      const dim3 grid(static_cast<unsigned>(prim::cuda::ceil_div(plan.n_out[r], spread_threads)), grid_y(G));
      if (r == 0)
        spread_kernel<T, Base><<<grid, spread_threads, 0, stream>>>(d_c, plan.n_in[0], nc, plan.D[0],
                                                                     plan.signed_top[0], base, o, plan.n_out[0],
                                                                     ns, G);
      else
        spread_kernel<std::int64_t, Base><<<grid, spread_threads, 0, stream>>>(
            s, plan.n_in[r], ns, plan.D[r], plan.signed_top[r], base, o, plan.n_out[r], ns, G);
      if (cudaError_t e = cudaPeekAtLastError()) return e;
    }
    s = o;
  }

  // Phase 2.
  const dim3 grid(static_cast<unsigned>(nblk), grid_y(G));
  fold_kernel<Base><<<grid, carry_threads, 0, stream>>>(s, ns, ns, M, G, nblk, base, look_ahead.pairs, d_ok);
  if (cudaError_t e = cudaPeekAtLastError()) return e;
  if (cudaError_t e = look_ahead.scan(stream)) return e;
  emit_kernel<Base><<<grid, carry_threads, 0, stream>>>(s, ns, ns, M, m, G, nblk, base, look_ahead.scanned, d_out,
                                                        d_ok);
  return cudaPeekAtLastError();
}

}  // namespace

template <class T>
cudaError_t carry_normalize_device_batched(void* d_temp, std::size_t& temp_bytes, const T* d_c, std::size_t nc,
                                           std::size_t G, digit_base b, std::uint32_t* d_out, std::size_t m,
                                           int* d_ok, cudaStream_t stream, std::uint64_t max_abs) {
  carry_plan plan;
  if (!make_carry_plan<T>(b, nc, m, max_abs, plan)) return cudaErrorInvalidValue;
  return with_base(b, [&](auto base) {
    return run<T>(d_temp, temp_bytes, d_c, nc, G, base, plan, d_out, m, d_ok, stream);
  });
}

template <class T>
cudaError_t carry_normalize_device(void* d_temp, std::size_t& temp_bytes, const T* d_c, std::size_t nc,
                                   digit_base b, std::uint32_t* d_out, std::size_t m, int* d_ok,
                                   cudaStream_t stream, std::uint64_t max_abs) {
  return carry_normalize_device_batched<T>(d_temp, temp_bytes, d_c, nc, 1, b, d_out, m, d_ok, stream, max_abs);
}

#define BIGMUL_CARRY_DEVICE_INSTANTIATE(T)                                                                       \
  template cudaError_t carry_normalize_device<T>(void*, std::size_t&, const T*, std::size_t, digit_base,         \
                                                 std::uint32_t*, std::size_t, int*, cudaStream_t, std::uint64_t); \
  template cudaError_t carry_normalize_device_batched<T>(void*, std::size_t&, const T*, std::size_t, std::size_t, \
                                                         digit_base, std::uint32_t*, std::size_t, int*,           \
                                                         cudaStream_t, std::uint64_t);
BIGMUL_CARRY_DEVICE_INSTANTIATE(std::int64_t)
BIGMUL_CARRY_DEVICE_INSTANTIATE(unsigned __int128)
#undef BIGMUL_CARRY_DEVICE_INSTANTIATE

}  // namespace bigmul::carry::cuda
