// SPDX-License-Identifier: LGPL-3.0-or-later
// In-house GPU FFT against cuFFT: forward and inverse transforms, complex (C2C) and
// real (R2C / C2R; in-house: the packed half-length complex transform), FP64 and
// FP32, n = 2^10 .. 2^max_log2, single (G = 1) and batched (G = 2^max_log2 / n
// transforms), data already on the device, timed with CUDA events (median of
// samples; a sample repeats the call until it takes ~2 ms).
//
// In-house "real" rows time the half-length complex transform of the packed signal
// (the unpacking that cuFFT's R2C does is fused into real_pointwise_multiply, which
// the "pointwise" rows time against cuFFT's plain bin-wise multiply).
//
//   bench_fft_gpu [--json FILE] [--max-log2 L=24] [--repetitions N] [--min-time S] [--filter REGEX]
// The harness's schema (bench/common/harness.hpp); context adds the GPU. Rows
// "fft/<kind>/<precision>/<dir>/n=2^k/G=<G>/<engine>" (engine inhouse | cufft),
// labels engine, kind, precision, dir; counters n, G, passes (in-house passes over
// memory; 0 for cuFFT), gbyte_s_min = (bytes read + written once) / time,
// gbyte_s_pass = passes * that (in-house: the DRAM traffic it really moves),
// peak_fraction = gbyte_s_pass (cuFFT: gbyte_s_min) / peak DRAM bandwidth;
// in-house rows: ratio_vs_cufft = in-house / cuFFT time, the cuFFT pipeline timed
// in the same process (below 1: in-house faster).
// Without a GPU: a message, exit 0 (1 under BIGMUL_REQUIRE_GPU=1), nothing written.
// BIGMUL_FFT_LOG_TILE=k runs the in-house FFT with tiles of 2^k elements instead of
// the default (tuning).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "fft/cuda/cufft_plans.cuh"
#include "fft/cuda/device_fft.cuh"
#include "gpu.cuh"
#include "harness.hpp"

namespace gpu = bigmul::fft::cuda;
using gpu::cplx;
namespace bench = bigmul::bench;

namespace {

#define CHECK(x)                                                                                             \
  do {                                                                                                       \
    const cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) {                                                                                 \
      std::fprintf(stderr, "%s:%d %s: %s %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_),             \
                   gpu::cufft_last_error());                                                                 \
      std::exit(1);                                                                                          \
    }                                                                                                        \
  } while (0)

bench::harness* H = nullptr;
bench::gpu_timing timing;

// Times f() (a cudaError_t-returning call); any error ends the program (exit 1).
template <class F>
bench::measurement time_call(F&& f) {
  bench::measurement m;
  CHECK(bench::gpu_measure(m, std::forward<F>(f), timing));
  return m;
}

template <class Real>
__global__ void fill_kernel(cplx<Real>* p, std::size_t count) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const unsigned h = static_cast<unsigned>(i * 2654435761u);
    p[i].x = static_cast<Real>((h & 0xffff) / 65536.0 - 0.5);
    p[i].y = static_cast<Real>((h >> 16) / 65536.0 - 0.5);
  }
}

double peak_gbs = 0;

template <class Real>
void bench_precision(unsigned max_log2) {
  const char* prec = sizeof(Real) == 8 ? "f64" : "f32";
  // BIGMUL_FFT_LOG_TILE=k overrides the tile size (2^k elements, k <= 13) for tuning.
  bigmul::fft::cuda::plan::limits lim = bigmul::fft::cuda::plan::default_limits<Real>();
  if (const char* t = std::getenv("BIGMUL_FFT_LOG_TILE")) lim.log_tile = static_cast<unsigned>(std::atoi(t));
  const std::size_t total = std::size_t{1} << max_log2;
  cplx<Real>*data = nullptr, *work = nullptr;
  CHECK(cudaMalloc(&data, (total + 64) * sizeof(cplx<Real>)));  // +: r2c's n/2+1 bins per transform
  CHECK(cudaMalloc(&work, (total + 64) * sizeof(cplx<Real>)));
  fill_kernel<Real><<<1024, 256>>>(data, total + 64);
  CHECK(cudaGetLastError());
  for (unsigned k = 10; k <= max_log2; ++k) {
    const std::size_t n = std::size_t{1} << k;
    std::vector<std::size_t> batches{1};
    if (total / n > 1) batches.push_back(total / n);  // batched: G * n = 2^max_log2 points
    for (std::size_t G : batches) {
      for (const char* kind : {"complex", "real"}) {
        const bool real = kind[0] == 'r';
        // Bytes moved once: complex n points in and out; real n reals in, n/2+1 bins out.
        const double bytes = real ? double(G) * (n * sizeof(Real) + (n / 2 + 1) * sizeof(cplx<Real>))
                                  : double(G) * 2.0 * n * sizeof(cplx<Real>);
        const char* dirs[3] = {"forward", "inverse", "pointwise"};
        const auto name = [&](int d, const char* engine) {
          return std::string("fft/") + kind + "/" + prec + "/" + dirs[d] + "/n=2^" + std::to_string(k) +
                 "/G=" + std::to_string(G) + "/" + engine;
        };
        bool wanted = false;
        for (int d = 0; d < 3; ++d) wanted |= H->selected(name(d, "inhouse")) || H->selected(name(d, "cufft"));
        if (!wanted) continue;
        fill_kernel<Real><<<1024, 256>>>(data, total + 64);  // finite data for every case
        fill_kernel<Real><<<1024, 256>>>(work, total + 64);
        CHECK(cudaGetLastError());
        bench::measurement m_in[3], m_cu[3];
        unsigned passes = 0;
        {
          // In-house (real: the half-length complex transform of the packed signal).
          const std::size_t len = real ? n / 2 : n;
          gpu::device_complex_fft<Real> f(len, G, lim);
          passes = f.plan_desc().npasses;
          cplx<Real>* w = f.workspace_elements() ? work : nullptr;
          m_in[0] = time_call([&] { return f.forward(data, w, 0); });
          m_in[1] = time_call([&] { return f.inverse(data, w, 0); });
          if (!real) {
            m_in[2] = time_call([&] { return gpu::complex_pointwise_multiply<Real>(f, data, work, Real(1), 0); });
          } else {
            gpu::device_real_fft<Real> rf(n, G);
            m_in[2] = time_call([&] { return gpu::real_pointwise_multiply<Real>(rf, data, work, Real(1), 0); });
          }
        }
        if (!real) {
          CHECK(gpu::cufft_prepare(sizeof(Real) == 8 ? gpu::cufft_kind::z2z : gpu::cufft_kind::c2c, n, G));
          m_cu[0] = time_call([&] { return gpu::cufft_forward_c2c(data, data, n, G, 0); });
          m_cu[1] = time_call([&] { return gpu::cufft_inverse_c2c(data, data, n, G, 0); });
          m_cu[2] = time_call([&] { return gpu::cufft_pointwise_multiply_c2c(data, work, n, G, Real(1), 0); });
        } else {
          CHECK(gpu::cufft_prepare(sizeof(Real) == 8 ? gpu::cufft_kind::d2z_z2d : gpu::cufft_kind::r2c_c2r, n, G));
          Real* rin = reinterpret_cast<Real*>(work);
          m_cu[0] = time_call([&] { return gpu::cufft_forward_r2c(rin, data, n, G, 0); });
          m_cu[1] = time_call([&] { return gpu::cufft_inverse_c2r(data, rin, n, G, 0); });
          m_cu[2] = time_call([&] { return gpu::cufft_pointwise_multiply_r2c(data, work, n, G, Real(1), 0); });
        }
        gpu::cufft_release_plans();  // keep device memory free for the next size
        for (int d = 0; d < 3; ++d) {
          // Pointwise multiply: two spectra read, one written (bins: n complex, or n/2
          // in-house / n/2+1 cuFFT for real), one pass.
          const double pw_bins = real ? double(n / 2) : double(n);
          const double b_in = d < 2 ? bytes : 3.0 * G * pw_bins * sizeof(cplx<Real>);
          const double b_cu = d < 2 ? bytes : 3.0 * G * (real ? double(n / 2 + 1) : pw_bins) * sizeof(cplx<Real>);
          const unsigned p_in = d < 2 ? passes : 1;
          const double s_in = m_in[d].real_s, s_cu = m_cu[d].real_s;
          const double gbs_in = b_in / (s_in * 1e9), gbs_cu = b_cu / (s_cu * 1e9);
          const auto add = [&](const char* engine, const bench::measurement& m, unsigned p, double gbs_min,
                               double gbs_pass) -> bench::row* {
            if (!H->selected(name(d, engine))) return nullptr;
            bench::row& r = H->add(name(d, engine), m);
            r.label("engine", engine).label("kind", kind).label("precision", prec).label("dir", dirs[d]);
            r.counter("n", double(n)).counter("G", double(G)).counter("passes", p);
            r.counter("gbyte_s_min", gbs_min).counter("gbyte_s_pass", gbs_pass);
            r.counter("peak_fraction", peak_gbs > 0 ? gbs_pass / peak_gbs : 0);
            return &r;
          };
          if (bench::row* r = add("inhouse", m_in[d], p_in, gbs_in, gbs_in * p_in)) r->baseline("cufft", s_cu);
          add("cufft", m_cu[d], 0, gbs_cu, gbs_cu);
          std::printf("%-7s %-4s %-9s n=2^%-2u G=%-6zu passes=%u  in-house %9.4f ms %7.1f GB/s (%5.1f%% peak)   "
                      "cuFFT %9.4f ms %7.1f GB/s   in-house/cuFFT %.2f\n",
                      kind, prec, dirs[d], k, G, p_in, s_in * 1e3, gbs_in * p_in,
                      peak_gbs > 0 ? 100 * gbs_in * p_in / peak_gbs : 0.0, s_cu * 1e3, gbs_cu, s_in / s_cu);
          std::fflush(stdout);
        }
      }
    }
  }
  CHECK(cudaFree(data));
  CHECK(cudaFree(work));
}

}  // namespace

int main(int argc, char** argv) {
  bench::harness h("bench_fft_gpu", argc, argv, "bench_fft_gpu.json");
  H = &h;
  const unsigned max_log2 = static_cast<unsigned>(h.number("--max-log2", 24));
  for (std::size_t i = 0; i < h.args().size(); ++i) {
    if (h.args()[i] == "--max-log2" && i + 1 < h.args().size()) {
      ++i;
      continue;
    }
    std::fprintf(stderr, "bench_fft_gpu: unknown argument %s\nusage: bench_fft_gpu [--json FILE] [--max-log2 L=24] "
                         "[--repetitions N] [--min-time S] [--filter REGEX]\n", h.args()[i].c_str());
    return 2;
  }
  if (max_log2 < 10 || max_log2 > 26) {
    std::fprintf(stderr, "--max-log2 must be 10 .. 26\n");
    return 2;
  }
  std::string why;
  if (!bench::gpu_present(&why)) return bench::no_gpu_exit("bench_fft_gpu", why);
  const cudaDeviceProp prop = bench::add_gpu_context(h);
  peak_gbs = bench::gpu_peak_gbyte_s(0);
  if (peak_gbs <= 0) peak_gbs = 3350;  // H100 SXM, when the driver does not say
  h.context("peak_gbyte_s", peak_gbs);
  h.context("max_log2", static_cast<double>(max_log2));
  if (const char* t = std::getenv("BIGMUL_FFT_LOG_TILE")) h.context("log_tile_override", t);
  timing = bench::gpu_timing_for(h, bench::gpu_timing{bench::timing{0, 7, 7}, 0});
  std::printf("device: %s, peak DRAM %.0f GB/s, commit %s, %s\n", prop.name, peak_gbs, bench::git_commit().c_str(),
              bench::now_iso8601().c_str());
  try {
    bench_precision<double>(max_log2);
    bench_precision<float>(max_log2);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fft_gpu: %s\n", e.what());
    return 1;
  }
  return h.write() ? 0 : 1;
}
