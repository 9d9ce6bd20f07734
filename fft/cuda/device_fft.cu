// SPDX-License-Identifier: LGPL-3.0-or-later
// Non-template host code of the in-house GPU FFT (twiddle tables, constructors),
// the pointwise kernels, and the explicit instantiations for double and float.
#include "fft/cuda/device_fft.cuh"

#include <cstdlib>
#include <string>
#include <vector>

#include "fft/twiddle.hpp"

namespace bigmul::fft::cuda {
namespace detail {
namespace {

[[noreturn]] void throw_cuda(const char* what, cudaError_t e) {
  throw bigmul::error(bigmul::error::kind::resource,
                      std::string("bigmul GPU FFT: ") + what + ": " + cudaGetErrorString(e));
}

template <class Real>
device_tables<Real> upload(const std::vector<cplx<Real>>& host) {
  device_tables<Real> t;
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, host.size() * sizeof(cplx<Real>));
  if (e != cudaSuccess) throw_cuda("cudaMalloc of the twiddle tables", e);
  e = cudaMemcpy(p, host.data(), host.size() * sizeof(cplx<Real>), cudaMemcpyHostToDevice);
  if (e != cudaSuccess) {
    cudaFree(p);
    throw_cuda("cudaMemcpy of the twiddle tables", e);
  }
  t.d = static_cast<cplx<Real>*>(p);
  return t;
}

}  // namespace

template <class Real>
device_tables<Real> upload_tables(const plan::fft_plan& p) {
  std::vector<cplx<Real>> host;
  plan::fill_tables(p, host);
  device_tables<Real> t = upload<Real>(host);
  const plan::table_layout l = plan::layout_of(p);
  t.block = t.d + l.block;
  t.lo = t.d + l.lo;
  t.hi = t.d + l.hi;
  return t;
}

template <class Real>
device_tables<Real> upload_split_roots(unsigned log_n) {
  const unsigned s = log_n / 2;
  const std::size_t nlo = std::size_t{1} << s, nhi = std::size_t{1} << (log_n - s);
  const std::uint64_t n = std::uint64_t{1} << log_n;
  std::vector<cplx<Real>> host(nlo + nhi);
  for (std::size_t e = 0; e < nlo; ++e) {
    const root_ld w = unit_root(e, n);
    host[e] = plan::make_c<cplx<Real>>(static_cast<Real>(w.re), static_cast<Real>(w.im));
  }
  for (std::size_t e = 0; e < nhi; ++e) {
    const root_ld w = unit_root(static_cast<std::uint64_t>(e) << s, n);
    host[nlo + e] = plan::make_c<cplx<Real>>(static_cast<Real>(w.re), static_cast<Real>(w.im));
  }
  device_tables<Real> t = upload<Real>(host);
  t.lo = t.d;
  t.hi = t.d + nlo;
  return t;
}

// BIGMUL_GPU_FFT_PIPELINE=1 or force (plan::limits::pipelined): the passes that load an array overlap the next tile's loads
// with the current tile's stages (device_fft_pipelined.cuh), one persistent block an SM
// (two shared tiles each fill most of it); 0 (off) otherwise or when the device cannot say.
unsigned pipeline_blocks(bool force) {
  static const bool on = [] {
    const char* v = std::getenv("BIGMUL_GPU_FFT_PIPELINE");
    return v && std::string(v) == "1";
  }();
  if (!on && !force) return 0;
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms <= 0)
    return 0;
  return static_cast<unsigned>(sms);
}

void free_tables(void* d) noexcept {
  if (d) cudaFree(d);
}

template device_tables<double> upload_tables<double>(const plan::fft_plan&);
template device_tables<float> upload_tables<float>(const plan::fft_plan&);
template device_tables<double> upload_split_roots<double>(unsigned);
template device_tables<float> upload_split_roots<float>(unsigned);

namespace {

template <class Real, bool Square>
__global__ void complex_pointwise_kernel(cplx<Real>* dst, const cplx<Real>* src, std::size_t count,
                                         Real scale) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const cplx<Real> a = dst[i];
    const cplx<Real> b = Square ? a : src[i];
    dst[i] = plan::c_scale(plan::c_mul(a, b), scale);
  }
}

// One thread per index i = b*h + pos (plan::real_pointwise_at).
template <class Real, bool Square>
__global__ void real_pointwise_kernel(cplx<Real>* dst, const cplx<Real>* src, unsigned log_h, std::size_t batch,
                                      plan::order ord, const cplx<Real>* __restrict__ lo,
                                      const cplx<Real>* __restrict__ hi, unsigned log_split, Real scale) {
  const std::size_t count = batch << log_h;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    plan::real_pointwise_at<cplx<Real>, Square>(dst, src, i, log_h, ord, lo, hi, log_split, scale);
}

unsigned grid_for(std::size_t count, unsigned threads) {
  std::size_t blocks = (count + threads - 1) / threads;
  if (blocks > 65536 * 8) blocks = 65536 * 8;  // grid-stride beyond this
  return static_cast<unsigned>(blocks == 0 ? 1 : blocks);
}

}  // namespace
}  // namespace detail

template <class Real>
device_complex_fft<Real>::device_complex_fft(std::size_t n, std::size_t batch)
    : device_complex_fft(n, batch, plan::default_limits<Real>()) {}

template <class Real>
device_complex_fft<Real>::device_complex_fft(std::size_t n, std::size_t batch, const plan::limits& lim)
    : plan_(lim.log_tile <= plan::log_elems_per_thread + plan::ilog2(plan::max_threads<Real>())
                ? plan::make_plan(n, batch, lim)
                : plan::fft_plan{}) {
  if (!plan_.valid)
    throw bigmul::error(bigmul::error::kind::invalid_argument,
                        "device_complex_fft: length must be a power of two 2 .. 2^26 and batch >= 1, got n = " +
                            std::to_string(n) + ", batch = " + std::to_string(batch));
  tables_ = detail::upload_tables<Real>(plan_);
  plan_.persistent_blocks = detail::pipeline_blocks(lim.pipelined);
}

template <class Real>
device_real_fft<Real>::device_real_fft(std::size_t n, std::size_t batch)
    : device_real_fft(n, batch, plan::default_limits<Real>()) {}

template <class Real>
device_real_fft<Real>::device_real_fft(std::size_t n, std::size_t batch, const plan::limits& lim)
    : n_(n), half_((n >= 4 && (n & (n - 1)) == 0) ? n / 2 : 0, batch, lim) {
  roots_ = detail::upload_split_roots<Real>(plan::ilog2(n));
}

template <class Real>
cudaError_t complex_pointwise_multiply(const device_complex_fft<Real>& f, cplx<Real>* d_dst,
                                       const cplx<Real>* d_src, Real scale, cudaStream_t s) {
  const std::size_t count = f.size() * f.batch();
  detail::complex_pointwise_kernel<Real, false><<<detail::grid_for(count, 256), 256, 0, s>>>(d_dst, d_src, count,
                                                                                            scale);
  return cudaGetLastError();
}

template <class Real>
cudaError_t complex_pointwise_square(const device_complex_fft<Real>& f, cplx<Real>* d_data, Real scale,
                                     cudaStream_t s) {
  const std::size_t count = f.size() * f.batch();
  detail::complex_pointwise_kernel<Real, true><<<detail::grid_for(count, 256), 256, 0, s>>>(d_data, d_data, count,
                                                                                           scale);
  return cudaGetLastError();
}

namespace {
template <class Real, bool Square>
cudaError_t real_pointwise(const device_real_fft<Real>& f, cplx<Real>* d_dst, const cplx<Real>* d_src, Real scale,
                           cudaStream_t s) {
  const device_complex_fft<Real>& half = f.half_plan();
  const unsigned log_h = plan::ilog2(half.size());
  const std::size_t count = f.batch() * half.size();
  const auto& r = f.roots();
  detail::real_pointwise_kernel<Real, Square><<<detail::grid_for(count, 256), 256, 0, s>>>(
      d_dst, d_src, log_h, f.batch(), half.plan_order(), r.lo, r.hi, plan::ilog2(f.size()) / 2, scale);
  return cudaGetLastError();
}
}  // namespace

template <class Real>
cudaError_t real_pointwise_multiply(const device_real_fft<Real>& f, cplx<Real>* d_dst, const cplx<Real>* d_src,
                                    Real scale, cudaStream_t s) {
  return real_pointwise<Real, false>(f, d_dst, d_src, scale, s);
}

template <class Real>
cudaError_t real_pointwise_square(const device_real_fft<Real>& f, cplx<Real>* d_data, Real scale, cudaStream_t s) {
  return real_pointwise<Real, true>(f, d_data, d_data, scale, s);
}

template class device_complex_fft<double>;
template class device_complex_fft<float>;
template class device_real_fft<double>;
template class device_real_fft<float>;

template cudaError_t complex_pointwise_multiply<double>(const device_complex_fft<double>&, double2*, const double2*,
                                                        double, cudaStream_t);
template cudaError_t complex_pointwise_multiply<float>(const device_complex_fft<float>&, float2*, const float2*, float,
                                                       cudaStream_t);
template cudaError_t complex_pointwise_square<double>(const device_complex_fft<double>&, double2*, double,
                                                      cudaStream_t);
template cudaError_t complex_pointwise_square<float>(const device_complex_fft<float>&, float2*, float, cudaStream_t);
template cudaError_t real_pointwise_multiply<double>(const device_real_fft<double>&, double2*, const double2*,
                                                     double, cudaStream_t);
template cudaError_t real_pointwise_multiply<float>(const device_real_fft<float>&, float2*, const float2*, float,
                                                    cudaStream_t);
template cudaError_t real_pointwise_square<double>(const device_real_fft<double>&, double2*, double, cudaStream_t);
template cudaError_t real_pointwise_square<float>(const device_real_fft<float>&, float2*, float, cudaStream_t);

}  // namespace bigmul::fft::cuda
