// SPDX-License-Identifier: LGPL-3.0-or-later
// Explicit instantiations of the device scans.
#include "prim/cuda/device_scan_impl.cuh"

namespace bigmul::prim::cuda {

#define BIGMUL_SCAN_INSTANCES(T, Op)                                                                           \
  template cudaError_t device_inclusive_scan<T, Op>(void*, std::size_t&, const T*, T*, std::size_t, Op, T,      \
                                                    cudaStream_t, scan_algorithm);                              \
  template cudaError_t device_exclusive_scan<T, Op>(void*, std::size_t&, const T*, T*, std::size_t, Op, T,      \
                                                    cudaStream_t, scan_algorithm);                              \
  template cudaError_t device_batched_inclusive_scan<T, Op>(void*, std::size_t&, const T*, T*, std::size_t,     \
                                                            std::size_t, Op, T, cudaStream_t);                  \
  template cudaError_t device_segmented_inclusive_scan<T, Op>(void*, std::size_t&, const T*, const std::uint8_t*, \
                                                              T*, std::size_t, Op, T, cudaStream_t);

BIGMUL_SCAN_INSTANCES(std::int32_t, plus_op)
BIGMUL_SCAN_INSTANCES(std::int64_t, plus_op)
BIGMUL_SCAN_INSTANCES(std::uint64_t, plus_op)
BIGMUL_SCAN_INSTANCES(carry_gp, carry_op)
BIGMUL_SCAN_INSTANCES(mat2, mat2_mul_op)

#undef BIGMUL_SCAN_INSTANCES

}  // namespace bigmul::prim::cuda
