// CUDA twins of split_digits / split_balanced / join_digits and residue_mod_p
// (see mul/cuda/coefficients_device.cuh).
#include "mul/cuda/coefficients_device.cuh"

#include <cuda_runtime.h>

#include <type_traits>

#include "carry/digit_base.hpp"
#include "mul/coefficients_period.hpp"
#include "mul/modcheck.hpp"
#include "prim/cuda/common.cuh"
#include "prim/cuda/carry_scan_space.cuh"
#include "prim/ops.hpp"

namespace bigmul::detail::cuda {
namespace {

using prim::carry_gp;
using prim::carry_op;

constexpr unsigned threads = 256;
constexpr unsigned max_grid_y = 65535;

unsigned grid_y(std::size_t G) { return static_cast<unsigned>(G < max_grid_y ? G : max_grid_y); }
dim3 grid_for(std::size_t items, std::size_t G) {
  return dim3(static_cast<unsigned>(prim::cuda::ceil_div(items, threads)), grid_y(G));
}

// Limb j of a[0..n), zero past the end.
struct limb_loader {
  const limb_t* a;
  std::size_t n;
  BIGMUL_HD limb_t operator()(std::size_t j) const { return j < n ? a[j] : 0; }
};
BIGMUL_HD limb_loader limbs_from(const limb_t* a, std::size_t n, std::size_t first) {
  return limb_loader{a + (first < n ? first : n), n > first ? n - first : 0};
}

// Digit i of d[0..m), zero past the end.
struct digit_loader {
  const std::uint32_t* d;
  std::size_t m;
  BIGMUL_HD limb_t operator()(std::size_t i) const { return i < m ? d[i] : 0; }
};

// ---- period sources: the digits of period p, in order, through visit(t, d) ----
struct binary_src {
  unsigned k;
  std::size_t pd, pl;
  template <class Visit>
  BIGMUL_HD void operator()(const limb_t* a, std::size_t n, std::size_t p, Visit& visit) const {
    const limb_loader load = limbs_from(a, n, p * pl);
    for (std::size_t t = 0; t < pd; ++t) visit(t, binary_digit(load, k, t));
  }
};
template <unsigned K>
struct decimal_src {
  static constexpr std::size_t pd = 19;
  template <class Visit>
  BIGMUL_HD void operator()(const limb_t* a, std::size_t n, std::size_t p, Visit& visit) const {
    decimal_period_digits<K>(limbs_from(a, n, p * K), visit);
  }
};

// ---- visitors (functors: no extended lambdas needed) ----
struct store_visit {
  std::uint32_t* out;
  std::size_t end;
  BIGMUL_HD void operator()(std::size_t t, std::uint32_t d) const {
    if (t < end) out[t] = d;
  }
};
struct fold_visit {
  std::uint64_t B;
  std::size_t end;
  carry_gp acc;
  BIGMUL_HD void operator()(std::size_t t, std::uint32_t d) {
    if (t < end)
      acc = carry_op{}(acc, carry_gp{balanced_generates(d, B) ? 1u : 0u, balanced_propagates(d, B) ? 1u : 0u});
  }
};
struct emit_visit {
  std::uint64_t B;
  std::size_t end;
  std::uint32_t carry;
  std::int32_t* out;
  BIGMUL_HD void operator()(std::size_t t, std::uint32_t d) {
    if (t < end) out[t] = static_cast<std::int32_t>(balanced_step(d, carry, B));
  }
};

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
__global__ void join_binary_kernel(const std::uint32_t* d, std::size_t m, std::size_t G, unsigned k, limb_t* out,
                                   std::size_t out_n) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t g = blockIdx.y; g < G; g += gridDim.y) {
    const digit_loader digit{d + g * m, m};
    for (std::size_t j = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; j < out_n; j += stride)
      out[g * out_n + j] = binary_limb(digit, k, j);
  }
}

template <unsigned K>
__global__ void join_decimal_kernel(const std::uint32_t* d, std::size_t m, std::size_t G, limb_t* out,
                                    std::size_t out_n, std::size_t periods) {
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
  std::uint64_t v = 0;
  if (c < chunks) {
    const std::size_t b = c * residue_chunk_limbs, e = b + residue_chunk_limbs < n ? b + residue_chunk_limbs : n;
    std::uint64_t h = 0;
    for (std::size_t i = e; i-- > b;) h = mod_p_reduce(static_cast<unsigned __int128>(h) * base + a[i]);
    v = mod_p_mul(h, mod_p_pow(base_chunk, c));
  }
  const std::uint64_t s = block_sum_mod_p(v);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
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

cudaError_t join_digits_device_batched(const std::uint32_t* d_digits, std::size_t m, std::size_t G,
                                       coeff_format f, limb_t* d_out, std::size_t out_n, cudaStream_t stream) {
  if (!f.valid()) return cudaErrorInvalidValue;
  if (G == 0 || out_n == 0) return cudaSuccess;
  if (f.rx == radix::binary) {
    join_binary_kernel<<<grid_for(out_n, G), threads, 0, stream>>>(d_digits, m, G, f.digits, d_out, out_n);
    return cudaPeekAtLastError();
  }
  return carry::with_decimal_digits(f.digits, [&](auto K) {
    constexpr unsigned k = decltype(K)::value;
    const std::size_t periods = prim::cuda::ceil_div(out_n, k);
    join_decimal_kernel<k><<<grid_for(periods, G), threads, 0, stream>>>(d_digits, m, G, d_out, out_n, periods);
    return cudaPeekAtLastError();
  });
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

}  // namespace bigmul::detail::cuda
