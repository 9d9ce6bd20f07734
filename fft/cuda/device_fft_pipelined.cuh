// SPDX-License-Identifier: LGPL-3.0-or-later
// The GPU FFT's pass kernel with the next tile's loads overlapped with the current
// tile's stages (plan::fft_plan::persistent_blocks, BIGMUL_GPU_FFT_PIPELINE=1; FP64). Included by
// fft/cuda/device_fft.cuh after fft_pass_kernel (it uses pass_args, ldg_c, cplx).
//
// The FP64 pass kernel runs one block an SM (210 registers x 256 threads), so nothing
// else hides its load phase. Here a grid of persistent blocks takes tiles b, b + grid,
// ... (plan::pipeline_tile): while a tile runs its stages in one shared buffer, the next
// tile's elements travel into the other by cp.async (sm_80+; no registers held, the
// copies land in the shared layout the load phase writes). Only passes that load an
// array (array_load: the passes after the first forward pass, the inverse's after its
// first) take it; the Load functors that compute (digits, spectra with twiddles) keep
// fft_pass_kernel. A tile's reads precede its writes and tiles are disjoint, so
// prefetching the next tile before storing this one keeps every pass in place
// (tests/fft/test_fft_gpu_model.cpp replays the schedule).
#pragma once

namespace bigmul::fft::cuda::detail {

template <class C>
__device__ __forceinline__ void cp_async_elem(C* dst_shared, const C* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst_shared));
  if constexpr (sizeof(C) == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src));
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(d), "l"(src));
  }
#else
  *dst_shared = *src;
#endif
}

__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

// Waits for every group of this thread's copies but the latest.
__device__ __forceinline__ void cp_async_wait_prior() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 1;\n" ::);
#endif
}

__device__ __forceinline__ void cp_async_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::);
#endif
}

// Issues the copies of tile `blk` into sh (this thread's elements q = tid + i*threads);
// padding rows get zeros by plain stores.
template <class Real>
__device__ __forceinline__ void prefetch_tile(const plan::pass_desc& d, std::size_t blk, const cplx<Real>* src,
                                              cplx<Real>* sh) {
  const plan::tile t = plan::tile_of_block(d, blk);
#pragma unroll 1
  for (unsigned i = 0; i < plan::elems_per_thread; ++i) {
    const unsigned q = threadIdx.x + i * d.threads;
    unsigned lane, idx;
    plan::tile_coords(d, q, lane, idx);
    const plan::element e = plan::element_at(d, t, lane, idx);
    if (e.valid) {
      cp_async_elem(sh + plan::smem_pad(q), src + e.flat);
    } else {
      sh[plan::smem_pad(q)] = plan::make_c<cplx<Real>>(Real(0), Real(0));
    }
  }
}

template <class Real, bool Inv, class Store>
__global__ void __launch_bounds__(plan::max_threads<Real>(), 1)
    fft_pass_pipelined_kernel(pass_args a, const cplx<Real>* __restrict__ block_tw, const cplx<Real>* __restrict__ lo,
                              const cplx<Real>* __restrict__ hi, const cplx<Real>* src, Store store) {
  using C = cplx<Real>;
  extern __shared__ __align__(16) unsigned char fft_smem_raw[];
  const plan::pass_desc& d = a.d;
  C* buf[2] = {reinterpret_cast<C*>(fft_smem_raw), reinterpret_cast<C*>(fft_smem_raw) + plan::smem_elements(d.log_tile())};
  const std::size_t tiles = d.blocks();
  const std::size_t nmask = (std::size_t{1} << a.log_n) - 1;
  const std::size_t smask = (std::size_t{1} << a.log_split) - 1;
  auto twiddle = [&](const plan::element& e, unsigned idx) -> C {
    const std::size_t ex = plan::pass_twiddle_exponent(a.log_n, d, e.inner, idx);
    return plan::c_mul(ldg_c<Real>(hi + (ex >> a.log_split)), ldg_c<Real>(lo + (ex & smask)));
  };
  typename Store::state st = store.begin();
  unsigned cur = 0;
  if (blockIdx.x < tiles) prefetch_tile<Real>(d, blockIdx.x, src, buf[0]);
  cp_async_commit();
  for (std::size_t blk = blockIdx.x; blk < tiles; blk += gridDim.x) {
    C* sh = buf[cur];
    const plan::tile t = plan::tile_of_block(d, blk);
    const std::size_t next = plan::pipeline_next(blk, gridDim.x, tiles);
    // Every thread is past the previous tile's store phase (which read buf[cur ^ 1])
    // before anyone's copies of the next tile land there.
    __syncthreads();
    if (next < tiles) prefetch_tile<Real>(d, next, src, buf[cur ^ 1]);
    cp_async_commit();      // the next tile's group (perhaps empty)
    cp_async_wait_prior();  // this tile's group is done
    if (Inv && a.twiddle) {
#pragma unroll 1
      for (unsigned i = 0; i < plan::elems_per_thread; ++i) {
        const unsigned q = threadIdx.x + i * d.threads;
        unsigned lane, idx;
        plan::tile_coords(d, q, lane, idx);
        const plan::element e = plan::element_at(d, t, lane, idx);
        if (e.valid) sh[plan::smem_pad(q)] = plan::c_mul_conj(sh[plan::smem_pad(q)], twiddle(e, idx));
      }
    }
    __syncthreads();
    C v[plan::elems_per_thread];
    auto get_shared = [&](unsigned lane, unsigned idx) -> C { return sh[plan::smem_index(d, lane, idx)]; };
    auto put_shared = [&](unsigned lane, unsigned idx, const C& x) { sh[plan::smem_index(d, lane, idx)] = x; };
    auto tw = [&](unsigned e) -> C { return ldg_c<Real>(block_tw + e); };
    unsigned log_ns = 0;
    for (unsigned s = 0; s < d.nstages; ++s) {
      const unsigned log_r = d.stage_log[s];
      plan::with_radix(log_r, [&](auto rc) {
        constexpr int R = decltype(rc)::value;
        plan::stage_read<R>(d, threadIdx.x, v, get_shared);
        __syncthreads();
        plan::stage_write<R, Inv>(d, threadIdx.x, log_ns, a.log_table, v, tw, put_shared);
        __syncthreads();
      });
      log_ns += log_r;
    }
#pragma unroll 8
    for (unsigned i = 0; i < plan::elems_per_thread; ++i) {
      const unsigned q = threadIdx.x + i * d.threads;
      unsigned lane, idx;
      plan::tile_coords(d, q, lane, idx);
      const plan::element e = plan::element_at(d, t, lane, idx);
      if (!e.valid) continue;
      C x = sh[plan::smem_pad(q)];
      if (!Inv && a.twiddle) x = plan::c_mul(x, twiddle(e, idx));
      store(st, e.flat >> a.log_n, e.flat & nmask, x);
    }
    cur ^= 1;
  }
  cp_async_wait_all();
  store.end(st);
}

// Launches the pipelined pass reading src (an array of batch * n elements): a grid of
// at most `persistent` blocks (two shared tiles each).
template <class Real, bool Inv, class Store>
cudaError_t launch_pass_pipelined(const pass_args& a, const device_tables<Real>& tb, const cplx<Real>* src,
                                  Store store, unsigned persistent, cudaStream_t stream) {
  auto kernel = fft_pass_pipelined_kernel<Real, Inv, Store>;
  const std::size_t smem = 2 * plan::smem_elements(a.d.log_tile()) * sizeof(cplx<Real>);
  static std::atomic<unsigned long long> done{0};  // opt in once per device, for the largest tile
  int dev = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e != cudaSuccess) return e;
  const unsigned long long bit = dev < 64 ? 1ull << dev : 0;
  if (!(done.load(std::memory_order_relaxed) & bit)) {
    const std::size_t most =
        2 * plan::smem_elements(plan::log_elems_per_thread + plan::ilog2(plan::max_threads<Real>())) *
        sizeof(cplx<Real>);
    e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(most > smem ? most : smem));
    if (e != cudaSuccess) return e;
    done.fetch_or(bit, std::memory_order_relaxed);
  }
  const std::size_t tiles = a.d.blocks();
  if (tiles == 0 || a.d.threads > plan::max_threads<Real>() || persistent == 0) return cudaErrorInvalidConfiguration;
  const unsigned grid = static_cast<unsigned>(tiles < persistent ? tiles : persistent);
  kernel<<<grid, a.d.threads, smem, stream>>>(a, tb.block, tb.lo, tb.hi, src, store);
  return cudaGetLastError();
}

}  // namespace bigmul::fft::cuda::detail
