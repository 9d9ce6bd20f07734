// SPDX-License-Identifier: LGPL-3.0-or-later
// The single-pass carry (carry/cuda/carry_fused.cuh); per-position and
// per-tile arithmetic in carry/cuda/carry_fused_hd.hpp, shared with the CPU
// block emulator of tests/carry/test_carry_fused_model.cpp.
#include "carry/cuda/carry_fused.cuh"

#include <cuda_runtime.h>

#include "carry/cuda/carry_device.cuh"
#include "carry/cuda/carry_fused_hd.hpp"
#include "carry/cuda/carry_fused_tile.cuh"
#include "prim/cuda/carry_code_hd.hpp"
#include "prim/cuda/common.cuh"
#include "prim/cuda/grid.cuh"
#include "prim/cuda/lookback_tile.cuh"

namespace bigmul::carry::cuda {
namespace {

namespace code = bigmul::prim::carry_code;
constexpr unsigned warps = carry_threads / 32;
constexpr std::size_t P = fused_hd::tile_positions;

// Per product: look-back descriptors (tiles words), then ticket, bad and done
// counters, all zero at launch (one memset).
struct product_state {
  unsigned ticket, bad, done, pad;
};

// One tile of P positions per block and product, tiles by ticket. s for the
// tile and its one-position halo goes to shared memory; each warp resolves
// carry_items runs of 32 positions; the last tile of a product to finish
// writes its ok flag.
template <class T, class Base>
__global__ void __launch_bounds__(carry_threads)
    carry_fused_kernel(const T* c, std::size_t nc, std::size_t G, Base base, unsigned D, bool signed_top,
                       std::size_t ns, std::size_t M, std::size_t m, std::uint64_t* desc, product_state* state,
                       std::uint32_t* out, int* d_ok) {
  __shared__ std::int64_t s_sh[P + 1];
  __shared__ std::uint32_t codes[warps];
  __shared__ std::size_t s_tile;
  __shared__ std::uint32_t s_prefix;
  __shared__ int s_bad;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const fused_hd::tiling tl{M, P};
  const std::size_t tiles = tl.tiles();
  const auto B = static_cast<std::int64_t>(base.base());
  // A 32-bit product counter: a 64-bit one kept across the loop costs an 8-byte spill (ptxas sm_90).
  for (unsigned gy = blockIdx.y; gy < G; gy += gridDim.y) {
    const std::size_t g = gy;
    if (threadIdx.x == 0) {
      s_tile = atomicAdd(&state[g].ticket, 1u);
      s_bad = 0;
    }
    __syncthreads();
    const std::size_t tile = s_tile, first = tile * P;
    const T* cg = c + g * nc;
    for (std::size_t i = threadIdx.x; i <= P; i += carry_threads)  // s_sh[i]: position first + i - 1
      s_sh[i] = first + i == 0 ? 0 : fused_hd::position_s(base, cg, nc, ns, D, signed_top, first + i - 1);
    __syncthreads();
    std::int64_t t[carry_items];
    std::uint32_t gm[carry_items], pm[carry_items];
    const std::uint32_t tile_carry = fused_tile::tile_carry_in<carry_items, warps>(
        base, s_sh, first, M, B, t, gm, pm, codes, &s_prefix, desc, g, tiles, tile);
    std::uint32_t cin = fused_hd::warp_carry_in(tile_carry, codes, warp);
    const bool bad = hd::emit_positions(t, gm, pm, cin, first + std::size_t{warp} * 32 * carry_items, lane, M, m, B,
                                        out + g * m);
    if (__syncthreads_or(bad) && threadIdx.x == 0) atomicOr(&state[g].bad, 1u);
    if (threadIdx.x == 0) {
      __threadfence();  // the bad flag before the done ticket
      if (atomicAdd(&state[g].done, 1u) == tiles - 1) d_ok[g] = atomicOr(&state[g].bad, 0u) ? 0 : 1;
    }
    __syncthreads();  // s_sh, codes, s_tile, s_prefix and s_bad serve the next product
  }
}

template <class T, class Base>
cudaError_t fused_run(void* d_temp, std::size_t& temp_bytes, const T* d_c, std::size_t nc, std::size_t G,
                      const Base& base, const carry_plan& plan, std::uint32_t* d_out, std::size_t m, int* d_ok,
                      cudaStream_t stream) {
  const fused_hd::tiling tl{plan.M, P};
  const std::size_t tiles = tl.tiles();
  prim::cuda::temp_carver carve(d_temp);
  std::uint64_t* desc = carve.take<std::uint64_t>(G * tiles + 2 * G);  // + G product_state (16 bytes each)
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (temp_bytes < carve.bytes()) return cudaErrorInvalidValue;
  if (G == 0) return cudaSuccess;
  if (G > 0xffffffffu) return cudaErrorInvalidValue;  // the kernel counts products in 32 bits
  if (cudaError_t e = cudaMemsetAsync(desc, 0, (G * tiles + 2 * G) * sizeof(std::uint64_t), stream)) return e;
  auto* state = reinterpret_cast<product_state*>(desc + G * tiles);
  const dim3 grid(static_cast<unsigned>(tiles), prim::cuda::grid_y(G));
  carry_fused_kernel<T, Base><<<grid, carry_threads, 0, stream>>>(d_c, nc, G, base, plan.D[0], plan.signed_top[0],
                                                                  plan.ns, plan.M, m, desc, state, d_out, d_ok);
  return cudaPeekAtLastError();
}

}  // namespace

template <class T>
cudaError_t carry_normalize_fused_device_batched(void* d_temp, std::size_t& temp_bytes, const T* d_c,
                                                 std::size_t nc, std::size_t G, digit_base b, std::uint32_t* d_out,
                                                 std::size_t m, int* d_ok, cudaStream_t stream,
                                                 std::uint64_t max_abs) {
  carry_plan plan;
  if (!make_carry_plan<T>(b, nc, m, max_abs, plan)) return cudaErrorInvalidValue;
  if (!fused_hd::fusable(plan))
    return carry_normalize_device_batched<T>(d_temp, temp_bytes, d_c, nc, G, b, d_out, m, d_ok, stream, max_abs);
  return with_base(b, [&](auto base) {
    return fused_run<T>(d_temp, temp_bytes, d_c, nc, G, base, plan, d_out, m, d_ok, stream);
  });
}

template cudaError_t carry_normalize_fused_device_batched<std::int64_t>(void*, std::size_t&, const std::int64_t*,
                                                                        std::size_t, std::size_t, digit_base,
                                                                        std::uint32_t*, std::size_t, int*,
                                                                        cudaStream_t, std::uint64_t);

}  // namespace bigmul::carry::cuda
