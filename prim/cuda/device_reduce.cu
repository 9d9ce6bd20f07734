// SPDX-License-Identifier: LGPL-3.0-or-later
// Explicit instantiations of the device reduction.
#include "prim/cuda/device_reduce_impl.cuh"

namespace bigmul::prim::cuda {

#define BIGMUL_REDUCE_INSTANCE(T, Op)                                                                    \
  template cudaError_t device_reduce<T, Op>(void*, std::size_t&, const T*, T*, std::size_t, Op, T, operand_order, \
                                            cudaStream_t);

BIGMUL_REDUCE_INSTANCE(std::int32_t, plus_op)
BIGMUL_REDUCE_INSTANCE(std::int64_t, plus_op)
BIGMUL_REDUCE_INSTANCE(std::uint64_t, plus_op)
BIGMUL_REDUCE_INSTANCE(std::int32_t, max_op)
BIGMUL_REDUCE_INSTANCE(carry_gp, carry_op)
BIGMUL_REDUCE_INSTANCE(mat2, mat2_mul_op)
BIGMUL_REDUCE_INSTANCE(mss, mss_op)

#undef BIGMUL_REDUCE_INSTANCE

}  // namespace bigmul::prim::cuda
