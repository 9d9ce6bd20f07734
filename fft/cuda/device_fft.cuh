// SPDX-License-Identifier: LGPL-3.0-or-later
// In-house GPU FFT: complex and real (packed half-length) transforms of n = 2^k
// points, FP64 and FP32, batched. Header, because callers instantiate the pass
// kernel with their own Load / Store functors (fusing split, scaling and rounding
// into the first and last pass).
//
// Design (index math in fft/cuda/device_fft_plan.hpp, arithmetic in the device_*.hpp
// headers beside it, tested on the CPU by tests/fft/test_fft_gpu_model.cpp):
//  - n = m_0 * ... * m_{P-1}, P = 1..3 passes, each m_p <= S points held on chip
//    (S = 4096 double2 / 8192 float2 = 64 KiB of shared memory per tile; column
//    passes hold at most S/8 resp. S/16 points so that a tile reads >= 128 bytes of
//    consecutive columns). n <= S: one pass; n <= 2^21 (FP64) / 2^22 (FP32): two
//    passes; up to 2^26: three passes.
//  - Pass p: m_p-point DFTs over elements stride_p apart (four-step without
//    transposes), then the twiddle w_{len_p}^{inner*k}; every pass reads and writes
//    the same positions of its tile, so every pass can run in place.
//  - Inside a tile: a coalesced load phase (global -> shared), Stockham autosort
//    stages of radix 2..16 (16 elements per thread in registers, shared memory in
//    and out, 2 barriers per stage), a coalesced store phase (shared -> global).
//    Twiddles come from tables computed on the host in long double and rounded once
//    (never recurrences): w_M^e for the in-tile stages (M = largest m_p), and a split
//    table w_n^e = hi[e >> s] * lo[e & mask] for the inter-pass twiddles. Round-off
//    (CPU model, relative L2 vs long double): within ~15% of the CPU complex_fft.
//  - Tiles of at least 512 elements (32 threads; tiny transforms get padding rows),
//    at most 4096 double2 (256 threads) / 8192 float2 (512 threads).
//  - Output of the forward is in plan order: position pos holds frequency
//    plan_order().frequency_at(pos) (bit fields of the passes, reversed). The
//    inverse takes plan order and returns natural order, unscaled (times n).
//
// Buffers. forward(load, store, d_work, s): pass 0 calls `load` (natural order),
// the last pass calls `store` (plan order); passes in between read and write d_work
// in place (d_work holds batch*n elements, workspace_elements(); 0 when n <= S, where
// the single pass goes straight from load to store and d_work may be null). The
// inverse mirrors it: its first pass calls `load` (plan order), its last `store`
// (natural order). The array versions may run in place (d_data in and out); passing
// d_work == nullptr to them runs every pass in d_data.
//
// Functor protocols (all __device__, copied to the kernel by value):
//   Load:  cplx<Real> operator()(std::size_t b, std::size_t index) const;
//   Store: struct state; state begin() const;
//          void operator()(state&, std::size_t b, std::size_t index, cplx<Real> v) const;
//          void end(state&) const;
// The kernel that writes the final output calls begin() once per thread, the call
// operator for each element the thread owns (never for padding rows beyond the
// batch), and end() once per thread; every thread of every block calls begin() and
// end() (uniformly), so end() may use full-warp shuffles (__shfl_*_sync(0xffffffff))
// and one atomic per warp: all 32 lanes of each warp are active and blocks have a
// multiple of 32 threads (with the default limits; custom plan::limits with tiles
// under 512 elements give smaller blocks). Element order inside a thread is
// unspecified. The d_work of a multi-pass transform must not overlap the Load's
// source or the Store's destination (except the array versions, see above).
//
// Errors: the launchers return cudaGetLastError() after their launches and never
// synchronize; constructors throw bigmul::error when a CUDA call fails.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "bigmul/error.hpp"
#include "bigmul/hd.hpp"
#include "fft/cuda/device_complex.hpp"
#include "fft/cuda/device_fft_plan.hpp"
#include "fft/cuda/device_real_pointwise.hpp"
#include "fft/cuda/device_roundoff.hpp"
#include "fft/cuda/device_stockham.hpp"
#include "fft/cuda/device_twiddle_tables.hpp"

// Blocks per SM the FP64 pass kernel is compiled for (launch bound): 2 caps it at 128
// registers and spills (scripts/ptxas-report.py), 1 lets it keep its registers at
// half the occupancy. 1: no spills; which is faster is for bench_fft_gpu on a GPU to
// say (build with -DBIGMUL_FFT_F64_MIN_BLOCKS=2 for the other).
#ifndef BIGMUL_FFT_F64_MIN_BLOCKS
#define BIGMUL_FFT_F64_MIN_BLOCKS 1
#endif

namespace bigmul::fft::cuda {

template <class Real>
struct complex_of;
template <>
struct complex_of<double> {
  using type = double2;
};
template <>
struct complex_of<float> {
  using type = float2;
};
template <class Real>
using cplx = typename complex_of<Real>::type;

// Reads d_in[b*n + index].
template <class Real>
struct array_load {
  const cplx<Real>* d_in;
  std::size_t n;
  __device__ cplx<Real> operator()(std::size_t b, std::size_t index) const { return d_in[b * n + index]; }
};

// Writes d_out[b*n + index].
template <class Real>
struct array_store {
  cplx<Real>* d_out;
  std::size_t n;
  struct state {};
  __device__ state begin() const { return {}; }
  __device__ void operator()(state&, std::size_t b, std::size_t index, cplx<Real> v) const { d_out[b * n + index] = v; }
  __device__ void end(state&) const {}
};

namespace detail {

// Device twiddle tables of one plan (layout: plan::layout_of).
template <class Real>
struct device_tables {
  cplx<Real>* d = nullptr;
  const cplx<Real>* block = nullptr;
  const cplx<Real>* lo = nullptr;
  const cplx<Real>* hi = nullptr;
};
// Computes the tables on the host and uploads them (synchronous); throws bigmul::error.
template <class Real>
device_tables<Real> upload_tables(const plan::fft_plan& p);
// Split table of w_n^e (n = 2^log_n, lo: 2^(log_n/2) entries, hi: the rest) for the
// real FFT's pair arithmetic; throws bigmul::error.
template <class Real>
device_tables<Real> upload_split_roots(unsigned log_n);
void free_tables(void* d) noexcept;
// Persistent blocks of the pipelined passes (force or BIGMUL_GPU_FFT_PIPELINE=1: the
// device's SMs), 0: off.
unsigned pipeline_blocks(bool force);

template <class Real>
__device__ __forceinline__ cplx<Real> ldg_c(const cplx<Real>* p) {
  return __ldg(p);
}

struct pass_args {
  plan::pass_desc d;
  unsigned log_n;
  unsigned log_table;
  unsigned log_split;
  bool twiddle;  // this pass multiplies by the inter-pass twiddles (all but the last pass)
};

// One pass over all tiles (see device_fft_plan.hpp). Inv: inverse transform (conjugate
// roots; the inter-pass twiddle is applied to the input instead of the output).
template <class Real, bool Inv, class Load, class Store>
__global__ void __launch_bounds__(plan::max_threads<Real>(), sizeof(Real) == 8 ? BIGMUL_FFT_F64_MIN_BLOCKS : 1)
    fft_pass_kernel(pass_args a, const cplx<Real>* __restrict__ block_tw, const cplx<Real>* __restrict__ lo,
                    const cplx<Real>* __restrict__ hi, Load load, Store store) {
  using C = cplx<Real>;
  extern __shared__ __align__(16) unsigned char fft_smem_raw[];
  C* sh = reinterpret_cast<C*>(fft_smem_raw);
  const plan::pass_desc& d = a.d;
  const plan::tile t = plan::tile_of_block(d, blockIdx.x);
  const unsigned tid = threadIdx.x;
  const std::size_t nmask = (std::size_t{1} << a.log_n) - 1;

  auto get_global = [&](unsigned lane, unsigned idx) -> C {
    const plan::element e = plan::element_at(d, t, lane, idx);
    if (!e.valid) return plan::make_c<C>(Real(0), Real(0));
    C v = load(e.flat >> a.log_n, e.flat & nmask);
    if (Inv && a.twiddle) {
      const std::size_t ex = plan::pass_twiddle_exponent(a.log_n, d, e.inner, idx);
      const C w = plan::c_mul(ldg_c<Real>(hi + (ex >> a.log_split)),
                              ldg_c<Real>(lo + (ex & ((std::size_t{1} << a.log_split) - 1))));
      v = plan::c_mul_conj(v, w);
    }
    return v;
  };
  auto get_shared = [&](unsigned lane, unsigned idx) -> C { return sh[plan::smem_index(d, lane, idx)]; };
  auto put_shared = [&](unsigned lane, unsigned idx, const C& v) { sh[plan::smem_index(d, lane, idx)] = v; };
  auto put_global = [&](typename Store::state& st, unsigned lane, unsigned idx, C v) {
    const plan::element e = plan::element_at(d, t, lane, idx);
    if (!e.valid) return;
    if (!Inv && a.twiddle) {
      const std::size_t ex = plan::pass_twiddle_exponent(a.log_n, d, e.inner, idx);
      const C w = plan::c_mul(ldg_c<Real>(hi + (ex >> a.log_split)),
                              ldg_c<Real>(lo + (ex & ((std::size_t{1} << a.log_split) - 1))));
      v = plan::c_mul(v, w);
    }
    store(st, e.flat >> a.log_n, e.flat & nmask, v);
  };
  auto tw = [&](unsigned e) -> C { return ldg_c<Real>(block_tw + e); };

  constexpr unsigned V = plan::elems_per_thread;
  C v[V];
  // Load phase: coalesced reads of the whole tile into shared memory (no other values
  // are live here, so all V loads can be in flight).
#pragma unroll
  for (unsigned i = 0; i < V; ++i) {
    unsigned lane, idx;
    plan::tile_coords(d, tid + i * d.threads, lane, idx);
    v[i] = get_global(lane, idx);
  }
#pragma unroll
  for (unsigned i = 0; i < V; ++i) sh[plan::smem_pad(tid + i * d.threads)] = v[i];
  __syncthreads();
  unsigned log_ns = 0;
  for (unsigned s = 0; s < d.nstages; ++s) {
    // Read from the parameter by index: this puts the pass descriptor in local memory,
    // which measured (ptxas -v, sm_90) as fewer registers than keeping its fields in
    // registers.
    const unsigned log_r = d.stage_log[s];
    plan::with_radix(log_r, [&](auto rc) {
      constexpr int R = decltype(rc)::value;
      plan::stage_read<R>(d, tid, v, get_shared);
      __syncthreads();  // everyone has read before anyone overwrites
      plan::stage_write<R, Inv>(d, tid, log_ns, a.log_table, v, tw, put_shared);
      __syncthreads();
    });
    log_ns += log_r;
  }
  // Store phase: coalesced writes of the tile, 8 in flight: unrolled 16 times,
  // the forward's inter-pass twiddle loads of all 16 were live at once, which
  // spilled the FP32 kernel at 512 threads (128 registers; ptxas report).
  typename Store::state st = store.begin();
#pragma unroll 8
  for (unsigned i = 0; i < V; ++i) {
    unsigned lane, idx;
    plan::tile_coords(d, tid + i * d.threads, lane, idx);
    put_global(st, lane, idx, sh[plan::smem_pad(tid + i * d.threads)]);
  }
  store.end(st);
}

template <class Real, bool Inv, class Load, class Store>
cudaError_t launch_pass(const pass_args& a, const device_tables<Real>& tb, Load load, Store store,
                        cudaStream_t stream) {
  auto kernel = fft_pass_kernel<Real, Inv, Load, Store>;
  const std::size_t smem = plan::smem_elements(a.d.log_tile()) * sizeof(cplx<Real>);
  if (smem > 48 * 1024) {
    // Opt in to > 48 KiB of dynamic shared memory once per device (the largest tile's
    // size, so one call covers every plan of this kernel).
    static std::atomic<unsigned long long> done{0};
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    const unsigned long long bit = dev < 64 ? 1ull << dev : 0;
    if (!(done.load(std::memory_order_relaxed) & bit)) {
      const int most = static_cast<int>(plan::smem_elements(plan::log_elems_per_thread + plan::ilog2(plan::max_threads<Real>())) *
                                        sizeof(cplx<Real>));
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, std::max<int>(most, int(smem)));
      if (e != cudaSuccess) return e;
      done.fetch_or(bit, std::memory_order_relaxed);
    }
  }
  const std::size_t blocks = a.d.blocks();
  if (blocks == 0 || blocks > 0x7fffffffu || a.d.threads > plan::max_threads<Real>())
    return cudaErrorInvalidConfiguration;
  kernel<<<static_cast<unsigned>(blocks), a.d.threads, smem, stream>>>(a, tb.block, tb.lo, tb.hi, load, store);
  return cudaGetLastError();
}

}  // namespace detail
}  // namespace bigmul::fft::cuda

#include "fft/cuda/device_fft_pipelined.cuh"

namespace bigmul::fft::cuda {

// In-house complex FFT, n = 2^k (1 <= k <= 26), `batch` transforms of n points back
// to back (distance n). Forward: exp(-2 pi i jk/n), natural order in, plan order
// out. Inverse: plan order in, natural order out, unscaled (inverse(forward(x)) = n x).
template <class Real>
class device_complex_fft {
 public:
  using C = cplx<Real>;
  using order = plan::order;  // plan order <-> frequency; copyable to kernels

  device_complex_fft(std::size_t n, std::size_t batch);
  // Same with other tile limits (tuning and tests; tiles of at most
  // 16 * plan::max_threads<Real>() elements: log_tile <= 12 for double, 13 for float).
  device_complex_fft(std::size_t n, std::size_t batch, const plan::limits& lim);
  ~device_complex_fft() { detail::free_tables(tables_.d); }
  device_complex_fft(device_complex_fft&& o) noexcept : plan_(o.plan_), tables_(o.tables_) { o.tables_ = {}; }
  device_complex_fft& operator=(device_complex_fft&& o) noexcept {
    if (this != &o) {
      detail::free_tables(tables_.d);
      plan_ = o.plan_;
      tables_ = o.tables_;
      o.tables_ = {};
    }
    return *this;
  }
  device_complex_fft(const device_complex_fft&) = delete;
  device_complex_fft& operator=(const device_complex_fft&) = delete;

  std::size_t size() const { return std::size_t{1} << plan_.log_n; }
  std::size_t batch() const { return plan_.batch; }
  // cplx elements of scratch that forward/inverse need (whole batch); 0 for one pass.
  std::size_t workspace_elements() const { return plan_.npasses > 1 ? size() * batch() : 0; }
  order plan_order() const { return plan::order_of(plan_); }
  Real inverse_scale() const { return static_cast<Real>(1.0L / static_cast<long double>(size())); }
  const plan::fft_plan& plan_desc() const { return plan_; }
  // Twiddle tables on the device (fft/cuda/device_fft_tail.cuh runs passes with them).
  const detail::device_tables<Real>& tables() const { return tables_; }

  template <class Load, class Store>
  cudaError_t forward(Load load, Store store, C* d_work, cudaStream_t s) const {
    return run<false>(load, store, d_work, s);
  }
  template <class Load, class Store>
  cudaError_t inverse(Load load, Store store, C* d_work, cudaStream_t s) const {
    return run<true>(load, store, d_work, s);
  }
  cudaError_t forward(C* d_data, C* d_work, cudaStream_t s) const {
    return forward(array_load<Real>{d_data, size()}, array_store<Real>{d_data, size()}, d_work ? d_work : d_data, s);
  }
  cudaError_t inverse(C* d_data, C* d_work, cudaStream_t s) const {
    return inverse(array_load<Real>{d_data, size()}, array_store<Real>{d_data, size()}, d_work ? d_work : d_data, s);
  }

 private:
  detail::pass_args args(unsigned p, bool twiddle) const {
    return {plan_.pass[p], plan_.log_n, plan_.log_block_table, plan_.log_split, twiddle};
  }
  template <bool Inv, class Load, class Store>
  cudaError_t run(Load load, Store store, C* d_work, cudaStream_t s) const {
    const unsigned np = plan_.npasses;
    if (np == 1) return detail::launch_pass<Real, Inv>(args(0, false), tables_, load, store, s);
    if (d_work == nullptr) return cudaErrorInvalidValue;
    const array_store<Real> ws{d_work, size()};
    cudaError_t e;
    if constexpr (!Inv) {
      e = detail::launch_pass<Real, false>(args(0, true), tables_, load, ws, s);
      for (unsigned p = 1; e == cudaSuccess && p + 1 < np; ++p) e = from_work<false>(args(p, true), d_work, ws, s);
      if (e == cudaSuccess) e = from_work<false>(args(np - 1, false), d_work, store, s);
    } else {
      e = detail::launch_pass<Real, true>(args(np - 1, false), tables_, load, ws, s);
      for (unsigned p = np - 2; e == cudaSuccess && p >= 1; --p) e = from_work<true>(args(p, true), d_work, ws, s);
      if (e == cudaSuccess) e = from_work<true>(args(0, true), d_work, store, s);
    }
    return e;
  }
  // A pass loading d_work: pipelined (plan_.persistent_blocks; FP64 only: the FP32
  // kernel has 2 of its 128 registers left at 512 threads, and the persistent loop
  // spilled ~100 bytes) or fft_pass_kernel.
  template <bool Inv, class Store>
  cudaError_t from_work(const detail::pass_args& a, const C* d_work, Store store, cudaStream_t s) const {
    if constexpr (sizeof(Real) == 8) {
      if (plan_.persistent_blocks)
        return detail::launch_pass_pipelined<Real, Inv>(a, tables_, d_work, store, plan_.persistent_blocks, s);
    }
    return detail::launch_pass<Real, Inv>(a, tables_, array_load<Real>{d_work, size()}, store, s);
  }

  plan::fft_plan plan_;
  detail::device_tables<Real> tables_;
};

// Real FFT of n = 2^k >= 4 points through the half-length complex FFT (h = n/2) of
// the packed z_l = x_{2l} + i x_{2l+1} (Load gives z_l for l < h).
//  - forward: the half-length complex forward; leaves Z (h bins per transform, plan
//    order of half_plan()), NOT unpacked: the unpacking lives in the pointwise kernels.
//  - inverse: the half-length complex inverse (unscaled, times h = n/2); Store gets the
//    packed z_l. So inverse(forward(x)) = (n/2) x; after real_pointwise_multiply /
//    real_pointwise_square (which re-pack with a factor 2), inverse gives
//    n * scale * (cyclic convolution of length n), as on the CPU real_fft.
template <class Real>
class device_real_fft {
 public:
  using C = cplx<Real>;
  device_real_fft(std::size_t n, std::size_t batch);
  // Same with other tile limits for the half-length plan (the product's plan rule,
  // mul/gpu_plan_rule.hpp; tuning and tests).
  device_real_fft(std::size_t n, std::size_t batch, const plan::limits& lim);
  ~device_real_fft() { detail::free_tables(roots_.d); }
  device_real_fft(device_real_fft&& o) noexcept : n_(o.n_), half_(std::move(o.half_)), roots_(o.roots_) {
    o.roots_ = {};
  }
  device_real_fft& operator=(device_real_fft&& o) noexcept {
    if (this != &o) {
      detail::free_tables(roots_.d);
      n_ = o.n_;
      half_ = std::move(o.half_);
      roots_ = o.roots_;
      o.roots_ = {};
    }
    return *this;
  }
  device_real_fft(const device_real_fft&) = delete;
  device_real_fft& operator=(const device_real_fft&) = delete;

  std::size_t size() const { return n_; }
  std::size_t batch() const { return half_.batch(); }
  std::size_t workspace_elements() const { return half_.workspace_elements(); }
  const device_complex_fft<Real>& half_plan() const { return half_; }
  // 1/n: inverse(real_pointwise_*(..., scale = 1/n)) gives the plain convolution.
  Real inverse_scale() const { return static_cast<Real>(1.0L / static_cast<long double>(n_)); }
  // Split table of w_n^e, e < n (for the pair arithmetic).
  const detail::device_tables<Real>& roots() const { return roots_; }

  template <class Load, class Store>
  cudaError_t forward(Load load, Store store, C* d_work, cudaStream_t s) const {
    return half_.forward(load, store, d_work, s);
  }
  template <class Load, class Store>
  cudaError_t inverse(Load load, Store store, C* d_work, cudaStream_t s) const {
    return half_.inverse(load, store, d_work, s);
  }
  // d_data: batch * n/2 packed complex values.
  cudaError_t forward(C* d_data, C* d_work, cudaStream_t s) const { return half_.forward(d_data, d_work, s); }
  cudaError_t inverse(C* d_data, C* d_work, cudaStream_t s) const { return half_.inverse(d_data, d_work, s); }

 private:
  std::size_t n_;
  device_complex_fft<Real> half_;
  detail::device_tables<Real> roots_;
};

// dst = dst * src * scale for every bin (complex layout, any order), batch * n bins.
template <class Real>
cudaError_t complex_pointwise_multiply(const device_complex_fft<Real>& f, cplx<Real>* d_dst,
                                       const cplx<Real>* d_src, Real scale, cudaStream_t s);
template <class Real>
cudaError_t complex_pointwise_square(const device_complex_fft<Real>& f, cplx<Real>* d_data, Real scale,
                                     cudaStream_t s);
// d_dst, d_src: half-length forward outputs (plan order) of two packed real signals
// x, y. For every pair (k, h-k): unpack X, Y, P = X*Y*scale, re-pack P into d_dst as
// 2x the packed spectrum, so that inverse(d_dst) = n * scale * (x conv y), cyclic of
// length n (scale = inverse_scale() gives the plain convolution). d_src may equal d_dst.
template <class Real>
cudaError_t real_pointwise_multiply(const device_real_fft<Real>& f, cplx<Real>* d_dst, const cplx<Real>* d_src,
                                    Real scale, cudaStream_t s);
template <class Real>
cudaError_t real_pointwise_square(const device_real_fft<Real>& f, cplx<Real>* d_data, Real scale, cudaStream_t s);

extern template class device_complex_fft<double>;
extern template class device_complex_fft<float>;
extern template class device_real_fft<double>;
extern template class device_real_fft<float>;

}  // namespace bigmul::fft::cuda
