// SPDX-License-Identifier: LGPL-3.0-or-later
// The single-pass balanced split (mul/cuda/split_fused.cuh); the per-period
// and per-tile arithmetic is mul/cuda/split_fused_hd.hpp, shared with the CPU
// block emulator of tests/mul/test_split_fused_model.cpp.
#include "mul/cuda/split_fused.cuh"

#include <cuda_runtime.h>

#include "carry/digit_base.hpp"
#include "mul/coefficients_impl.hpp"
#include "mul/cuda/coefficients_hd.hpp"
#include "mul/cuda/split_fused_hd.hpp"
#include "prim/cuda/block_scan.cuh"
#include "prim/cuda/common.cuh"
#include "prim/cuda/grid.cuh"
#include "prim/cuda/lookback_tile.cuh"

namespace bigmul::detail::cuda {
namespace {

using split_hd::code_identity;
using split_hd::code_op;
using split_hd::threads;
using split_hd::tiling;

// One tile per block and product: tiles taken in launch order from a ticket
// per product (a tile's predecessors are then running or done, so the
// look-back cannot wait on an unscheduled block). Staged tiles are written
// digit-major through shared memory, one coalesced sweep.
template <class Src>
__global__ void __launch_bounds__(threads)
    split_fused_kernel(Src src, const limb_t* a, std::size_t n, std::size_t G, tiling t, std::uint64_t B,
                       std::uint64_t* desc, unsigned* tickets, std::int32_t* out) {
  using scan = prim::cuda::block_scan<std::uint32_t, threads>;
  __shared__ typename scan::storage st;
  __shared__ std::int32_t stage[split_hd::stage_capacity];
  __shared__ std::size_t s_tile;
  __shared__ std::uint32_t s_prefix;
  const std::size_t tiles = t.tiles();
  const std::uint32_t identity = code_identity;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    if (threadIdx.x == 0) s_tile = atomicAdd(&tickets[g], 1u);
    __syncthreads();
    const std::size_t tile = s_tile;
    const limb_t* ag = a + g * n;
    std::int32_t* og = out + g * (t.total + 1);
    const std::size_t p = t.first_period(tile) + threadIdx.x;
    std::uint32_t aggregate;
    const std::uint32_t excl =
        scan(st).exclusive(split_hd::period_code(src, ag, n, t, B, p), code_op{}, identity, aggregate);
    if (threadIdx.x < 32) {
      const std::uint32_t prefix =
          prim::cuda::lookback_tile_prefix(desc + g * tiles, tile, aggregate, code_op{}, identity);
      if (threadIdx.x == 0) s_prefix = prefix;
    }
    __syncthreads();
    if (p < t.periods) {
      std::int32_t* dst = t.staged() ? stage + threadIdx.x * t.pd : og + p * t.pd;
      const std::uint32_t top = split_hd::period_emit(src, ag, n, t, B, p, split_hd::carry_in(s_prefix, excl), dst);
      if (p + 1 == t.periods) og[t.total] = static_cast<std::int32_t>(top);
    }
    if (t.staged()) {
      __syncthreads();
      const std::size_t first = t.first_digit(tile), count = t.digits(tile);
      for (std::size_t i = threadIdx.x; i < count; i += threads) og[first + i] = stage[i];
    }
    __syncthreads();  // the stage, s_tile and s_prefix serve the next product
  }
}

template <class Src>
cudaError_t fused_run(void* d_temp, std::size_t& temp_bytes, Src src, const limb_t* d_a, std::size_t n,
                      std::size_t G, coeff_format f, std::int32_t* d_out, cudaStream_t stream) {
  const std::size_t total = f.count(n);
  const tiling t{prim::cuda::ceil_div(total, src.pd), threads, src.pd, total};
  const std::size_t tiles = t.tiles();
  // Descriptors, then one ticket per product (in whole words): one memset.
  const std::size_t words = G * tiles + G;
  prim::cuda::temp_carver carve(d_temp);
  std::uint64_t* desc = carve.take<std::uint64_t>(words);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (temp_bytes < carve.bytes()) return cudaErrorInvalidValue;
  if (G == 0) return cudaSuccess;
  if (t.periods == 0)  // n == 0: the single value 0 per operand
    return cudaMemsetAsync(d_out, 0, G * sizeof(std::int32_t), stream);
  if (cudaError_t e = cudaMemsetAsync(desc, 0, words * sizeof(std::uint64_t), stream)) return e;
  auto* tickets = reinterpret_cast<unsigned*>(desc + G * tiles);
  const dim3 grid(static_cast<unsigned>(tiles), prim::cuda::grid_y(G));
  split_fused_kernel<Src><<<grid, threads, 0, stream>>>(src, d_a, n, G, t, f.base(), desc, tickets, d_out);
  return cudaPeekAtLastError();
}

}  // namespace

cudaError_t split_balanced_fused_device_batched(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a,
                                                std::size_t n, std::size_t G, coeff_format f, std::int32_t* d_out,
                                                cudaStream_t stream) {
  if (!f.valid()) return cudaErrorInvalidValue;
  if (f.rx == radix::binary) {
    const coeff_hd::binary_src src{f.digits, period_digits(f), period_limbs(f)};
    return fused_run(d_temp, temp_bytes, src, d_a, n, G, f, d_out, stream);
  }
  return carry::with_decimal_digits(f.digits, [&](auto K) {
    return fused_run(d_temp, temp_bytes, coeff_hd::decimal_src<decltype(K)::value>{}, d_a, n, G, f, d_out, stream);
  });
}

}  // namespace bigmul::detail::cuda
