// SPDX-License-Identifier: LGPL-3.0-or-later
// Kernels and templates behind prim/cuda/device_copy_if.cuh.
#pragma once

#include "prim/cuda/device_copy_if.cuh"
#include "prim/cuda/device_scan_impl.cuh"

namespace bigmul::prim::cuda {

namespace copy_if_detail {

template <class T, class Pred>
struct flag_loader {
  const T* in;
  Pred pred;
  __device__ std::uint64_t operator()(std::size_t i) const { return pred(in[i]) ? 1u : 0u; }
};

template <class T, class Pred>
__global__ void scatter_kernel(const T* in, T* out, const std::uint64_t* dest, std::size_t n, Pred pred,
                               std::uint64_t* num_selected) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const bool keep = pred(in[i]);
  if (keep) out[dest[i]] = in[i];
  if (i == n - 1) *num_selected = dest[i] + (keep ? 1 : 0);
}

}  // namespace copy_if_detail

template <class T, class Pred>
cudaError_t device_copy_if(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out,
                           std::uint64_t* d_num_selected, std::size_t n, Pred pred, cudaStream_t stream) {
  temp_carver carve(d_temp);
  std::uint64_t* dest = carve.take<std::uint64_t>(n);
  std::size_t scan_bytes = 0;
  const copy_if_detail::flag_loader<T, Pred> load{d_in, pred};
  const scan_detail::array_storer<std::uint64_t> store{dest};
  if (cudaError_t e = scan_detail::dispatch<false, std::uint64_t>(nullptr, scan_bytes, load, store, n, plus_op{},
                                                                  std::uint64_t{0}, stream, scan_algorithm::lookback))
    return e;
  char* scan_temp = carve.take<char>(scan_bytes);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (n == 0) return cudaMemsetAsync(d_num_selected, 0, sizeof(std::uint64_t), stream);
  if (cudaError_t e = scan_detail::dispatch<false, std::uint64_t>(scan_temp, scan_bytes, load, store, n, plus_op{},
                                                                  std::uint64_t{0}, stream, scan_algorithm::lookback))
    return e;
  copy_if_detail::scatter_kernel<<<unsigned(ceil_div(n, 256)), 256, 0, stream>>>(d_in, d_out, dest, n, pred,
                                                                                  d_num_selected);
  return cudaPeekAtLastError();
}

}  // namespace bigmul::prim::cuda
