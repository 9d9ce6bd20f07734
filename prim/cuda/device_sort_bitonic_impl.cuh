// SPDX-License-Identifier: LGPL-3.0-or-later
// K-model bitonic sort on the device (see device_sort.cuh).
#pragma once

#include <type_traits>
#include <vector>

#include "prim/bitonic_plan.hpp"
#include "prim/cuda/common.cuh"
#include "prim/cuda/device_sort.cuh"

namespace bigmul::prim::cuda {

namespace bitonic_detail {

inline constexpr unsigned log_part = 11;  // 2048 keys per part
inline constexpr unsigned log_run = 5;    // 32 consecutive keys: one coalesced warp access
inline constexpr int threads = 512;
inline constexpr int max_steps = 80;      // the first phase has 66 steps

struct phase_params {
  std::uint32_t basis[log_part];  // n <= 2^32
  std::uint32_t free_bits;        // index bits that are not leading bits: they number the parts
  int dim;
  int steps;
  std::uint32_t local_mask[max_steps];
  std::uint8_t lead[max_steps];
};

template <class K, class V, bool HasValues, class Comp>
__global__ void __launch_bounds__(threads) phase_kernel(K* keys, V* values, std::uint64_t n, unsigned log_n,
                                                        phase_params ph, Comp comp) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int part = 1 << ph.dim;
  std::uint32_t* off = reinterpret_cast<std::uint32_t*>(smem);
  K* sk = reinterpret_cast<K*>(smem + ((part * 4 + 15) & ~15));
  V* sv = reinterpret_cast<V*>(reinterpret_cast<unsigned char*>(sk) + ((part * sizeof(K) + 15) & ~std::size_t{15}));
  // base: the part number's bits deposited into the free positions.
  std::uint64_t base = 0;
  {
    std::uint64_t q = blockIdx.x;
    for (unsigned bit = 0; bit < log_n; ++bit)
      if ((ph.free_bits >> bit) & 1) {
        base |= (q & 1) << bit;
        q >>= 1;
      }
  }
  for (int l = threadIdx.x; l < part; l += threads) {
    std::uint32_t o = 0;
    for (int j = 0; j < ph.dim; ++j)
      if ((l >> j) & 1) o ^= ph.basis[j];
    off[l] = o;
    const std::uint64_t g = base ^ o;
    if (g < n) {
      sk[l] = keys[g];
      if constexpr (HasValues) sv[l] = values[g];
    }
  }
  __syncthreads();
  for (int s = 0; s < ph.steps; ++s) {
    const std::uint32_t lm = ph.local_mask[s];
    const unsigned hb = 31 - __clz(lm);
    const unsigned lead = ph.lead[s];
    for (int j = threadIdx.x; j < part / 2; j += threads) {
      std::uint32_t a = std::uint32_t(insert_zero_bit(std::uint64_t(j), hb)), b = a ^ lm;
      if ((off[a] >> lead) & 1) {
        const std::uint32_t t = a;
        a = b;
        b = t;
      }
      if ((base ^ off[b]) < n && comp(sk[b], sk[a])) {
        const K t = sk[a];
        sk[a] = sk[b];
        sk[b] = t;
        if constexpr (HasValues) {
          const V u = sv[a];
          sv[a] = sv[b];
          sv[b] = u;
        }
      }
    }
    __syncthreads();
  }
  for (int l = threadIdx.x; l < part; l += threads) {
    const std::uint64_t g = base ^ off[l];
    if (g < n) {
      keys[g] = sk[l];
      if constexpr (HasValues) values[g] = sv[l];
    }
  }
}

}  // namespace bitonic_detail

template <class K, class V, class Comp>
cudaError_t device_bitonic_sort(void* d_temp, std::size_t& temp_bytes, K* d_keys, V* d_values, std::size_t n,
                                Comp comp, cudaStream_t stream) {
  using namespace bitonic_detail;
  if (!d_temp) {
    temp_bytes = 1;  // in place: no temp storage
    return cudaSuccess;
  }
  if (n < 2) return cudaSuccess;
  if (n > (std::size_t{1} << 32)) return cudaErrorInvalidValue;
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  if (has_values && !d_values) return cudaErrorInvalidValue;
  unsigned log_n = 0;
  while ((std::size_t{1} << log_n) < n) ++log_n;
  const std::vector<bitonic_phase> phases = plan_bitonic_phases(log_n, log_part, log_run);
  for (const bitonic_phase& bp : phases) {
    phase_params ph{};
    ph.dim = int(bp.basis.size());
    ph.steps = int(bp.steps.size());
    if (ph.steps > max_steps) return cudaErrorInvalidConfiguration;
    std::uint32_t leads = 0;
    for (int j = 0; j < ph.dim; ++j) {
      ph.basis[j] = std::uint32_t(bp.basis[j]);
      leads |= 1u << bp.leads[j];
    }
    ph.free_bits = std::uint32_t(((std::uint64_t{1} << log_n) - 1) & ~std::uint64_t{leads});
    for (int s = 0; s < ph.steps; ++s) {
      ph.local_mask[s] = bp.steps[s].local_mask;
      ph.lead[s] = std::uint8_t(bp.steps[s].lead);
    }
    const std::size_t part = std::size_t{1} << ph.dim;
    const std::size_t smem = ((part * 4 + 15) & ~15) + ((part * sizeof(K) + 15) & ~std::size_t{15}) +
                             (has_values ? part * sizeof(V) : 0);
    const unsigned parts = unsigned((std::size_t{1} << log_n) / part);
    auto kernel = phase_kernel<K, V, has_values, Comp>;
    if (smem > 48 * 1024)
      if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)))
        return e;
    kernel<<<parts, threads, smem, stream>>>(d_keys, d_values, n, log_n, ph, comp);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
  }
  return cudaSuccess;
}

}  // namespace bigmul::prim::cuda
