// SPDX-License-Identifier: LGPL-3.0-or-later
// Explicit instantiations of the device stream compaction.
#include "prim/cuda/device_copy_if_impl.cuh"

namespace bigmul::prim::cuda {

template cudaError_t device_copy_if<std::int32_t, select_less_than<std::int32_t>>(
    void*, std::size_t&, const std::int32_t*, std::int32_t*, std::uint64_t*, std::size_t,
    select_less_than<std::int32_t>, cudaStream_t);
template cudaError_t device_copy_if<std::int64_t, select_less_than<std::int64_t>>(
    void*, std::size_t&, const std::int64_t*, std::int64_t*, std::uint64_t*, std::size_t,
    select_less_than<std::int64_t>, cudaStream_t);
template cudaError_t device_copy_if<std::uint64_t, select_less_than<std::uint64_t>>(
    void*, std::size_t&, const std::uint64_t*, std::uint64_t*, std::uint64_t*, std::size_t,
    select_less_than<std::uint64_t>, cudaStream_t);

}  // namespace bigmul::prim::cuda
