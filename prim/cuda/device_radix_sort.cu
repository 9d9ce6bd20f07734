// SPDX-License-Identifier: LGPL-3.0-or-later
// The radix sort's kernels and passes (see prim/cuda/device_radix_sort.cuh and
// the index math in prim/cuda/radix_sort_hd.hpp).
#include "prim/cuda/device_radix_sort.cuh"

#include <cuda_runtime.h>

#include <cstdint>

#include "prim/cuda/common.cuh"
#include "prim/cuda/device_scan.cuh"
#include "prim/cuda/radix_sort_hd.hpp"
#include "prim/ops.hpp"

namespace bigmul::prim::cuda {
namespace {

namespace rx = bigmul::prim::radix;

// count[d * blocks + b] = keys of block b's tile with digit d in this pass.
template <class U>
__global__ void __launch_bounds__(rx::threads) count_kernel(const U* in, std::size_t n, unsigned pass, U flip,
                                                            std::uint64_t* count, std::size_t blocks) {
  __shared__ unsigned c[rx::radix];
  for (unsigned d = threadIdx.x; d < rx::radix; d += rx::threads) c[d] = 0;
  __syncthreads();
  const std::size_t b = blockIdx.x;
#pragma unroll
  for (unsigned r = 0; r < rx::rounds; ++r) {
    const std::size_t e = rx::element_of(b, r, threadIdx.x);
    if (e < n) atomicAdd(&c[rx::digit(U(in[e] ^ flip), pass)], 1u);
  }
  __syncthreads();
  for (unsigned d = threadIdx.x; d < rx::radix; d += rx::threads) count[rx::count_index(d, b, blocks)] = c[d];
}

// Stable scatter of block b's tile by digit `pass` (radix_sort_hd.hpp): in
// rounds of 256 consecutive keys; a warp match ranks equal digits among the
// lanes, per-warp counts in shared memory among the warps, running counts
// among the rounds. in_flip / out_flip: the sign bit flipped on the first
// load / the last store.
template <class U>
__global__ void __launch_bounds__(rx::threads) scatter_kernel(const U* in, U* out, std::size_t n, unsigned pass,
                                                              U in_flip, U out_flip, const std::uint64_t* offset,
                                                              std::size_t blocks) {
  __shared__ std::uint64_t base[rx::radix];   // this block's first position per digit, plus earlier rounds
  __shared__ unsigned short warp_count[rx::warps][rx::radix];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::size_t b = blockIdx.x;
  for (unsigned d = threadIdx.x; d < rx::radix; d += rx::threads) base[d] = offset[rx::count_index(d, b, blocks)];
  for (unsigned r = 0; r < rx::rounds; ++r) {
    for (unsigned i = threadIdx.x; i < rx::warps * rx::radix; i += rx::threads) (&warp_count[0][0])[i] = 0;
    __syncthreads();
    const std::size_t e = rx::element_of(b, r, threadIdx.x);
    const bool valid = e < n;
    const U key = valid ? U(in[e] ^ in_flip) : U(0);
    const unsigned d = rx::digit(key, pass);
    const unsigned peers = __match_any_sync(full_warp, valid ? d : rx::radix);
    const unsigned earlier_lanes = __popc(peers & ((1u << lane) - 1));
    if (valid && earlier_lanes == 0) warp_count[warp][d] = static_cast<unsigned short>(__popc(peers));
    __syncthreads();
    if (valid) {
      unsigned earlier_warps = 0;
      for (unsigned w = 0; w < warp; ++w) earlier_warps += warp_count[w][d];
      out[rx::scatter_position(base[d], earlier_warps, earlier_lanes)] = U(key ^ out_flip);
    }
    __syncthreads();
    for (unsigned dd = threadIdx.x; dd < rx::radix; dd += rx::threads) {
      unsigned round_total = 0;
      for (unsigned w = 0; w < rx::warps; ++w) round_total += warp_count[w][dd];
      base[dd] += round_total;  // earlier rounds' keys of digit dd
    }
    __syncthreads();  // the next round clears warp_count
  }
}

}  // namespace

template <class K>
cudaError_t device_radix_sort(void* d_temp, std::size_t& temp_bytes, const K* d_in, K* d_out, std::size_t n,
                              cudaStream_t stream) {
  using U = rx::bits_of<K>;
  const std::size_t blocks = rx::tiles_for(n), table = std::size_t{rx::radix} * blocks;
  temp_carver carve(d_temp);
  U* scratch = carve.take<U>(n);
  std::uint64_t* count = carve.take<std::uint64_t>(table);
  std::uint64_t* offset = carve.take<std::uint64_t>(table);
  std::size_t scan_bytes = 0;
  if (cudaError_t e = device_exclusive_scan(static_cast<void*>(nullptr), scan_bytes,
                                            static_cast<const std::uint64_t*>(nullptr),
                                            static_cast<std::uint64_t*>(nullptr), table, plus_op{},
                                            std::uint64_t{0}, stream))
    return e;
  void* scan_temp = carve.take<char>(scan_bytes);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (temp_bytes < carve.bytes()) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  constexpr unsigned P = rx::passes<K>;
  const U flip = rx::sign_flip<K>();
  U* out = reinterpret_cast<U*>(d_out);
  const U* src = reinterpret_cast<const U*>(d_in);
  for (unsigned p = 0; p < P; ++p) {
    U* dst = rx::pass_writes_output(p, P) ? out : scratch;
    const U in_flip = p == 0 ? flip : U(0), out_flip = p + 1 == P ? flip : U(0);
    count_kernel<U><<<unsigned(blocks), rx::threads, 0, stream>>>(src, n, p, in_flip, count, blocks);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
    if (cudaError_t e = device_exclusive_scan(scan_temp, scan_bytes, static_cast<const std::uint64_t*>(count), offset,
                                              table, plus_op{}, std::uint64_t{0}, stream))
      return e;
    scatter_kernel<U><<<unsigned(blocks), rx::threads, 0, stream>>>(src, dst, n, p, in_flip, out_flip, offset,
                                                                    blocks);
    if (cudaError_t e = cudaPeekAtLastError()) return e;
    src = dst;
  }
  return cudaSuccess;
}

template cudaError_t device_radix_sort<std::int32_t>(void*, std::size_t&, const std::int32_t*, std::int32_t*,
                                                     std::size_t, cudaStream_t);
template cudaError_t device_radix_sort<std::uint32_t>(void*, std::size_t&, const std::uint32_t*, std::uint32_t*,
                                                      std::size_t, cudaStream_t);
template cudaError_t device_radix_sort<std::int64_t>(void*, std::size_t&, const std::int64_t*, std::int64_t*,
                                                     std::size_t, cudaStream_t);
template cudaError_t device_radix_sort<std::uint64_t>(void*, std::size_t&, const std::uint64_t*, std::uint64_t*,
                                                      std::size_t, cudaStream_t);

}  // namespace bigmul::prim::cuda
