// SPDX-License-Identifier: LGPL-3.0-or-later
// Batched small sort on the device (see device_sort.cuh): every problem's
// keys sit in shared memory; thread j of a problem owns the quad p, p^m2,
// p^m1, p^m1^m2 of two consecutive network steps (m1, m2) and exchanges it
// twice in registers between barriers, so a stage of s steps costs about
// s/2 barriers. Several problems share a block when N is small.
#pragma once

#include <type_traits>

#include "prim/bitonic_network.hpp"
#include "prim/cuda/common.cuh"
#include "prim/cuda/device_sort.cuh"

namespace bigmul::prim::cuda {

namespace batched_detail {

inline constexpr int block_threads = 256;

template <class K, class V, bool HasValues, class Comp>
__device__ __forceinline__ void cx(K& ka, V& va, K& kb, V& vb, std::uint32_t hi, std::uint32_t n, const Comp& comp) {
  if (hi < n && comp(kb, ka)) {
    const K t = ka;
    ka = kb;
    kb = t;
    if constexpr (HasValues) {
      const V u = va;
      va = vb;
      vb = u;
    }
  }
}

// Block: `per_block` problems of N keys (np = next power of two), np/4
// threads each.
template <class K, class V, bool HasValues, class Comp>
__global__ void batched_kernel(K* keys, V* values, std::size_t G, std::uint32_t N, unsigned log_np, int per_block,
                               Comp comp) {
  extern __shared__ __align__(16) unsigned char smem[];
  const std::uint32_t np = 1u << log_np;
  const int quads = int(np / 4) > 0 ? int(np / 4) : 1;
  K* sk_all = reinterpret_cast<K*>(smem);
  V* sv_all = reinterpret_cast<V*>(smem + ((std::size_t(per_block) * np * sizeof(K) + 15) & ~std::size_t{15}));
  const int local = threadIdx.x / quads;  // problem within the block
  const std::uint32_t j = threadIdx.x % quads;
  const std::size_t g = std::size_t(blockIdx.x) * per_block + local;
  const bool active = local < per_block && g < G;
  K* sk = sk_all + std::size_t(local) * np;
  V* sv = sv_all + std::size_t(local) * np;
  // Coalesced load: the block's problems are contiguous in memory.
  const std::size_t first = std::size_t(blockIdx.x) * per_block * N;
  const std::size_t count = (G - std::size_t(blockIdx.x) * per_block < std::size_t(per_block)
                                 ? G - std::size_t(blockIdx.x) * per_block
                                 : std::size_t(per_block)) * N;
  for (std::size_t i = threadIdx.x; i < count; i += blockDim.x) {
    const std::size_t p = i / N, e = i % N;
    sk_all[p * np + e] = keys[first + i];
    if constexpr (HasValues) sv_all[p * np + e] = values[first + i];
  }
  __syncthreads();
  V dummy{};
  for (unsigned s = 1; s <= log_np; ++s) {
    unsigned k = 0;
    for (; k + 1 < s; k += 2) {
      if (active) {
        const bitonic_step a = bitonic_stage_step(s, k), b = bitonic_stage_step(s, k + 1);
        const std::uint32_t p = std::uint32_t(insert_zero_bit(insert_zero_bit(j, b.lead), a.lead));
        const std::uint32_t i0 = p, i1 = p ^ std::uint32_t(b.mask), i2 = p ^ std::uint32_t(a.mask),
                            i3 = i2 ^ std::uint32_t(b.mask);
        if (i0 < N) {
          K x0 = sk[i0], x1 = i1 < N ? sk[i1] : x0, x2 = i2 < N ? sk[i2] : x0, x3 = i3 < N ? sk[i3] : x0;
          V y0 = dummy, y1 = dummy, y2 = dummy, y3 = dummy;
          if constexpr (HasValues) {
            y0 = sv[i0];
            if (i1 < N) y1 = sv[i1];
            if (i2 < N) y2 = sv[i2];
            if (i3 < N) y3 = sv[i3];
          }
          cx<K, V, HasValues>(x0, y0, x2, y2, i2, N, comp);
          cx<K, V, HasValues>(x1, y1, x3, y3, i3, N, comp);
          cx<K, V, HasValues>(x0, y0, x1, y1, i1, N, comp);
          if ((a.mask >> b.lead) & 1)
            cx<K, V, HasValues>(x3, y3, x2, y2, i2, N, comp);
          else
            cx<K, V, HasValues>(x2, y2, x3, y3, i3, N, comp);
          sk[i0] = x0;
          if (i1 < N) sk[i1] = x1;
          if (i2 < N) sk[i2] = x2;
          if (i3 < N) sk[i3] = x3;
          if constexpr (HasValues) {
            sv[i0] = y0;
            if (i1 < N) sv[i1] = y1;
            if (i2 < N) sv[i2] = y2;
            if (i3 < N) sv[i3] = y3;
          }
        }
      }
      __syncthreads();
    }
    if (k < s) {  // a lone step: each thread takes two pairs
      if (active) {
        const bitonic_step a = bitonic_stage_step(s, k);
        for (std::uint32_t pj = j; pj < np / 2; pj += quads) {
          const std::uint32_t lo = std::uint32_t(insert_zero_bit(pj, a.lead)), hi = lo ^ std::uint32_t(a.mask);
          if (hi < N && comp(sk[hi], sk[lo])) {
            const K t = sk[lo];
            sk[lo] = sk[hi];
            sk[hi] = t;
            if constexpr (HasValues) {
              const V u = sv[lo];
              sv[lo] = sv[hi];
              sv[hi] = u;
            }
          }
        }
      }
      __syncthreads();
    }
  }
  for (std::size_t i = threadIdx.x; i < count; i += blockDim.x) {
    const std::size_t p = i / N, e = i % N;
    keys[first + i] = sk_all[p * np + e];
    if constexpr (HasValues) values[first + i] = sv_all[p * np + e];
  }
}

}  // namespace batched_detail

template <class K, class V, class Comp>
cudaError_t device_batched_sort(void* d_temp, std::size_t& temp_bytes, K* d_keys, V* d_values, std::size_t G,
                                std::size_t N, Comp comp, cudaStream_t stream) {
  using namespace batched_detail;
  if (!d_temp) {
    temp_bytes = 1;
    return cudaSuccess;
  }
  if (N > batched_sort_max_n) return cudaErrorInvalidValue;
  if (N < 2 || G == 0) return cudaSuccess;
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  if (has_values && !d_values) return cudaErrorInvalidValue;
  unsigned log_np = 0;
  while ((std::size_t{1} << log_np) < N) ++log_np;
  const std::size_t np = std::size_t{1} << log_np;
  const int quads = np / 4 > 0 ? int(np / 4) : 1;
  const int per_block = quads >= block_threads ? 1 : block_threads / quads;
  const int threads = quads * per_block;
  const std::size_t smem = ((std::size_t(per_block) * np * sizeof(K) + 15) & ~std::size_t{15}) +
                           (has_values ? std::size_t(per_block) * np * sizeof(V) : 0);
  auto kernel = batched_kernel<K, V, has_values, Comp>;
  if (smem > 48 * 1024)
    if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)))
      return e;
  const std::size_t blocks = ceil_div(G, std::size_t(per_block));
  kernel<<<unsigned(blocks), threads, smem, stream>>>(d_keys, d_values, G, std::uint32_t(N), log_np, per_block, comp);
  return cudaPeekAtLastError();
}

}  // namespace bigmul::prim::cuda
