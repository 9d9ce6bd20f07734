// SPDX-License-Identifier: LGPL-3.0-or-later
// The GPU FFT's product tail [GPUOWL]: the last forward pass of both operands, the
// pointwise product and the first inverse pass in one kernel (index math and pair
// arithmetic: fft/cuda/device_tail_plan.hpp, CPU model: tests/fft/test_fft_gpu_tail_model.cpp).
// A product then runs forward_head (passes 0..P-2 of each operand, into its spectrum
// buffer), product_tail, inverse_rest (passes P-2..0): the spectrum is read and written
// once fewer than forward + pointwise kernel + inverse. With one pass (n <= S) the
// whole product is this one kernel.
//
// The tile holds both operands (two shared buffers of a pass tile each, which only
// sm_90's shared memory per block fits; a square holds one), every thread 16
// elements as in fft_pass_kernel.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>

#include "fft/cuda/device_fft.cuh"
#include "fft/cuda/device_tail_plan.hpp"

namespace bigmul::fft::cuda {
namespace detail {

template <class Real>
struct tail_args {
  plan::tail_geom g;
  unsigned log_table;       // block twiddle table of the plan
  const cplx<Real>* rlo;    // split table of w_{2h} (real layout)
  const cplx<Real>* rhi;
  unsigned rlog_split;
  Real scale;
};

// The in-tile Stockham stages of one pass over sh (fft_pass_kernel's loop).
template <class Real, bool Inv>
__device__ __forceinline__ void tail_stages(const plan::pass_desc& d, unsigned log_table, cplx<Real>* sh,
                                            const cplx<Real>* __restrict__ block_tw, cplx<Real>* v) {
  using C = cplx<Real>;
  const unsigned tid = threadIdx.x;
  auto get_shared = [&](unsigned lane, unsigned idx) -> C { return sh[plan::smem_index(d, lane, idx)]; };
  auto put_shared = [&](unsigned lane, unsigned idx, const C& x) { sh[plan::smem_index(d, lane, idx)] = x; };
  auto tw = [&](unsigned e) -> C { return ldg_c<Real>(block_tw + e); };
  unsigned log_ns = 0;
  for (unsigned s = 0; s < d.nstages; ++s) {
    const unsigned log_r = d.stage_log[s];
    plan::with_radix(log_r, [&](auto rc) {
      constexpr int R = decltype(rc)::value;
      plan::stage_read<R>(d, tid, v, get_shared);
      __syncthreads();
      plan::stage_write<R, Inv>(d, tid, log_ns, log_table, v, tw, put_shared);
      __syncthreads();
    });
    log_ns += log_r;
  }
}

// Load phase of one operand into sh: the tile's rows (tail_row_of), zeros past the batch.
template <class Real, class Load>
__device__ __forceinline__ void tail_load(const tail_args<Real>& a, const Load& load, cplx<Real>* sh) {
  const plan::pass_desc& d = a.g.d;
  const std::size_t hmask = (std::size_t{1} << a.g.log_h) - 1;
#pragma unroll 8
  for (unsigned i = 0; i < plan::elems_per_thread; ++i) {
    const unsigned q = threadIdx.x + i * d.threads;
    unsigned lane, idx;
    plan::tile_coords(d, q, lane, idx);
    const plan::tail_row r = plan::tail_row_of(a.g, blockIdx.x, lane);
    const std::size_t flat = (r.outer << d.log_m) + idx;
    sh[plan::smem_pad(q)] = r.valid ? load(flat >> a.g.log_h, flat & hmask) : plan::make_c<cplx<Real>>(Real(0), Real(0));
  }
}

template <class Real, bool Packed, bool Square, class LoadX, class LoadY, class Store>
__global__ void __launch_bounds__(plan::max_threads<Real>(), 1)
    fft_tail_kernel(tail_args<Real> a, const cplx<Real>* __restrict__ block_tw, LoadX load_x, LoadY load_y,
                    Store store) {
  using C = cplx<Real>;
  extern __shared__ __align__(16) unsigned char fft_smem_raw[];
  const plan::pass_desc& d = a.g.d;
  C* shx = reinterpret_cast<C*>(fft_smem_raw);
  C* shy = Square ? shx : shx + plan::smem_elements(d.log_tile());
  C v[plan::elems_per_thread];
  tail_load<Real>(a, load_x, shx);
  if (!Square) tail_load<Real>(a, load_y, shy);
  __syncthreads();
  tail_stages<Real, false>(d, a.log_table, shx, block_tw, v);
  if (!Square) tail_stages<Real, false>(d, a.log_table, shy, block_tw, v);
  auto x = [&](unsigned lane, unsigned idx) -> C { return shx[plan::smem_index(d, lane, idx)]; };
  auto y = [&](unsigned lane, unsigned idx) -> C { return shy[plan::smem_index(d, lane, idx)]; };
  auto put = [&](unsigned lane, unsigned idx, const C& z) { shx[plan::smem_index(d, lane, idx)] = z; };
  if constexpr (Packed) {
    for (unsigned i = 0; i < plan::elems_per_thread / 2; ++i) {
      const plan::tail_pair t = plan::tail_pair_of(a.g, blockIdx.x, threadIdx.x + i * d.threads);
      plan::tail_pair_product<C, Square>(t, a.g.log_h, a.rlo, a.rhi, a.rlog_split, a.scale, x, y, put);
    }
  } else {
    for (unsigned i = 0; i < plan::elems_per_thread; ++i) {
      const unsigned q = plan::smem_pad(threadIdx.x + i * d.threads);
      shx[q] = plan::c_scale(plan::c_mul(shx[q], shy[q]), a.scale);
    }
  }
  __syncthreads();
  tail_stages<Real, true>(d, a.log_table, shx, block_tw, v);
  typename Store::state st = store.begin();
  const std::size_t hmask = (std::size_t{1} << a.g.log_h) - 1;
#pragma unroll 8
  for (unsigned i = 0; i < plan::elems_per_thread; ++i) {
    const unsigned q = threadIdx.x + i * d.threads;
    unsigned lane, idx;
    plan::tile_coords(d, q, lane, idx);
    const plan::tail_row r = plan::tail_row_of(a.g, blockIdx.x, lane);
    const std::size_t flat = (r.outer << d.log_m) + idx;
    if (r.valid) store(st, flat >> a.g.log_h, flat & hmask, shx[plan::smem_pad(q)]);
  }
  store.end(st);
}

}  // namespace detail

// Whether plan f can run the product tail (real layout: the last pass takes >= 2 rows a tile).
template <class Real>
bool product_tail_supported(const device_complex_fft<Real>& f, bool packed) {
  return plan::tail_supported(f.plan_desc(), packed);
}

namespace detail {
// A pass loading the array d_spec: pipelined where the plan says (FP64), as
// device_complex_fft::from_work does.
template <class Real, bool Inv, class Store>
cudaError_t tail_from_array(const device_complex_fft<Real>& f, const pass_args& a, const cplx<Real>* d_spec,
                            Store store, cudaStream_t s) {
  if constexpr (sizeof(Real) == 8) {
    if (f.plan_desc().persistent_blocks)
      return launch_pass_pipelined<Real, Inv>(a, f.tables(), d_spec, store, f.plan_desc().persistent_blocks, s);
  }
  return launch_pass<Real, Inv>(a, f.tables(), array_load<Real>{d_spec, f.size()}, store, s);
}
}  // namespace detail

// Forward passes 0..P-2 of `load` into d_spec (batch * size() elements, in place after
// the first pass); nothing for one pass.
template <class Real, class Load>
cudaError_t forward_head(const device_complex_fft<Real>& f, Load load, cplx<Real>* d_spec, cudaStream_t s) {
  const plan::fft_plan& p = f.plan_desc();
  const array_store<Real> as{d_spec, f.size()};
  cudaError_t e = cudaSuccess;
  for (unsigned i = 0; e == cudaSuccess && i + 1 < p.npasses; ++i) {
    const detail::pass_args a{p.pass[i], p.log_n, p.log_block_table, p.log_split, true};
    e = i == 0 ? detail::launch_pass<Real, false>(a, f.tables(), load, as, s)
               : detail::tail_from_array<Real, false>(f, a, d_spec, as, s);
  }
  return e;
}

// Inverse passes P-2..0 of d_spec in place, the last into `store`; nothing for one pass.
template <class Real, class Store>
cudaError_t inverse_rest(const device_complex_fft<Real>& f, cplx<Real>* d_spec, Store store, cudaStream_t s) {
  const plan::fft_plan& p = f.plan_desc();
  const array_store<Real> as{d_spec, f.size()};
  cudaError_t e = cudaSuccess;
  for (unsigned i = p.npasses - 1; e == cudaSuccess && i-- > 0;) {
    const detail::pass_args a{p.pass[i], p.log_n, p.log_block_table, p.log_split, true};
    e = i == 0 ? detail::tail_from_array<Real, true>(f, a, d_spec, store, s)
               : detail::tail_from_array<Real, true>(f, a, d_spec, as, s);
  }
  return e;
}

// The tail: load_x / load_y give the operands after forward_head (array loads of their
// spectrum buffers; with one pass the operands themselves), store takes the product after
// the first inverse pass (array store into x's buffer; with one pass the final store).
// Packed: f is a real transform's half plan, roots its split table of w_{2h}. scale as
// for the pointwise kernels. Square: load_y is not read.
template <class Real, bool Packed, bool Square, class LoadX, class LoadY, class Store>
cudaError_t product_tail(const device_complex_fft<Real>& f, const detail::device_tables<Real>* roots, Real scale,
                         LoadX load_x, LoadY load_y, Store store, cudaStream_t s) {
  const plan::fft_plan& p = f.plan_desc();
  if (!plan::tail_supported(p, Packed) || (Packed && roots == nullptr)) return cudaErrorInvalidValue;
  detail::tail_args<Real> a{plan::tail_geom_of(p, Packed), p.log_block_table, nullptr, nullptr,
                            plan::ilog2(f.size() * 2) / 2, scale};
  if (Packed) {
    a.rlo = roots->lo;
    a.rhi = roots->hi;
  }
  auto kernel = detail::fft_tail_kernel<Real, Packed, Square, LoadX, LoadY, Store>;
  const std::size_t one = plan::smem_elements(a.g.d.log_tile()) * sizeof(cplx<Real>);
  const std::size_t smem = Square ? one : 2 * one;
  if (smem > 48 * 1024) {
    static std::atomic<unsigned long long> done{0};  // opt in once per device, for the largest tile
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    const unsigned long long bit = dev < 64 ? 1ull << dev : 0;
    if (!(done.load(std::memory_order_relaxed) & bit)) {
      const std::size_t most =
          plan::smem_elements(plan::log_elems_per_thread + plan::ilog2(plan::max_threads<Real>())) *
          sizeof(cplx<Real>) * (Square ? 1 : 2);
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(most > smem ? most : smem));
      if (e != cudaSuccess) return e;
      done.fetch_or(bit, std::memory_order_relaxed);
    }
  }
  const std::size_t blocks = a.g.d.blocks();
  if (blocks == 0 || blocks > 0x7fffffffu || a.g.d.threads > plan::max_threads<Real>())
    return cudaErrorInvalidConfiguration;
  kernel<<<static_cast<unsigned>(blocks), a.g.d.threads, smem, s>>>(a, f.tables().block, load_x, load_y, store);
  return cudaGetLastError();
}

}  // namespace bigmul::fft::cuda
