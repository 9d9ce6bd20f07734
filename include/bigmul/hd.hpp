// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief BIGMUL_HD marks per-element arithmetic shared by a CPU algorithm and its
/// CUDA twin: __host__ __device__ under nvcc, nothing in plain C++.
#pragma once

#if defined(__CUDACC__)
/// Marks a function for both host and device: __host__ __device__ __forceinline__ under nvcc.
#define BIGMUL_HD __host__ __device__ __forceinline__
#else
/// Marks a function for both host and device: inline in plain C++.
#define BIGMUL_HD inline
#endif
