// SPDX-License-Identifier: LGPL-3.0-or-later
// Merge sort on the device (see device_sort.cuh).
#pragma once

#include <type_traits>

#include "prim/bitonic_network.hpp"
#include "prim/cuda/common.cuh"
#include "prim/cuda/device_sort.cuh"
#include "prim/cuda/device_sort_batched_impl.cuh"
#include "prim/cuda/merge_partition_hd.hpp"

namespace bigmul::prim::cuda {

namespace merge_detail {

inline constexpr int base_tile = 1024;  // 32 x 32 ShearSort matrix
inline constexpr int merge_threads = 128;
inline constexpr int merge_items = 8;
inline constexpr int merge_tile = merge_threads * merge_items;  // divides every run width
inline constexpr int pitch = 33;  // padded row: row r, column c at r*33 + c

// Sorts 32 register values ascending with the all-ascending bitonic network;
// every index is a compile-time constant after unrolling.
template <class K, class V, bool HasValues, class Comp>
__device__ __forceinline__ void sort32(K (&k)[32], V (&v)[32], const Comp& comp) {
#pragma unroll
  for (unsigned s = 1; s <= 5; ++s) {
#pragma unroll
    for (unsigned st = 0; st < s; ++st) {
      const bitonic_step step = bitonic_stage_step(s, st);
#pragma unroll
      for (unsigned i = 0; i < 32; ++i) {
        const unsigned p = i ^ unsigned(step.mask);
        if (((i >> step.lead) & 1) == 0 && comp(k[p], k[i])) {
          const K t = k[i];
          k[i] = k[p];
          k[p] = t;
          if constexpr (HasValues) {
            const V u = v[i];
            v[i] = v[p];
            v[p] = u;
          }
        }
      }
    }
  }
}

// Thread t sorts line t of the matrix: a row (stride 1) or a column (stride
// pitch); descending lines are written back reversed. Bank of element c of
// line t is (t + c) mod 32 in both cases: no conflicts.
template <class K, class V, bool HasValues, class Comp>
__device__ __forceinline__ void sort_line(K* sk, V* sv, bool row, bool descending, const Comp& comp) {
  const unsigned t = threadIdx.x;
  const unsigned start = row ? t * pitch : t, stride = row ? 1 : pitch;
  K k[32];
  V v[32];
#pragma unroll
  for (unsigned c = 0; c < 32; ++c) {
    k[c] = sk[start + c * stride];
    if constexpr (HasValues) v[c] = sv[start + c * stride];
  }
  sort32<K, V, HasValues>(k, v, comp);
#pragma unroll
  for (unsigned c = 0; c < 32; ++c) {
    const unsigned d = descending ? 31 - c : c;
    sk[start + d * stride] = k[c];
    if constexpr (HasValues) sv[start + d * stride] = v[c];
  }
  __syncwarp();
}

// One warp per 1024-key tile: ShearSort, 6 snake row phases around 5
// column phases, then the snake order written out as plain order.
template <class K, class V, bool HasValues, class Comp>
__global__ void __launch_bounds__(32) shear_sort_kernel(K* keys, V* values, Comp comp) {
  __shared__ K sk[32 * pitch];
  __shared__ V sv[HasValues ? 32 * pitch : 1];
  const std::size_t base = std::size_t(blockIdx.x) * base_tile;
  const unsigned lane = threadIdx.x;
  for (unsigned r = 0; r < 32; ++r) {
    sk[r * pitch + lane] = keys[base + r * 32 + lane];
    if constexpr (HasValues) sv[r * pitch + lane] = values[base + r * 32 + lane];
  }
  __syncwarp();
  for (int phase = 0; phase < 5; ++phase) {
    sort_line<K, V, HasValues>(sk, sv, true, lane & 1, comp);
    sort_line<K, V, HasValues>(sk, sv, false, false, comp);
  }
  sort_line<K, V, HasValues>(sk, sv, true, lane & 1, comp);
  for (unsigned r = 0; r < 32; ++r) {
    const unsigned c = r & 1 ? 31 - lane : lane;
    keys[base + r * 32 + lane] = sk[r * pitch + c];
    if constexpr (HasValues) values[base + r * 32 + lane] = sv[r * pitch + c];
  }
}

// Split of every block's first diagonal (prim/cuda/merge_partition_hd.hpp),
// one thread per block, before the merge kernel of the same round.
template <class K, class Comp>
__global__ void __launch_bounds__(merge_threads) partition_kernel(const K* in_k, std::size_t n, std::size_t width,
                                                                  std::size_t blocks, std::size_t* partition,
                                                                  Comp comp) {
  const std::size_t b = std::size_t(blockIdx.x) * merge_threads + threadIdx.x;
  if (b < blocks) partition[b] = merge::partition_of(in_k, b, std::size_t(merge_tile), n, width, comp);
}

// Merges pairs of sorted runs of `width`; block b writes outputs
// [b*merge_tile, (b+1)*merge_tile).
template <class K, class V, bool HasValues, class Comp>
__global__ void __launch_bounds__(merge_threads) merge_kernel(const K* in_k, const V* in_v, K* out_k, V* out_v,
                                                              std::size_t n, std::size_t width,
                                                              const std::size_t* partition, Comp comp) {
  __shared__ K sk[merge_tile];
  __shared__ V sv[HasValues ? merge_tile : 1];
  const std::size_t o = std::size_t(blockIdx.x) * merge_tile;
  const merge::merge_block m = merge::merge_block_of(blockIdx.x, std::size_t(merge_tile), n, width);
  const std::size_t a_beg = m.a_beg, a_end = m.a_end, d0 = m.d0, d1 = m.d1;
  const std::size_t a0 = partition[blockIdx.x], a1 = merge::end_split(m, partition, blockIdx.x);
  const std::size_t b0 = d0 - a0, b1 = d1 - a1;
  const int na = int(a1 - a0), nb = int(b1 - b0), total = na + nb;
  for (int i = threadIdx.x; i < total; i += merge_threads) {
    const std::size_t src = i < na ? a_beg + a0 + i : a_end + b0 + (i - na);
    sk[i] = in_k[src];
    if constexpr (HasValues) sv[i] = in_v[src];
  }
  __syncthreads();
  const int diag = threadIdx.x * merge_items < total ? int(threadIdx.x) * merge_items : total;
  int ai = int(merge::merge_path(sk, std::size_t(na), sk + na, std::size_t(nb), std::size_t(diag), comp));
  int bi = diag - ai;
  K rk[merge_items];
  V rv[merge_items];
#pragma unroll
  for (int j = 0; j < merge_items; ++j) {
    const bool take_a = bi >= nb || (ai < na && !comp(sk[na + bi], sk[ai]));
    const int src = take_a ? ai++ : na + bi++;
    if (diag + j < total) {
      rk[j] = sk[src];
      if constexpr (HasValues) rv[j] = sv[src];
    }
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < merge_items; ++j)
    if (diag + j < total) {
      sk[diag + j] = rk[j];
      if constexpr (HasValues) sv[diag + j] = rv[j];
    }
  __syncthreads();
  for (int i = threadIdx.x; i < total; i += merge_threads) {
    out_k[o + i] = sk[i];
    if constexpr (HasValues) out_v[o + i] = sv[i];
  }
}

}  // namespace merge_detail

template <class K, class V, class Comp>
cudaError_t device_merge_sort(void* d_temp, std::size_t& temp_bytes, K* d_keys, V* d_values, std::size_t n,
                              Comp comp, cudaStream_t stream) {
  using namespace merge_detail;
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  temp_carver carve(d_temp);
  K* tk = carve.take<K>(n);
  V* tv = carve.take<V>(has_values ? n : 0);
  const std::size_t blocks = ceil_div(n, merge_tile);
  std::size_t* partition = carve.take<std::size_t>(blocks);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (n < 2) return cudaSuccess;
  if (has_values && !d_values) return cudaErrorInvalidValue;
  const std::size_t full = n / base_tile, tail = n % base_tile;
  if (full) {
    shear_sort_kernel<K, V, has_values><<<unsigned(full), 32, 0, stream>>>(d_keys, d_values, comp);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
  }
  if (tail > 1) {
    std::size_t unused = 0;
    if (cudaError_t e = device_batched_sort(d_temp, unused, d_keys + full * base_tile,
                                            has_values ? d_values + full * base_tile : d_values, 1, tail, comp, stream))
      return e;
  }
  K *src_k = d_keys, *dst_k = tk;
  V *src_v = d_values, *dst_v = tv;
  for (std::size_t width = base_tile; width < n; width *= 2) {
    partition_kernel<K><<<unsigned(ceil_div(blocks, merge_threads)), merge_threads, 0, stream>>>(
        src_k, n, width, blocks, partition, comp);
    merge_kernel<K, V, has_values><<<unsigned(blocks), merge_threads, 0, stream>>>(src_k, src_v, dst_k, dst_v, n,
                                                                                 width, partition, comp);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (src_k != d_keys) {
    if (cudaError_t e = cudaMemcpyAsync(d_keys, src_k, n * sizeof(K), cudaMemcpyDeviceToDevice, stream)) return e;
    if (has_values)
      if (cudaError_t e = cudaMemcpyAsync(d_values, src_v, n * sizeof(V), cudaMemcpyDeviceToDevice, stream)) return e;
  }
  return cudaSuccess;
}

}  // namespace bigmul::prim::cuda
