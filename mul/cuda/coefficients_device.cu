// SPDX-License-Identifier: LGPL-3.0-or-later
// CUDA twins of split_digits / split_balanced / join_digits and residue_mod_p
// (see mul/cuda/coefficients_device.cuh).
#include "mul/cuda/coefficients_device.cuh"

#include <cuda_runtime.h>

#include <type_traits>

#include "carry/digit_base.hpp"
#include "mul/coefficients_period.hpp"
#include "mul/modcheck.hpp"
#include "prim/cuda/common.cuh"
#include "prim/cuda/grid.cuh"
#include "prim/cuda/carry_scan_space.cuh"
#include "prim/ops.hpp"
#include "mul/cuda/coefficients_hd.hpp"

namespace bigmul::detail::cuda {
namespace {

using prim::carry_gp;
using prim::carry_op;

constexpr unsigned threads = 256;

using prim::cuda::grid_y;
dim3 grid_for(std::size_t items, std::size_t G) {
  return dim3(static_cast<unsigned>(prim::cuda::ceil_div(items, threads)), grid_y(G));
}

// Loaders, period sources, visitors and the per-chunk residue: shared with
// the tests' CPU replay of these kernels (mul/cuda/coefficients_hd.hpp).
using coeff_hd::binary_src;
using coeff_hd::check_operands;
using coeff_hd::decimal_src;
using coeff_hd::digit_loader;
using coeff_hd::emit_visit;
using coeff_hd::fold_visit;
using coeff_hd::limb_loader;
using coeff_hd::store_visit;

// ---- split_digits ----
__global__ void split_binary_kernel(const limb_t* a, std::size_t n, std::size_t G, unsigned k, std::size_t total,
                                    std::uint32_t* out) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    const limb_loader load{a + g * n, n};
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total; i += stride)
      out[g * total + i] = binary_digit(load, k, i);
  }
}

template <unsigned K>
__global__ void split_decimal_kernel(const limb_t* a, std::size_t n, std::size_t G, std::size_t total,
                                     std::size_t periods, std::uint32_t* out) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    for (std::size_t p = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; p < periods; p += stride) {
      store_visit v{out + g * total + p * 19, total - p * 19};
      decimal_src<K>{}(a + g * n, n, p, v);
    }
  }
}

// ---- split_balanced: fold, scan, emit ----
template <class Src>
__global__ void balanced_fold_kernel(Src src, const limb_t* a, std::size_t n, std::size_t G, std::size_t total,
                                     std::size_t periods, std::uint64_t B, carry_gp* pairs) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    for (std::size_t p = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; p < periods; p += stride) {
      fold_visit v{B, total - p * src.pd, prim::carry_identity};
      src(a + g * n, n, p, v);
      pairs[g * (periods + 1) + p] = v.acc;
      if (p == 0) pairs[g * (periods + 1) + periods] = carry_gp{0, 0};  // kill: closes problem g
    }
  }
}

template <class Src>
__global__ void balanced_emit_kernel(Src src, const limb_t* a, std::size_t n, std::size_t G, std::size_t total,
                                     std::size_t periods, std::uint64_t B, const carry_gp* scanned,
                                     std::int32_t* out) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    std::int32_t* og = out + g * (total + 1);
    for (std::size_t p = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; p < periods; p += stride) {
      emit_visit v{B, total - p * src.pd, scanned[g * (periods + 1) + p].g, og + p * src.pd};
      src(a + g * n, n, p, v);
      if (p + 1 == periods) og[total] = static_cast<std::int32_t>(v.carry);
    }
  }
}

// ---- join_digits ----
// accept: nullptr, or a device flag; 0 there means write nothing.
__global__ void join_binary_kernel(const std::uint32_t* d, std::size_t m, std::size_t G, unsigned k, limb_t* out,
                                   std::size_t out_n, const int* accept) {
  if (accept && *accept == 0) return;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    const digit_loader digit{d + g * m, m};
    for (std::size_t j = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; j < out_n; j += stride)
      out[g * out_n + j] = binary_limb(digit, k, j);
  }
}

template <unsigned K>
__global__ void join_decimal_kernel(const std::uint32_t* d, std::size_t m, std::size_t G, limb_t* out,
                                    std::size_t out_n, std::size_t periods, const int* accept) {
  if (accept && *accept == 0) return;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    for (std::size_t p = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; p < periods; p += stride) {
      const std::size_t first = p * 19;
      const digit_loader digit{d + g * m + (first < m ? first : m), m > first ? m - first : 0};
      limb_t L[K];
      decimal_period_join<K>(digit, L);
      limb_t* og = out + g * out_n + p * K;
#pragma unroll
      for (unsigned j = 0; j < K; ++j)
        if (p * K + j < out_n) og[j] = L[j];
    }
  }
}


template <class Src>
cudaError_t balanced_run(void* d_temp, std::size_t& temp_bytes, Src src, const limb_t* d_a, std::size_t n,
                         std::size_t G, coeff_format f, std::int32_t* d_out, cudaStream_t stream) {
  const std::size_t total = f.count(n);
  const std::size_t periods = prim::cuda::ceil_div(total, src.pd);
  const std::size_t npairs = periods ? G * (periods + 1) : 0;
  prim::cuda::temp_carver carve(d_temp);
  prim::cuda::carry_scan_space look_ahead;
  if (cudaError_t e = look_ahead.carve(carve, npairs, stream)) return e;
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (temp_bytes < carve.bytes()) return cudaErrorInvalidValue;
  if (G == 0) return cudaSuccess;
  if (periods == 0)  // n == 0: the single value 0 per operand
    return cudaMemsetAsync(d_out, 0, G * sizeof(std::int32_t), stream);
  const std::uint64_t B = f.base();
  balanced_fold_kernel<Src><<<grid_for(periods, G), threads, 0, stream>>>(src, d_a, n, G, total, periods, B,
                                                                          look_ahead.pairs);
  if (cudaError_t e = cudaPeekAtLastError()) return e;
  if (cudaError_t e = look_ahead.scan(stream)) return e;
  balanced_emit_kernel<Src><<<grid_for(periods, G), threads, 0, stream>>>(src, d_a, n, G, total, periods, B,
                                                                          look_ahead.scanned, d_out);
  return cudaPeekAtLastError();
}

// ---- residue mod 2^61 - 1 ----


__device__ std::uint64_t block_sum_mod_p(std::uint64_t v) {
  __shared__ std::uint64_t sm[threads];
  sm[threadIdx.x] = v;
  __syncthreads();
  for (unsigned h = threads / 2; h > 0; h /= 2) {
    if (threadIdx.x < h) sm[threadIdx.x] = mod_p_add(sm[threadIdx.x], sm[threadIdx.x + h]);
    __syncthreads();
  }
  return sm[0];
}

// Chunk c (residue_chunk_limbs limbs) by Horner, times base^(c * chunk):
// its contribution to the value mod p; one sum per block.
__global__ void residue_chunks_kernel(const limb_t* a, std::size_t n, std::uint64_t base, std::uint64_t base_chunk,
                                      std::size_t chunks, std::uint64_t* partial) {
  const std::size_t c = std::size_t{blockIdx.x} * threads + threadIdx.x;
  const std::uint64_t v = c < chunks ? coeff_hd::residue_chunk(a, n, c, base, base_chunk) : 0;
  const std::uint64_t s = block_sum_mod_p(v);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

// The modular check of a whole batch in one launch. Grid (X, Y): block x of
// product g sums the chunk residues c = x*threads + tid (stride X*threads) of
// its three operands (a, b, r = a*b) and writes three partial sums; the last
// block of g to finish (a ticket per product) adds the X partials of each
// operand and writes ok[g]. counters[] must be zero at launch (the last block
// leaves its counter zero again).
__global__ void modular_check_kernel(check_operands ops, std::size_t G, bool square, std::uint64_t base,
                                     std::uint64_t base_chunk, std::uint64_t* partial, unsigned* counters,
                                     int* ok) {
  __shared__ bool last;
  const std::size_t X = gridDim.x;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    for (unsigned s = 0; s < 3; ++s) {
      std::uint64_t v = 0;
      if (!(square && s == 1)) {
        const limb_t* data = ops.data(g, s);
        const std::size_t n = ops.size(s), chunks = ops.chunks(s);
        for (std::size_t c = std::size_t{blockIdx.x} * threads + threadIdx.x; c < chunks; c += X * threads)
          v = mod_p_add(v, coeff_hd::residue_chunk(data, n, c, base, base_chunk));
      }
      const std::uint64_t sum = block_sum_mod_p(v);
      if (threadIdx.x == 0) partial[(g * 3 + s) * X + blockIdx.x] = sum;
      __syncthreads();  // block_sum_mod_p's shared array is reused by the next operand
    }
    if (threadIdx.x == 0) {
      __threadfence();  // the partials are visible before the ticket is taken
      last = atomicAdd(&counters[g], 1u) == X - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
      __threadfence();
      std::uint64_t r[3] = {0, 0, 0};
      for (unsigned s = 0; s < 3; ++s)
        for (std::size_t x = 0; x < X; ++x)
          r[s] = mod_p_add(r[s], static_cast<volatile const std::uint64_t*>(partial)[(g * 3 + s) * X + x]);
      if (square) r[1] = r[0];
      ok[g] = coeff_hd::check_verdict(r[0], r[1], r[2]);
      counters[g] = 0;
    }
    __syncthreads();  // `last` is rewritten for the next product
  }
}

__global__ void residue_final_kernel(const std::uint64_t* partial, std::size_t np, std::uint64_t* out) {
  std::uint64_t v = 0;
  for (std::size_t i = threadIdx.x; i < np; i += threads) v = mod_p_add(v, partial[i]);
  const std::uint64_t s = block_sum_mod_p(v);
  if (threadIdx.x == 0) *out = s;
}

}  // namespace

cudaError_t split_digits_device_batched(const limb_t* d_a, std::size_t n, std::size_t G, coeff_format f,
                                        std::uint32_t* d_out, cudaStream_t stream) {
  if (!f.valid()) return cudaErrorInvalidValue;
  const std::size_t total = f.count(n);
  if (G == 0 || total == 0) return cudaSuccess;
  if (f.rx == radix::binary) {
    split_binary_kernel<<<grid_for(total, G), threads, 0, stream>>>(d_a, n, G, f.digits, total, d_out);
    return cudaPeekAtLastError();
  }
  const std::size_t periods = prim::cuda::ceil_div(total, 19);
  return carry::with_decimal_digits(f.digits, [&](auto K) {
    split_decimal_kernel<decltype(K)::value><<<grid_for(periods, G), threads, 0, stream>>>(d_a, n, G, total, periods,
                                                                                          d_out);
    return cudaPeekAtLastError();
  });
}

cudaError_t split_digits_device(const limb_t* d_a, std::size_t n, coeff_format f, std::uint32_t* d_out,
                                cudaStream_t stream) {
  return split_digits_device_batched(d_a, n, 1, f, d_out, stream);
}

cudaError_t split_balanced_device_batched(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a, std::size_t n,
                                          std::size_t G, coeff_format f, std::int32_t* d_out, cudaStream_t stream) {
  if (!f.valid()) return cudaErrorInvalidValue;
  if (f.rx == radix::binary) {
    const std::size_t pd = period_digits(f), pl = period_limbs(f);
    return balanced_run(d_temp, temp_bytes, binary_src{f.digits, pd, pl}, d_a, n, G, f, d_out, stream);
  }
  return carry::with_decimal_digits(f.digits, [&](auto K) {
    return balanced_run(d_temp, temp_bytes, decimal_src<decltype(K)::value>{}, d_a, n, G, f, d_out, stream);
  });
}

cudaError_t split_balanced_device(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a, std::size_t n,
                                  coeff_format f, std::int32_t* d_out, cudaStream_t stream) {
  return split_balanced_device_batched(d_temp, temp_bytes, d_a, n, 1, f, d_out, stream);
}

cudaError_t join_digits_device_batched_if(const int* d_accept, const std::uint32_t* d_digits, std::size_t m,
                                          std::size_t G, coeff_format f, limb_t* d_out, std::size_t out_n,
                                          cudaStream_t stream) {
  if (!f.valid()) return cudaErrorInvalidValue;
  if (G == 0 || out_n == 0) return cudaSuccess;
  if (f.rx == radix::binary) {
    join_binary_kernel<<<grid_for(out_n, G), threads, 0, stream>>>(d_digits, m, G, f.digits, d_out, out_n,
                                                                   d_accept);
    return cudaPeekAtLastError();
  }
  return carry::with_decimal_digits(f.digits, [&](auto K) {
    constexpr unsigned k = decltype(K)::value;
    const std::size_t periods = prim::cuda::ceil_div(out_n, k);
    join_decimal_kernel<k><<<grid_for(periods, G), threads, 0, stream>>>(d_digits, m, G, d_out, out_n, periods,
                                                                         d_accept);
    return cudaPeekAtLastError();
  });
}

cudaError_t join_digits_device_batched(const std::uint32_t* d_digits, std::size_t m, std::size_t G,
                                       coeff_format f, limb_t* d_out, std::size_t out_n, cudaStream_t stream) {
  return join_digits_device_batched_if(nullptr, d_digits, m, G, f, d_out, out_n, stream);
}

cudaError_t join_digits_device(const std::uint32_t* d_digits, std::size_t m, coeff_format f, limb_t* d_out,
                               std::size_t out_n, cudaStream_t stream) {
  return join_digits_device_batched(d_digits, m, 1, f, d_out, out_n, stream);
}

cudaError_t residue_mod_p_device(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a, std::size_t n, radix rx,
                                 std::uint64_t* d_residue, cudaStream_t stream) {
  const std::size_t chunks = prim::cuda::ceil_div(n, residue_chunk_limbs);
  const std::size_t blocks = prim::cuda::ceil_div(chunks, threads);
  prim::cuda::temp_carver carve(d_temp);
  std::uint64_t* partial = carve.take<std::uint64_t>(blocks);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (temp_bytes < carve.bytes()) return cudaErrorInvalidValue;
  const std::uint64_t base = limb_base_mod_p(rx);
  if (blocks > 0) {
    residue_chunks_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
        d_a, n, base, mod_p_pow(base, residue_chunk_limbs), chunks, partial);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
  }
  residue_final_kernel<<<1, threads, 0, stream>>>(partial, blocks, d_residue);
  return cudaPeekAtLastError();
}

// Blocks per product of the batched check: enough to cover the largest
// operand's chunks (threads chunks a block), at most 64 so that the last block's
// sum stays short; more products fill the grid's y dimension.
static std::size_t modular_check_blocks(std::size_t an, std::size_t bn) {
  const std::size_t chunks = prim::cuda::ceil_div(an + bn, residue_chunk_limbs);
  const std::size_t x = prim::cuda::ceil_div(chunks, threads);
  return x < 1 ? 1 : x > 64 ? 64 : x;
}

cudaError_t modular_check_device_batched(void* d_temp, std::size_t& temp_bytes, const limb_t* d_a, std::size_t an,
                                         const limb_t* d_b, std::size_t bn, const limb_t* d_r, std::size_t G,
                                         radix rx, int* d_ok, cudaStream_t stream) {
  const std::size_t X = modular_check_blocks(an, bn);
  prim::cuda::temp_carver carve(d_temp);
  std::uint64_t* partial = carve.take<std::uint64_t>(G * 3 * X);
  unsigned* counters = carve.take<unsigned>(G);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (temp_bytes < carve.bytes()) return cudaErrorInvalidValue;
  if (G == 0) return cudaSuccess;
  if (cudaError_t e = cudaMemsetAsync(counters, 0, G * sizeof(unsigned), stream)) return e;
  const std::uint64_t base = limb_base_mod_p(rx);
  const bool square = d_a == d_b && an == bn;
  modular_check_kernel<<<dim3(static_cast<unsigned>(X), grid_y(G)), threads, 0, stream>>>(
      check_operands{d_a, d_b, d_r, an, bn}, G, square, base, mod_p_pow(base, residue_chunk_limbs), partial,
      counters, d_ok);
  return cudaPeekAtLastError();
}

}  // namespace bigmul::detail::cuda
