// SPDX-License-Identifier: LGPL-3.0-or-later
// Device-side helpers shared by the CUDA primitives: shuffles and cache-
// global loads/stores for any trivially copyable type (moved as 32-bit
// words), and the temp-storage carving of the CUB-style two-call API.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bigmul::prim::cuda {

inline constexpr unsigned full_warp = 0xffffffffu;

template <class T>
__device__ __forceinline__ T shfl_idx(const T& v, int src) {
  static_assert(sizeof(T) % 4 == 0, "shuffled types must be a whole number of 32-bit words");
  unsigned w[sizeof(T) / 4];
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < int(sizeof(T) / 4); ++i) w[i] = __shfl_sync(full_warp, w[i], src);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

template <class T>
__device__ __forceinline__ T shfl_up(const T& v, unsigned delta) {
  unsigned w[sizeof(T) / 4];
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < int(sizeof(T) / 4); ++i) w[i] = __shfl_up_sync(full_warp, w[i], delta);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

template <class T>
__device__ __forceinline__ T shfl_down(const T& v, unsigned delta) {
  unsigned w[sizeof(T) / 4];
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < int(sizeof(T) / 4); ++i) w[i] = __shfl_down_sync(full_warp, w[i], delta);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

// Loads and stores that bypass L1: look-back values are written by other
// SMs, whose writes L1 would not see.
template <class T>
__device__ __forceinline__ T load_cg(const T* p) {
  static_assert(sizeof(T) % 4 == 0 && alignof(T) >= 4, "word-aligned types only");
  unsigned w[sizeof(T) / 4];
  const unsigned* src = reinterpret_cast<const unsigned*>(p);
#pragma unroll
  for (int i = 0; i < int(sizeof(T) / 4); ++i) w[i] = __ldcg(src + i);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

template <class T>
__device__ __forceinline__ void store_cg(T* p, const T& v) {
  unsigned w[sizeof(T) / 4];
  memcpy(w, &v, sizeof(T));
  unsigned* dst = reinterpret_cast<unsigned*>(p);
#pragma unroll
  for (int i = 0; i < int(sizeof(T) / 4); ++i) __stcg(dst + i, w[i]);
}

__host__ __device__ constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Carves one temp allocation into aligned pieces. First pass (base ==
// nullptr) only adds up the bytes.
class temp_carver {
 public:
  explicit temp_carver(void* base) : base_(static_cast<char*>(base)) {}
  template <class T>
  T* take(std::size_t count) {
    bytes_ = (bytes_ + 255) & ~std::size_t{255};
    T* p = base_ ? reinterpret_cast<T*>(base_ + bytes_) : nullptr;
    bytes_ += count * sizeof(T);
    return p;
  }
  std::size_t bytes() const { return bytes_ ? bytes_ : 1; }

 private:
  char* base_;
  std::size_t bytes_ = 0;
};

// Reverses an operator's operands: folding lanes 0..k with op_rev gives
// v_k op ... op v_0, the order the look-back window needs.
template <class Op>
struct reversed_op {
  Op op;
  template <class T>
  __device__ __forceinline__ T operator()(const T& a, const T& b) const { return op(b, a); }
};

}  // namespace bigmul::prim::cuda
