// In-house GPU FFT against cuFFT: forward and inverse transforms, complex (C2C) and
// real (R2C / C2R; in-house: the packed half-length complex transform), FP64 and
// FP32, n = 2^10 .. 2^24, single (G = 1) and batched (G = 2^24 / n transforms),
// data already on the device, timed with CUDA events (median of repeated runs).
//
// In-house "real" rows time the half-length complex transform of the packed signal
// (the unpacking that cuFFT's R2C does is fused into real_pointwise_multiply, which
// the "pointwise" rows time against cuFFT's plain bin-wise multiply).
//
// Usage: bench_fft_gpu JSON_PATH [max_log2=24]
// Prints a table and writes JSON {device, commit, date, peak_gbyte_s, rows: [...]}.
// Row fields: engine (inhouse | cufft), kind (complex | real), precision (f64 | f32),
// dir (forward | inverse | pointwise), n, G, ms, passes (in-house passes over memory; 0 for cuFFT),
// gbyte_s_min = (bytes of the data read + written once) / time,
// gbyte_s_pass = passes * that (in-house: the DRAM traffic it really moves),
// peak_fraction = gbyte_s_pass (or gbyte_s_min for cuFFT) / peak DRAM bandwidth,
// ratio_vs_cufft = cuFFT ms / in-house ms (> 1: in-house faster).
// Exits 0 with a message when there is no GPU (1 under BIGMUL_REQUIRE_GPU=1). BIGMUL_FFT_LOG_TILE=k runs the
// in-house FFT with tiles of 2^k elements instead of the default (tuning).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

#include "fft/cuda/cufft_plans.cuh"
#include "fft/cuda/device_fft.cuh"

namespace gpu = bigmul::fft::cuda;
using gpu::cplx;

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

struct row {
  std::string engine, kind, precision, dir;
  std::size_t n, G;
  double ms;
  unsigned passes;
  double gbs_min, gbs_pass, peak_fraction, ratio;
};

// Median time in ms of f() (already warmed up once).
template <class F>
double time_ms(F&& f) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(f());
  CHECK(cudaDeviceSynchronize());
  // Probe once to choose the repetitions per sample (>= ~2 ms per sample).
  CHECK(cudaEventRecord(a));
  CHECK(f());
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float probe = 0;
  CHECK(cudaEventElapsedTime(&probe, a, b));
  const int reps = std::max(1, std::min(200, static_cast<int>(2.0 / std::max(probe, 1e-3f))));
  std::vector<double> samples;
  for (int s = 0; s < 7; ++s) {
    CHECK(cudaEventRecord(a));
    for (int r = 0; r < reps; ++r) CHECK(f());
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    samples.push_back(double(ms) / reps);
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
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
void bench_precision(std::vector<row>& rows, unsigned max_log2) {
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
        fill_kernel<Real><<<1024, 256>>>(data, total + 64);  // finite data for every case
        fill_kernel<Real><<<1024, 256>>>(work, total + 64);
        CHECK(cudaGetLastError());
        double ms_in[3] = {0, 0, 0}, ms_cu[3] = {0, 0, 0};
        unsigned passes = 0;
        {
          // In-house (real: the half-length complex transform of the packed signal).
          const std::size_t len = real ? n / 2 : n;
          gpu::device_complex_fft<Real> f(len, G, lim);
          passes = f.plan_desc().npasses;
          cplx<Real>* w = f.workspace_elements() ? work : nullptr;
          ms_in[0] = time_ms([&] { return f.forward(data, w, 0); });
          ms_in[1] = time_ms([&] { return f.inverse(data, w, 0); });
          if (!real) {
            ms_in[2] = time_ms([&] { return gpu::complex_pointwise_multiply<Real>(f, data, work, Real(1), 0); });
          } else {
            gpu::device_real_fft<Real> rf(n, G);
            ms_in[2] = time_ms([&] { return gpu::real_pointwise_multiply<Real>(rf, data, work, Real(1), 0); });
          }
        }
        if (!real) {
          CHECK(gpu::cufft_prepare(sizeof(Real) == 8 ? gpu::cufft_kind::z2z : gpu::cufft_kind::c2c, n, G));
          ms_cu[0] = time_ms([&] { return gpu::cufft_forward_c2c(data, data, n, G, 0); });
          ms_cu[1] = time_ms([&] { return gpu::cufft_inverse_c2c(data, data, n, G, 0); });
          ms_cu[2] = time_ms([&] { return gpu::cufft_pointwise_multiply_c2c(data, work, n, G, Real(1), 0); });
        } else {
          CHECK(gpu::cufft_prepare(sizeof(Real) == 8 ? gpu::cufft_kind::d2z_z2d : gpu::cufft_kind::r2c_c2r, n, G));
          Real* rin = reinterpret_cast<Real*>(work);
          ms_cu[0] = time_ms([&] { return gpu::cufft_forward_r2c(rin, data, n, G, 0); });
          ms_cu[1] = time_ms([&] { return gpu::cufft_inverse_c2r(data, rin, n, G, 0); });
          ms_cu[2] = time_ms([&] { return gpu::cufft_pointwise_multiply_r2c(data, work, n, G, Real(1), 0); });
        }
        gpu::cufft_release_plans();  // keep device memory free for the next size
        for (int d = 0; d < 3; ++d) {
          const char* dir = d == 0 ? "forward" : d == 1 ? "inverse" : "pointwise";
          // Pointwise multiply: two spectra read, one written (bins: n complex, or n/2
          // in-house / n/2+1 cuFFT for real), one pass.
          const double pw_bins = real ? double(n / 2) : double(n);
          const double b_in = d < 2 ? bytes : 3.0 * G * pw_bins * sizeof(cplx<Real>);
          const double b_cu = d < 2 ? bytes : 3.0 * G * (real ? double(n / 2 + 1) : pw_bins) * sizeof(cplx<Real>);
          const unsigned p_in = d < 2 ? passes : 1;
          const double gbs_in = b_in / (ms_in[d] * 1e6), gbs_cu = b_cu / (ms_cu[d] * 1e6);
          rows.push_back({"inhouse", kind, prec, dir, n, G, ms_in[d], p_in, gbs_in, gbs_in * p_in,
                          peak_gbs > 0 ? gbs_in * p_in / peak_gbs : 0, ms_cu[d] / ms_in[d]});
          rows.push_back({"cufft", kind, prec, dir, n, G, ms_cu[d], 0, gbs_cu, gbs_cu,
                          peak_gbs > 0 ? gbs_cu / peak_gbs : 0, 1.0});
          const row& a = rows[rows.size() - 2];
          const row& c = rows.back();
          std::printf("%-7s %-4s %-7s n=2^%-2u G=%-6zu passes=%u  in-house %9.4f ms %7.1f GB/s (%5.1f%% peak)   "
                      "cuFFT %9.4f ms %7.1f GB/s   ratio %.2f\n",
                      kind, prec, dir, k, G, a.passes, a.ms, a.gbs_pass, 100 * a.peak_fraction, c.ms, c.gbs_min,
                      a.ratio);
          std::fflush(stdout);
        }
      }
    }
  }
  CHECK(cudaFree(data));
  CHECK(cudaFree(work));
}

std::string run_text(const char* cmd) {
  std::string out;
  if (FILE* p = popen(cmd, "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s JSON_PATH [max_log2=24]\n", argv[0]);
    return 2;
  }
  const unsigned max_log2 = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 24;
  if (max_log2 < 10 || max_log2 > 26) {
    std::fprintf(stderr, "max_log2 must be 10 .. 26\n");
    return 2;
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    // Under the GPU check (BIGMUL_REQUIRE_GPU=1) a missing GPU is a failure.
    const char* req = std::getenv("BIGMUL_REQUIRE_GPU");
    const bool required = req && std::string(req) == "1";
    std::printf("bench_fft_gpu: no CUDA device, nothing measured%s\n", required ? " (BIGMUL_REQUIRE_GPU=1: failing)" : "");
    return required ? 1 : 0;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0) == cudaSuccess && clock_khz > 0)
    peak_gbs = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;  // DDR: two transfers per clock
  else
    peak_gbs = 3350;  // H100 SXM
  std::string commit = run_text("git rev-parse HEAD 2>/dev/null");
  if (commit.empty()) commit = "unknown";
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::printf("device: %s, peak DRAM %.0f GB/s, commit %s, %s\n", prop.name, peak_gbs, commit.c_str(), date);

  std::vector<row> rows;
  try {
    bench_precision<double>(rows, max_log2);
    bench_precision<float>(rows, max_log2);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fft_gpu: %s\n", e.what());
    return 1;
  }

  FILE* f = std::fopen(argv[1], "w");
  if (!f) {
    std::fprintf(stderr, "cannot write %s\n", argv[1]);
    return 1;
  }
  std::fprintf(f, "{\n  \"benchmark\": \"bench_fft_gpu\",\n  \"device\": \"%s\",\n  \"commit\": \"%s\",\n", prop.name,
               commit.c_str());
  std::fprintf(f, "  \"date\": \"%s\",\n  \"peak_gbyte_s\": %.1f,\n  \"command\": \"bench_fft_gpu %s %u\",\n", date,
               peak_gbs, argv[1], max_log2);
  std::fprintf(f, "  \"rows\": [\n");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& r = rows[i];
    std::fprintf(f,
                 "    {\"engine\": \"%s\", \"kind\": \"%s\", \"precision\": \"%s\", \"dir\": \"%s\", \"n\": %zu, "
                 "\"G\": %zu, \"ms\": %.6f, \"passes\": %u, \"gbyte_s_min\": %.2f, \"gbyte_s_pass\": %.2f, "
                 "\"peak_fraction\": %.4f, \"ratio_vs_cufft\": %.4f}%s\n",
                 r.engine.c_str(), r.kind.c_str(), r.precision.c_str(), r.dir.c_str(), r.n, r.G, r.ms, r.passes,
                 r.gbs_min, r.gbs_pass, r.peak_fraction, r.ratio, i + 1 < rows.size() ? "," : "");
  }
  std::fprintf(f, "  ]\n}\n");
  std::fclose(f);
  std::printf("wrote %s (%zu rows)\n", argv[1], rows.size());
  return 0;
}
