// SPDX-License-Identifier: LGPL-3.0-or-later
// Kernels and templates behind prim/cuda/device_scan.cuh.
#pragma once

#include <cstdint>
#include <type_traits>

#include "prim/cuda/block_scan.cuh"
#include "prim/cuda/common.cuh"
#include "prim/cuda/device_scan.cuh"
#include "prim/cuda/lookback_packed.hpp"
#include "prim/ops.hpp"

namespace bigmul::prim::cuda {

inline constexpr int scan_threads = 256;

namespace scan_detail {

// Input/output adapters: the kernels read element i through a loader and
// write through a storer, so batched and segmented scans reuse them on
// lifted (value, head) pairs.
template <class T>
struct array_loader {
  const T* in;
  __device__ T operator()(std::size_t i) const { return in[i]; }
};
template <class T>
struct array_storer {
  T* out;
  __device__ void operator()(std::size_t i, const T& v) const { out[i] = v; }
};
template <class T>
struct batched_loader {
  const T* in;
  std::size_t N;
  double inv_N;  // 1.0 / N
  // i % N == 0 without a 64-bit division (a call that cost the scan kernel a
  // stack spill): the quotient from the double reciprocal is off by at most
  // one for i < 2^52, which one correction each way absorbs.
  __device__ seg_pair<T> operator()(std::size_t i) const {
    const auto q = static_cast<std::size_t>(static_cast<double>(i) * inv_N);
    auto r = static_cast<long long>(i - q * N);
    if (r < 0) r += static_cast<long long>(N);
    if (r >= static_cast<long long>(N)) r -= static_cast<long long>(N);
    return seg_pair<T>{in[i], r == 0 ? 1u : 0u};
  }
};
template <class T>
struct flagged_loader {
  const T* in;
  const std::uint8_t* heads;
  __device__ seg_pair<T> operator()(std::size_t i) const { return seg_pair<T>{in[i], heads[i] ? 1u : 0u}; }
};
template <class T>
struct value_storer {
  T* out;
  __device__ void operator()(std::size_t i, const seg_pair<T>& v) const { out[i] = v.value; }
};

// A tile: Threads * Items elements, moved through shared memory so global
// accesses are striped (coalesced) and the scan works on blocked items.
template <class T, int Items>
struct tile {
  static constexpr int size = scan_threads * Items;
  static constexpr int slots = size + size / 32;
};

template <class T, int Items, class Load>
__device__ void load_tile(T* sm, T (&items)[Items], std::size_t base, std::size_t n, const Load& load,
                          const T& identity) {
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = j * scan_threads + int(threadIdx.x);
    sm[padded(i)] = base + i < n ? load(base + i) : identity;
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < Items; ++j) items[j] = sm[padded(int(threadIdx.x) * Items + j)];
  __syncthreads();
}

template <class T, int Items, class Store>
__device__ void store_tile(T* sm, const T (&items)[Items], std::size_t base, std::size_t n, const Store& store) {
#pragma unroll
  for (int j = 0; j < Items; ++j) sm[padded(int(threadIdx.x) * Items + j)] = items[j];
  __syncthreads();
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = j * scan_threads + int(threadIdx.x);
    if (base + i < n) store(base + i, sm[padded(i)]);
  }
  __syncthreads();
}

// Scans the items of one tile given the carry-in of the tile; writes
// inclusive or exclusive results into items.
template <bool Inclusive, class T, int Items, class Op>
__device__ void finish_tile(T (&items)[Items], const T& thread_prefix, const Op& op) {
  T acc = thread_prefix;
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const T x = items[j];
    if constexpr (Inclusive) {
      items[j] = acc = op(acc, x);
    } else {
      items[j] = acc;
      acc = op(acc, x);
    }
  }
}

template <class T, int Items, class Op>
__device__ T thread_fold(const T (&items)[Items], const Op& op, const T& identity) {
  T acc = identity;
#pragma unroll
  for (int j = 0; j < Items; ++j) acc = op(acc, items[j]);
  return acc;
}

// ---- reduce-then-scan -------------------------------------------------------

template <class T, int Items, class Load, class Op>
__global__ void __launch_bounds__(scan_threads) rts_reduce_kernel(Load load, std::size_t n, Op op, T identity,
                                                                  T* tile_totals) {
  __shared__ T sm[tile<T, Items>::slots];
  __shared__ typename block_scan<T, scan_threads>::storage st;
  T items[Items];
  const std::size_t base = std::size_t(blockIdx.x) * tile<T, Items>::size;
  load_tile(sm, items, base, n, load, identity);
  T total;
  block_scan<T, scan_threads>(st).exclusive(thread_fold(items, op, identity), op, identity, total);
  if (threadIdx.x == 0) tile_totals[blockIdx.x] = total;
}

// One block: exclusive scan of the tile totals in place, in rounds of
// scan_threads, carrying the running total.
template <class T, class Op>
__global__ void __launch_bounds__(scan_threads) rts_spine_kernel(T* totals, std::size_t tiles, Op op, T identity) {
  __shared__ typename block_scan<T, scan_threads>::storage st;
  T carry = identity;
  for (std::size_t b = 0; b < tiles; b += scan_threads) {
    const std::size_t i = b + threadIdx.x;
    const T x = i < tiles ? totals[i] : identity;
    T round_total;
    const T ex = block_scan<T, scan_threads>(st).exclusive(x, op, identity, round_total);
    if (i < tiles) totals[i] = op(carry, ex);
    carry = op(carry, round_total);
  }
}

// Compiled for 4 blocks per SM (64 registers) when values are at most 8 bytes:
// ptxas's own target left 8-byte spills in the int64 and copy_if instances;
// wider values (mat2) keep all the registers they need.
template <bool Inclusive, class T, int Items, class Load, class Store, class Op>
__global__ void __launch_bounds__(scan_threads, sizeof(T) > 8 ? 1 : 4)
    rts_scan_kernel(Load load, Store store, std::size_t n, Op op, T identity, const T* tile_prefix) {
  __shared__ T sm[tile<T, Items>::slots];
  __shared__ typename block_scan<T, scan_threads>::storage st;
  T items[Items];
  const std::size_t base = std::size_t(blockIdx.x) * tile<T, Items>::size;
  const T carry_in = tile_prefix[blockIdx.x];
  load_tile(sm, items, base, n, load, identity);
  T total;
  const T ex = block_scan<T, scan_threads>(st).exclusive(thread_fold(items, op, identity), op, identity, total);
  finish_tile<Inclusive>(items, op(carry_in, ex), op);
  store_tile(sm, items, base, n, store);
}

// ---- single pass with decoupled look-back -----------------------------------

enum : unsigned { tile_invalid = 0, tile_aggregate = 1, tile_prefix = 2 };

template <class T>
struct lookback_state {
  unsigned* flags;     // per tile
  T* aggregate;        // per tile: the tile's own total
  T* inclusive;        // per tile: everything up to and including the tile
  unsigned* counter;   // next tile number
};

__device__ __forceinline__ unsigned load_flag(const unsigned* p) { return *reinterpret_cast<const volatile unsigned*>(p); }
__device__ __forceinline__ void store_flag(unsigned* p, unsigned v) { *reinterpret_cast<volatile unsigned*>(p) = v; }

// Run by warp 0 of tile t > 0: the total of tiles 0..t-1.
template <class T, class Op>
__device__ T look_back(const lookback_state<T>& ls, long long t, const Op& op, const T& identity) {
  const int lane = threadIdx.x & 31;
  T running = identity;
  long long window = t - 1;  // lane i looks at tile window - i
  for (;;) {
    const long long idx = window - lane;
    unsigned f;
    do {
      f = idx < 0 ? unsigned(tile_prefix) : load_flag(ls.flags + idx);
    } while (__any_sync(full_warp, f == tile_invalid));
    __threadfence();  // values were published before their flags
    T v = identity;
    if (idx >= 0) v = f == tile_prefix ? load_cg(ls.inclusive + idx) : load_cg(ls.aggregate + idx);
    const unsigned prefix_lanes = __ballot_sync(full_warp, f == tile_prefix);
    // Lanes beyond the nearest inclusive prefix contribute nothing.
    const int stop = prefix_lanes ? __ffs(prefix_lanes) - 1 : 31;
    if (lane > stop) v = identity;
    // Higher lanes hold earlier tiles: fold lanes 0..31 with reversed operands.
    const T w = shfl_idx(warp_reduce(v, reversed_op<Op>{op}), 0);
    running = op(w, running);
    if (prefix_lanes) return running;
    window -= 32;
  }
}

template <bool Inclusive, class T, int Items, class Load, class Store, class Op>
__global__ void __launch_bounds__(scan_threads) lookback_scan_kernel(Load load, Store store, std::size_t n, Op op,
                                                                     T identity, lookback_state<T> ls) {
  __shared__ T sm[tile<T, Items>::slots];
  __shared__ typename block_scan<T, scan_threads>::storage st;
  __shared__ unsigned tile_no;
  __shared__ T tile_carry;
  if (threadIdx.x == 0) tile_no = atomicAdd(ls.counter, 1u);
  __syncthreads();
  const long long t = tile_no;
  T items[Items];
  const std::size_t base = std::size_t(t) * tile<T, Items>::size;
  load_tile(sm, items, base, n, load, identity);
  T total;
  const T ex = block_scan<T, scan_threads>(st).exclusive(thread_fold(items, op, identity), op, identity, total);
  if (threadIdx.x < 32) {
    if (t == 0) {
      if (threadIdx.x == 0) {
        store_cg(ls.inclusive, total);
        __threadfence();
        store_flag(ls.flags, tile_prefix);
        tile_carry = identity;
      }
    } else {
      if (threadIdx.x == 0) {
        store_cg(ls.aggregate + t, total);
        __threadfence();
        store_flag(ls.flags + t, tile_aggregate);
      }
      const T before = look_back(ls, t, op, identity);
      if (threadIdx.x == 0) {
        store_cg(ls.inclusive + t, op(before, total));
        __threadfence();
        store_flag(ls.flags + t, tile_prefix);
        tile_carry = before;
      }
    }
  }
  __syncthreads();
  finish_tile<Inclusive>(items, op(tile_carry, ex), op);
  store_tile(sm, items, base, n, store);
}

// ---- single pass, packed descriptors (prim/cuda/lookback_packed.hpp) -------

namespace lb = bigmul::prim::lookback;

// One descriptor's words with relaxed 64-bit accesses (one vector access for
// two words): each word whole, the two in no set order.
template <unsigned W>
__device__ __forceinline__ void load_words(const std::uint64_t* p, std::uint64_t (&w)[W]) {
  static_assert(W == 1 || W == 2, "one or two words");
#if defined(__CUDA_ARCH__)
  if constexpr (W == 1) {
    unsigned long long a;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(a) : "l"(p) : "memory");
    w[0] = a;
  } else {
    unsigned long long a, b;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
    w[0] = a;
    w[1] = b;
  }
#endif
}

template <unsigned W>
__device__ __forceinline__ void store_words(std::uint64_t* p, const std::uint64_t (&w)[W]) {
#if defined(__CUDA_ARCH__)
  if constexpr (W == 1) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(static_cast<unsigned long long>(w[0]))
                 : "memory");
  } else {
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p),
                 "l"(static_cast<unsigned long long>(w[0])), "l"(static_cast<unsigned long long>(w[1]))
                 : "memory");
  }
#endif
}

template <class T>
__device__ __forceinline__ void publish(std::uint64_t* words, long long t, std::uint32_t status, const T& v) {
  std::uint64_t w[lb::words<T>];
  lb::encode(status, v, w);
  store_words(words + t * lb::words<T>, w);
}

// Run by warp 0 of tile t > 0: the total of tiles 0..t-1. A lane whose
// descriptor reads invalid (unpublished or torn) makes the warp back off and
// read the window again; no fence, no second load.
template <class T, class Op>
__device__ T packed_look_back(const std::uint64_t* words, long long t, const Op& op, const T& identity) {
  const int lane = threadIdx.x & 31;
  T running = identity;
  long long window = t - 1;  // lane i looks at tile window - i
  unsigned backoff = 0;
  for (;;) {
    const long long idx = window - lane;
    std::uint32_t st;
    T v;
    for (;;) {
      v = identity;
      st = lb::status_prefix;
      if (idx >= 0) {
        std::uint64_t w[lb::words<T>];
        load_words(words + idx * lb::words<T>, w);
        st = lb::decode(w, v);
      }
      if (!__any_sync(full_warp, st == lb::status_invalid)) break;
      backoff = lb::next_backoff(backoff);
      __nanosleep(backoff);
    }
    const unsigned prefix_lanes = __ballot_sync(full_warp, st == lb::status_prefix);
    const int stop = prefix_lanes ? __ffs(prefix_lanes) - 1 : 31;
    if (lane > stop) v = identity;
    // Higher lanes hold earlier tiles: fold lanes 0..31 with reversed operands.
    const T w = shfl_idx(warp_reduce(v, reversed_op<Op>{op}), 0);
    running = op(w, running);
    if (prefix_lanes) return running;
    window -= 32;
  }
}

// The tile moved in 16-byte vectors, striped over the threads (coalesced),
// through the padded shared tile; a partial last tile or an unaligned array
// takes the element path.
template <class T, int Items>
inline constexpr bool vector_tile = (Items * sizeof(T)) % 16 == 0;

template <class T, int Items, class Load>
__device__ void load_tile_vec(T* sm, T (&items)[Items], std::size_t base, std::size_t n, const Load& load,
                              const T& identity) {
  if constexpr (vector_tile<T, Items> && std::is_same_v<Load, array_loader<T>>) {
    constexpr int per = 16 / int(sizeof(T)), vecs = Items / per;
    const T* src = load.in + base;
    if (base + tile<T, Items>::size <= n && reinterpret_cast<std::uintptr_t>(src) % 16 == 0) {
#pragma unroll
      for (int j = 0; j < vecs; ++j) {
        const int v = j * scan_threads + int(threadIdx.x);
        const uint4 x = reinterpret_cast<const uint4*>(src)[v];  // not __ldg: the scan may run in place
        T e[per];
        memcpy(e, &x, 16);
#pragma unroll
        for (int k = 0; k < per; ++k) sm[padded(v * per + k)] = e[k];
      }
      __syncthreads();
#pragma unroll
      for (int j = 0; j < Items; ++j) items[j] = sm[padded(int(threadIdx.x) * Items + j)];
      __syncthreads();
      return;
    }
  }
  load_tile(sm, items, base, n, load, identity);
}

template <class T, int Items, class Store>
__device__ void store_tile_vec(T* sm, const T (&items)[Items], std::size_t base, std::size_t n, const Store& store) {
  if constexpr (vector_tile<T, Items> && std::is_same_v<Store, array_storer<T>>) {
    constexpr int per = 16 / int(sizeof(T)), vecs = Items / per;
    T* dst = store.out + base;
    if (base + tile<T, Items>::size <= n && reinterpret_cast<std::uintptr_t>(dst) % 16 == 0) {
#pragma unroll
      for (int j = 0; j < Items; ++j) sm[padded(int(threadIdx.x) * Items + j)] = items[j];
      __syncthreads();
#pragma unroll
      for (int j = 0; j < vecs; ++j) {
        const int v = j * scan_threads + int(threadIdx.x);
        T e[per];
#pragma unroll
        for (int k = 0; k < per; ++k) e[k] = sm[padded(v * per + k)];
        uint4 x;
        memcpy(&x, e, 16);
        reinterpret_cast<uint4*>(dst)[v] = x;
      }
      __syncthreads();
      return;
    }
  }
  store_tile(sm, items, base, n, store);
}

template <bool Inclusive, class T, int Items, class Load, class Store, class Op>
__global__ void __launch_bounds__(scan_threads) packed_scan_kernel(Load load, Store store, std::size_t n, Op op,
                                                                   T identity, std::uint64_t* words,
                                                                   unsigned* counter) {
  __shared__ T sm[tile<T, Items>::slots];
  __shared__ typename block_scan<T, scan_threads>::storage st;
  __shared__ unsigned tile_no;
  __shared__ T tile_carry;
  if (threadIdx.x == 0) tile_no = atomicAdd(counter, 1u);
  __syncthreads();
  const long long t = tile_no;
  T items[Items];
  const std::size_t base = std::size_t(t) * tile<T, Items>::size;
  load_tile_vec(sm, items, base, n, load, identity);
  T total;
  const T ex = block_scan<T, scan_threads>(st).exclusive(thread_fold(items, op, identity), op, identity, total);
  if (threadIdx.x < 32) {
    if (t == 0) {
      if (threadIdx.x == 0) {
        publish(words, 0, lb::status_prefix, total);
        tile_carry = identity;
      }
    } else {
      if (threadIdx.x == 0) publish(words, t, lb::status_aggregate, total);
      const T before = packed_look_back(words, t, op, identity);
      if (threadIdx.x == 0) {
        publish(words, t, lb::status_prefix, op(before, total));
        tile_carry = before;
      }
    }
  }
  __syncthreads();
  finish_tile<Inclusive>(items, op(tile_carry, ex), op);
  store_tile_vec(sm, items, base, n, store);
}

template <bool Inclusive, class T, class Load, class Store, class Op>
cudaError_t dispatch_packed(void* d_temp, std::size_t& temp_bytes, Load load, Store store, std::size_t n, Op op,
                            T identity, cudaStream_t stream) {
  constexpr int items = items_for<T>;
  const std::size_t tiles = ceil_div(n, tile<T, items>::size);
  temp_carver carve(d_temp);
  // Descriptors and the tile counter in one zeroed block (one memset).
  std::uint64_t* words = carve.take<std::uint64_t>(tiles * lb::words<T> + 1);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (n == 0) return cudaSuccess;
  if (cudaError_t e = cudaMemsetAsync(words, 0, (tiles * lb::words<T> + 1) * sizeof(std::uint64_t), stream)) return e;
  packed_scan_kernel<Inclusive, T, items><<<unsigned(tiles), scan_threads, 0, stream>>>(
      load, store, n, op, identity, words, reinterpret_cast<unsigned*>(words + tiles * lb::words<T>));
  return cudaPeekAtLastError();
}

template <bool Inclusive, class T, class Load, class Store, class Op>
cudaError_t dispatch(void* d_temp, std::size_t& temp_bytes, Load load, Store store, std::size_t n, Op op,
                     T identity, cudaStream_t stream, scan_algorithm alg) {
  if constexpr (lb::packable<T> && std::is_same_v<Load, array_loader<T>>)  // batched / segmented: never packed
    if (alg == scan_algorithm::lookback_packed)
      return dispatch_packed<Inclusive, T>(d_temp, temp_bytes, load, store, n, op, identity, stream);
  constexpr int items = items_for<T>;
  const std::size_t tiles = ceil_div(n, tile<T, items>::size);
  temp_carver carve(d_temp);
  if (alg == scan_algorithm::reduce_then_scan) {
    T* totals = carve.take<T>(tiles);
    if (!d_temp) {
      temp_bytes = carve.bytes();
      return cudaSuccess;
    }
    if (n == 0) return cudaSuccess;
    rts_reduce_kernel<T, items><<<unsigned(tiles), scan_threads, 0, stream>>>(load, n, op, identity, totals);
    rts_spine_kernel<T><<<1, scan_threads, 0, stream>>>(totals, tiles, op, identity);
    rts_scan_kernel<Inclusive, T, items><<<unsigned(tiles), scan_threads, 0, stream>>>(load, store, n, op, identity,
                                                                                       totals);
    return cudaPeekAtLastError();
  }
  lookback_state<T> ls;
  ls.flags = carve.take<unsigned>(tiles + 1);
  ls.aggregate = carve.take<T>(tiles);
  ls.inclusive = carve.take<T>(tiles);
  ls.counter = ls.flags + tiles;
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (n == 0) return cudaSuccess;
  if (cudaError_t e = cudaMemsetAsync(ls.flags, 0, (tiles + 1) * sizeof(unsigned), stream)) return e;
  lookback_scan_kernel<Inclusive, T, items><<<unsigned(tiles), scan_threads, 0, stream>>>(load, store, n, op,
                                                                                         identity, ls);
  return cudaPeekAtLastError();
}

}  // namespace scan_detail

template <class T, class Op>
cudaError_t device_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::size_t n,
                                  Op op, T identity, cudaStream_t stream, scan_algorithm alg) {
  return scan_detail::dispatch<true, T>(d_temp, temp_bytes, scan_detail::array_loader<T>{d_in},
                                        scan_detail::array_storer<T>{d_out}, n, op, identity, stream, alg);
}

template <class T, class Op>
cudaError_t device_exclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out, std::size_t n,
                                  Op op, T identity, cudaStream_t stream, scan_algorithm alg) {
  return scan_detail::dispatch<false, T>(d_temp, temp_bytes, scan_detail::array_loader<T>{d_in},
                                         scan_detail::array_storer<T>{d_out}, n, op, identity, stream, alg);
}

template <class T, class Op>
cudaError_t device_batched_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in, T* d_out,
                                          std::size_t G, std::size_t N, Op op, T identity, cudaStream_t stream) {
  return scan_detail::dispatch<true, seg_pair<T>>(
      d_temp, temp_bytes, scan_detail::batched_loader<T>{d_in, N ? N : 1, 1.0 / static_cast<double>(N ? N : 1)},
      scan_detail::value_storer<T>{d_out},
      G * N, seg_op<Op>{op}, seg_pair<T>{identity, 0u}, stream, scan_algorithm::lookback);
}

template <class T, class Op>
cudaError_t device_segmented_inclusive_scan(void* d_temp, std::size_t& temp_bytes, const T* d_in,
                                            const std::uint8_t* d_heads, T* d_out, std::size_t n, Op op,
                                            T identity, cudaStream_t stream) {
  return scan_detail::dispatch<true, seg_pair<T>>(
      d_temp, temp_bytes, scan_detail::flagged_loader<T>{d_in, d_heads}, scan_detail::value_storer<T>{d_out}, n,
      seg_op<Op>{op}, seg_pair<T>{identity, 0u}, stream, scan_algorithm::lookback);
}

}  // namespace bigmul::prim::cuda
