// BIGMUL_HD marks per-element arithmetic shared by a CPU algorithm and its
// CUDA twin: __host__ __device__ under nvcc, nothing in plain C++.
#pragma once

#if defined(__CUDACC__)
#define BIGMUL_HD __host__ __device__ __forceinline__
#else
#define BIGMUL_HD inline
#endif
