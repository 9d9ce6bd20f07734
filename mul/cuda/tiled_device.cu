// SPDX-License-Identifier: LGPL-3.0-or-later
// CUDA tiled convolution: tile-pair + atomics and output-stationary variants
// (see mul/cuda/tiled_device.cuh).
#include "mul/cuda/tiled_device.cuh"

#include <cuda_runtime.h>

#include "prim/cuda/common.cuh"
#include "prim/cuda/grid.cuh"

namespace bigmul::detail::cuda {
namespace {

constexpr unsigned max_grid_x = 1u << 20;  // blocks loop (grid-stride) past this

using prim::cuda::grid_y;
unsigned grid_x(std::size_t items) { return static_cast<unsigned>(items < max_grid_x ? items : max_grid_x); }

__device__ __forceinline__ void atomic_add_u64(std::uint64_t* p, std::uint64_t v) {
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t), "64-bit atomics");
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}

// One block per (x-tile, y-tile) pair: thread t computes outputs t and t + T
// of the pair (T products together) and adds them to lo/hi[i0 + j0 + k].
__global__ void tile_pair_kernel(const std::uint32_t* x, std::size_t nx, const std::uint32_t* y, std::size_t ny,
                                 std::size_t G, std::size_t ntx, std::size_t pairs, std::uint64_t* lo_sum,
                                 std::uint64_t* hi_sum) {
  extern __shared__ std::uint32_t tiles[];
  const unsigned T = blockDim.x, t = threadIdx.x;
  std::uint32_t* xs = tiles;
  std::uint32_t* ys = tiles + T;
  const std::size_t nc = nx + ny - 1;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    const std::uint32_t* xg = x + g * nx;
    const std::uint32_t* yg = y + g * ny;
    for (std::size_t pr = blockIdx.x; pr < pairs; pr += gridDim.x) {
      const std::size_t i0 = (pr % ntx) * T, j0 = (pr / ntx) * T;
      xs[t] = i0 + t < nx ? xg[i0 + t] : 0u;
      ys[t] = j0 + t < ny ? yg[j0 + t] : 0u;
      __syncthreads();
      for (unsigned k = t; k < 2 * T - 1; k += T) {
        std::uint64_t lo = 0, hi = 0;
        tiled_hd::tile_pair_output(xs, ys, T, k, lo, hi);
        const std::size_t out = i0 + j0 + k;
        if (out < nc && (lo | hi) != 0) {
          atomic_add_u64(lo_sum + g * nc + out, lo);
          atomic_add_u64(hi_sum + g * nc + out, hi);
        }
      }
      __syncthreads();
    }
  }
}

__global__ void fold_kernel(const std::uint64_t* lo, const std::uint64_t* hi, std::size_t n, unsigned __int128* c) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = tiled_hd::fold(lo[i], hi[i]);
}

// One block per tile of T outputs: sweeps the x-tiles reaching them.
__global__ void output_stationary_kernel(const std::uint32_t* x, std::size_t nx, const std::uint32_t* y,
                                         std::size_t ny, std::size_t G, std::size_t out_tiles,
                                         unsigned __int128* c) {
  extern __shared__ std::uint32_t tiles[];
  const unsigned T = blockDim.x, t = threadIdx.x;
  std::uint32_t* xs = tiles;
  std::uint32_t* ys2 = tiles + T;  // 2T - 1 used
  const std::size_t nc = nx + ny - 1;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    const std::uint32_t* xg = x + g * nx;
    const std::uint32_t* yg = y + g * ny;
    for (std::size_t ot = blockIdx.x; ot < out_tiles; ot += gridDim.x) {
      const std::size_t k0 = ot * T;
      std::size_t first, end;
      tiled_hd::os_tile_range(k0, T, nx, ny, first, end);
      std::uint64_t lo = 0, hi = 0;
      for (std::size_t tile = first; tile < end; ++tile) {
        const std::size_t i0 = tile * T;
        xs[t] = i0 + t < nx ? xg[i0 + t] : 0u;
        for (unsigned q = t; q < 2 * T - 1; q += T) {
          const long long j = tiled_hd::os_y_index(k0, i0, T, q);
          ys2[q] = j >= 0 && static_cast<std::size_t>(j) < ny ? yg[j] : 0u;
        }
        __syncthreads();
        tiled_hd::os_output(xs, ys2, T, t, lo, hi);
        __syncthreads();
      }
      if (k0 + t < nc) c[g * nc + k0 + t] = tiled_hd::fold(lo, hi);
    }
  }
}

}  // namespace

cudaError_t tiled_convolution_device(void* d_temp, std::size_t& temp_bytes, const std::uint32_t* d_x,
                                     std::size_t nx, const std::uint32_t* d_y, std::size_t ny, std::size_t G,
                                     unsigned __int128* d_c, tiled_variant v, unsigned tile, cudaStream_t stream) {
  const unsigned T = tile ? tile : tiled_default_tile;
  if (T > tiled_max_tile) return cudaErrorInvalidValue;
  const std::size_t nc = nx && ny ? nx + ny - 1 : 0;
  prim::cuda::temp_carver carve(d_temp);
  const bool atomics = v == tiled_variant::tile_pair_atomic;
  std::uint64_t* lo = carve.take<std::uint64_t>(atomics ? G * nc : 0);
  std::uint64_t* hi = carve.take<std::uint64_t>(atomics ? G * nc : 0);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (temp_bytes < carve.bytes()) return cudaErrorInvalidValue;
  if (G == 0 || nc == 0) return cudaSuccess;
  const std::size_t smem = 3 * std::size_t{T} * sizeof(std::uint32_t);
  if (atomics) {
    if (cudaError_t e = cudaMemsetAsync(lo, 0, G * nc * sizeof(std::uint64_t), stream)) return e;
    if (cudaError_t e = cudaMemsetAsync(hi, 0, G * nc * sizeof(std::uint64_t), stream)) return e;
    const std::size_t ntx = prim::cuda::ceil_div(nx, T), nty = prim::cuda::ceil_div(ny, T);
    const dim3 grid(grid_x(ntx * nty), grid_y(G));
    tile_pair_kernel<<<grid, T, smem, stream>>>(d_x, nx, d_y, ny, G, ntx, ntx * nty, lo, hi);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
    const std::size_t total = G * nc;
    fold_kernel<<<grid_x(prim::cuda::ceil_div(total, 256)), 256, 0, stream>>>(lo, hi, total, d_c);
    return cudaPeekAtLastError();
  }
  const std::size_t out_tiles = prim::cuda::ceil_div(nc, T);
  const dim3 grid(grid_x(out_tiles), grid_y(G));
  output_stationary_kernel<<<grid, T, smem, stream>>>(d_x, nx, d_y, ny, G, out_tiles, d_c);
  return cudaPeekAtLastError();
}

}  // namespace bigmul::detail::cuda
