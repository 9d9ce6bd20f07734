// SPDX-License-Identifier: LGPL-3.0-or-later
// Device-wide scans in CUB's shape: call once with d_temp == nullptr to get
// temp_bytes, then again with that much device memory to run. Every call is
// asynchronous on `stream` and returns a cudaError_t; nothing throws.
//
// Two algorithms for one problem:
//   reduce_then_scan  three kernels (tile reduce, spine scan, rescan with
//                     carry-in): [KOIKE15 ch. 5] / [DIEGUEZ18 ch. 5] (Scan-SP)
//                     with the local reduce over CONTIGUOUS tiles (the
//                     paper's strided local reduce is a known error).
//   lookback          one pass, decoupled look-back over tile aggregates
//                     [MERRILL16], tiles numbered in launch order by
//                     an atomic counter so an earlier tile never waits on a
//                     later one.
//   lookback_packed   the same pass with status and value packed in 64-bit
//                     words (prim/cuda/lookback_packed.hpp: no fence on
//                     either side, one vector load per predecessor),
//                     backoff while a predecessor is unpublished, tiles
//                     loaded and stored with 16-byte vector accesses; for
//                     4- and 8-byte types (others run lookback).
// device_inclusive_scan / device_exclusive_scan use the look-back. All are
// correct for associative, non-commutative operators: op(earlier, later).
//
// Explicit instantiations (device_scan.cu): int32/int64/uint64 with plus_op,
// carry_gp with carry_op, mat2 with mat2_mul_op. Other types: include
// prim/cuda/device_scan_impl.cuh.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace bigmul::prim::cuda {

enum class scan_algorithm { lookback, reduce_then_scan, lookback_packed };

template <class T, class Op>
cudaError_t device_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::size_t n,
                                  Op op, T identity, cudaStream_t stream = 0,
                                  scan_algorithm alg = scan_algorithm::lookback);

template <class T, class Op>
cudaError_t device_exclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::size_t n,
                                  Op op, T identity, cudaStream_t stream = 0,
                                  scan_algorithm alg = scan_algorithm::lookback);

// G problems of N elements, back to back, one launch.
template <class T, class Op>
cudaError_t device_batched_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out,
                                          std::size_t G, std::size_t N, Op op, T identity,
                                          cudaStream_t stream = 0);

// d_heads[i] != 0 starts a segment at i.
template <class T, class Op>
cudaError_t device_segmented_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in,
                                            const std::uint8_t* d_heads, T* d_out, std::size_t n, Op op,
                                            T identity, cudaStream_t stream = 0);

}  // namespace bigmul::prim::cuda
