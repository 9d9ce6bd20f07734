// bench_mul_gpu: the GPU multiplication measured the way [DIEGUEZ18 ch. 7] does,
// with every baseline in the same run.
//   1. MData/s (million result digits per second; result = 2N digits per
//      product) for N = 2^12 .. 2^23 decimal digits per operand, single (G = 1)
//      and batched (G = 2^24 / (2N)), operands already on the device, for
//      tiled, complex and real, in-house and cuFFT, FP64 and FP32 (FP32 only
//      where the exactness table offers it). Ratio in-house / cuFFT.
//   2. [DIEGUEZ18 Table 7.2]: relative L2 round-off before rounding and max
//      |x - round(x)| for each FFT variant and size; the largest N where FP32
//      is still exact.
//   3. GPU against GMP mpz_mul on the host: device-resident and including both
//      transfers (host API).
//   4. Fraction of the memory-bandwidth floor: floor bytes = operand and
//      product limbs + 6 spectra (two forward writes, the pointwise pass
//      reading two and writing one, the inverse reading one), at the device's
//      peak DRAM bandwidth; fraction = floor time / measured time.
//   5. Batched 2048-bit products per second against GMP on all host cores.
//
//   bench_mul_gpu JSON_PATH [--max-log2 23] [--quick]
#include <cuda_runtime.h>
#include <gmp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"
#include "bigmul/device.hpp"
#include "bigmul/mul.hpp"
#include "mul/coefficients.hpp"
#include "mul/fft_mul.hpp"

using namespace bigmul;

namespace {

struct device_info {
  std::string name;
  double peak_gbs = 0;  // GB/s
};

device_info query_device() {
  device_info d;
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp p{};
  cudaGetDeviceProperties(&p, dev);
  d.name = p.name;
  int clock_khz = 0, bus_bits = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev);
  cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev);
  d.peak_gbs = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;  // double data rate
  return d;
}

struct variant {
  algorithm algo;
  fft_engine engine;
  const char* name;
  bool tile_pair = false;  // tiled: the paper's tile-pair kernel with atomics
};

const variant variants[] = {
    {algorithm::tiled, fft_engine::in_house, "tiled"},
    {algorithm::tiled, fft_engine::in_house, "tiled_tile_pair", true},
    {algorithm::fft_real, fft_engine::in_house, "real_f64_inhouse"},
    {algorithm::fft_real, fft_engine::cufft, "real_f64_cufft"},
    {algorithm::fft_complex, fft_engine::in_house, "complex_f64_inhouse"},
    {algorithm::fft_complex, fft_engine::cufft, "complex_f64_cufft"},
    {algorithm::fft_real_f32, fft_engine::in_house, "real_f32_inhouse"},
    {algorithm::fft_real_f32, fft_engine::cufft, "real_f32_cufft"},
    {algorithm::fft_complex_f32, fft_engine::in_house, "complex_f32_inhouse"},
    {algorithm::fft_complex_f32, fft_engine::cufft, "complex_f32_cufft"},
};

// Median of device-resident runs in seconds (cudaEvent timing); stats of the
// last run in *st. Returns < 0 on failure (message printed; main then exits 1).
double time_device(const variant& v, limb_t* d_r, const limb_t* d_a, const limb_t* d_b, std::size_t n,
                   std::size_t G, radix rx, void*& temp, std::size_t& temp_cap, mul_stats* st, int reps) {
  cuda::device_options o;
  o.algo = v.algo;
  o.engine = v.engine;
  o.tile_pair_atomic = v.tile_pair;
  std::size_t bytes = 0;
  const auto call = [&](void* t, std::size_t& b) {
    return G == 1 ? cuda::mul(t, b, d_r, d_a, n, d_b, n, rx, o) : cuda::mul_batched(t, b, d_r, d_a, d_b, n, G, rx, o);
  };
  if (call(nullptr, bytes) != cudaSuccess) {
    std::printf("  %s: size query: %s\n", v.name, cuda::last_error_message());
    return -1;
  }
  if (bytes > temp_cap) {
    cudaFree(temp);
    temp = nullptr;
    if (cudaMalloc(&temp, bytes) != cudaSuccess) {
      std::printf("  %s: cannot allocate %zu bytes of temp\n", v.name, bytes);
      temp_cap = 0;
      return -1;
    }
    temp_cap = bytes;
  }
  bytes = temp_cap;
  if (call(temp, bytes) != cudaSuccess) {  // warm-up: plans, caches
    std::printf("  %s: %s\n", v.name, cuda::last_error_message());
    return -1;
  }
  std::vector<double> t;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaError_t e = cudaSuccess;
  for (int i = 0; i < reps && e == cudaSuccess; ++i) {
    cudaEventRecord(e0);
    e = call(temp, bytes);
    cudaEventRecord(e1);
    if (e == cudaSuccess) e = cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    t.push_back(ms / 1e3);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (e == cudaSuccess && st) {
    o.stats = st;
    e = call(temp, bytes);
  }
  if (e != cudaSuccess) {
    std::printf("  %s: %s (%s)\n", v.name, cudaGetErrorString(e), cuda::last_error_message());
    return -1;
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double gmp_seconds(std::size_t digits, std::mt19937_64& g) {
  // The same values in binary: N decimal digits ~ N log2(10) bits.
  const std::size_t limbs = static_cast<std::size_t>(std::ceil(digits * 3.3219280948873623 / 64));
  const auto a = bench::random_limbs(limbs, radix::binary, g), b = bench::random_limbs(limbs, radix::binary, g);
  std::vector<mp_limb_t> r(2 * limbs);
  return bench::time_median(
      [&] {
        mpn_mul(r.data(), reinterpret_cast<const mp_limb_t*>(a.data()), static_cast<mp_size_t>(limbs),
                reinterpret_cast<const mp_limb_t*>(b.data()), static_cast<mp_size_t>(limbs));
      },
      0.2, 1, 20);
}

std::string fixed(double x, int prec = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", prec, x);
  return buf;
}
std::string sci(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3e", x);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_mul_gpu JSON_PATH [--max-log2 L] [--quick]\n");
    return 2;
  }
  const std::string json_path = argv[1];
  unsigned max_log2 = 23;
  bool quick = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--max-log2" && i + 1 < argc) max_log2 = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--quick") quick = true;
  }
  std::string why;
  if (!cuda_usable(&why)) {
    // Under the GPU check (BIGMUL_REQUIRE_GPU=1) a missing GPU is a failure.
    const char* req = std::getenv("BIGMUL_REQUIRE_GPU");
    const bool required = req && std::string(req) == "1";
    std::printf("bench_mul_gpu: no usable GPU (%s); nothing measured%s\n", why.c_str(),
                required ? " (BIGMUL_REQUIRE_GPU=1: failing)" : "");
    return required ? 1 : 0;
  }
  const device_info dev = query_device();
  const unsigned host_threads = std::max(1u, std::thread::hardware_concurrency());
  std::printf("# bench_mul_gpu  device %s (peak %.0f GB/s)  host %s  commit %s  %s\n", dev.name.c_str(), dev.peak_gbs,
              bench::machine_description().c_str(), bench::git_commit().c_str(), bench::today().c_str());
  std::ostringstream js;
  js << "{\n  \"context\": {\"device\": \"" << dev.name << "\", \"peak_gbs\": " << dev.peak_gbs << ", \"host\": \""
     << bench::machine_description() << "\", \"commit\": \"" << bench::git_commit() << "\", \"date\": \""
     << bench::today() << "\", \"floor_model\": \"limb bytes in+out + 6 spectra at peak DRAM bandwidth\"},\n"
     << "  \"rows\": [\n";
  bool first_row = true;
  const auto row = [&](const std::string& body) {
    js << (first_row ? "" : ",\n") << "    {" << body << "}";
    first_row = false;
  };

  std::mt19937_64 g(2026);
  const radix rx = radix::decimal;
  void* temp = nullptr;
  std::size_t temp_cap = 0;
  const int reps = quick ? 3 : 7;
  int failures = 0;  // variants that failed: printed, then exit status 1

  std::printf("\n%-22s %9s %6s %11s %9s %9s %10s %10s %8s %8s %9s\n", "variant", "N", "G", "time_ms", "MData/s",
              "vs_cufft", "max_round", "l2_round", "floor%", "xGMP", "xGMP+io");
  for (unsigned L = 12; L <= max_log2; ++L) {
    const std::size_t N = std::size_t{1} << L;  // decimal digits per operand
    const std::size_t n = (N + 18) / 19;        // limbs per operand
    const double gmp_s = gmp_seconds(N, g);
    for (const bool batched : {false, true}) {
      const std::size_t G = batched ? std::max<std::size_t>(1, (std::size_t{1} << 24) / (2 * N)) : 1;
      if (batched && G == 1) continue;  // same as single
      std::vector<limb_t> a, b;
      for (std::size_t k = 0; k < G; ++k) {
        const auto x = bench::random_decimal_digits(N, g), y = bench::random_decimal_digits(N, g);
        a.insert(a.end(), x.begin(), x.end());
        b.insert(b.end(), y.begin(), y.end());
      }
      limb_t *d_a, *d_b, *d_r;
      if (cudaMalloc(&d_a, a.size() * 8) != cudaSuccess || cudaMalloc(&d_b, b.size() * 8) != cudaSuccess ||
          cudaMalloc(&d_r, 2 * a.size() * 8) != cudaSuccess) {
        std::printf("out of device memory at N=%zu G=%zu\n", N, G);
        return 1;
      }
      if (cudaMemcpy(d_a, a.data(), a.size() * 8, cudaMemcpyHostToDevice) != cudaSuccess ||
          cudaMemcpy(d_b, b.data(), b.size() * 8, cudaMemcpyHostToDevice) != cudaSuccess) {
        std::printf("cannot copy the operands to the device at N=%zu G=%zu\n", N, G);
        return 1;
      }
      // Every variant of this (N, G) is timed first; the in-house / cuFFT
      // ratios need both twins' times, so rows are printed afterwards.
      struct timed {
        const variant* v;
        double t, with_io;
        mul_stats st;
      };
      std::vector<timed> done;
      double cufft_time[2][2] = {{0, 0}, {0, 0}};  // [real][f32]
      for (const variant& v : variants) {
        if (v.algo == algorithm::tiled && n > 4096) continue;  // quadratic
        if (v.algo != algorithm::tiled && detail::fft_pick_digits(v.algo, rx, n, n) == 0) continue;  // not exact
        mul_stats st;
        const double t = time_device(v, d_r, d_a, d_b, n, G, rx, temp, temp_cap, &st, reps);
        if (t < 0) {
          ++failures;
          continue;
        }
        const bool real = v.algo == algorithm::fft_real || v.algo == algorithm::fft_real_f32;
        const bool f32 = v.algo == algorithm::fft_real_f32 || v.algo == algorithm::fft_complex_f32;
        if (v.engine == fft_engine::cufft) cufft_time[real][f32] = t;
        // With transfers: the host API (copies in and out), single products only.
        double with_io = 0;
        if (!batched && !v.tile_pair) {
          mul_options o;
          o.algo = v.algo;
          o.engine = v.engine;
          o.where = backend::cuda;
          std::vector<limb_t> r(2 * n);
          try {
            with_io = bench::time_median([&] { mul(r.data(), a.data(), n, b.data(), n, rx, o); }, 0.2, 2, 20);
          } catch (const std::exception& ex) {
            std::printf("  %s with transfers: %s\n", v.name, ex.what());
            ++failures;
          }
        }
        done.push_back({&v, t, with_io, st});
      }
      for (const timed& d : done) {
        const variant& v = *d.v;
        const double t = d.t, with_io = d.with_io;
        const mul_stats& st = d.st;
        const bool real = v.algo == algorithm::fft_real || v.algo == algorithm::fft_real_f32;
        const bool f32 = v.algo == algorithm::fft_real_f32 || v.algo == algorithm::fft_complex_f32;
        const double vs_cufft =
            v.engine == fft_engine::in_house && v.algo != algorithm::tiled && cufft_time[real][f32] > 0
                ? cufft_time[real][f32] / t
                : 0;
        const double mdata = 2.0 * N * G / t / 1e6;
        // Floor: limbs in and out, 6 spectra.
        double floor_frac = 0;
        if (st.transform_length) {
          const double spectrum = (real ? st.transform_length / 2.0 : st.transform_length) * (f32 ? 8.0 : 16.0);
          const double bytes = G * (4.0 * n * 8 + 6 * spectrum);
          floor_frac = bytes / (dev.peak_gbs * 1e9) / t;
        }
        const double x_gmp = gmp_s * G / t, x_gmp_io = with_io > 0 ? gmp_s / with_io : 0;
        std::printf("%-22s %9zu %6zu %11.4f %9.1f %9s %10s %10s %8s %8.1f %9s\n", v.name, N, G, t * 1e3, mdata,
                    vs_cufft > 0 ? fixed(vs_cufft, 2).c_str() : "-", st.transform_length ? sci(st.max_roundoff).c_str() : "-",
                    st.transform_length ? sci(st.l2_roundoff).c_str() : "-",
                    floor_frac > 0 ? fixed(100 * floor_frac, 1).c_str() : "-", x_gmp,
                    with_io > 0 ? fixed(x_gmp_io, 1).c_str() : "-");
        std::fflush(stdout);
        row("\"variant\": \"" + std::string(v.name) + "\", \"digits\": " + std::to_string(N) +
            ", \"G\": " + std::to_string(G) + ", \"seconds\": " + sci(t) + ", \"mdata_per_s\": " + fixed(mdata, 2) +
            ", \"vs_cufft\": " + fixed(vs_cufft, 3) + ", \"transform_length\": " +
            std::to_string(st.transform_length) + ", \"coefficient_digits\": " +
            std::to_string(st.coefficient_digits) + ", \"max_roundoff\": " + sci(st.max_roundoff) +
            ", \"l2_roundoff\": " + sci(st.l2_roundoff) + ", \"floor_fraction\": " + fixed(floor_frac, 4) +
            ", \"gmp_seconds\": " + sci(gmp_s * G) + ", \"x_gmp\": " + fixed(x_gmp, 2) +
            ", \"seconds_with_transfers\": " + sci(with_io) + ", \"x_gmp_with_transfers\": " + fixed(x_gmp_io, 2));
      }
      cudaFree(d_a);
      cudaFree(d_b);
      cudaFree(d_r);
    }
  }

  // Largest N where FP32 is still offered (exact by the table) per variant.
  std::printf("\n# largest N (decimal digits per operand) where FP32 is exact by the table:\n");
  for (algorithm algo : {algorithm::fft_complex_f32, algorithm::fft_real_f32}) {
    std::size_t best = 0;
    for (std::size_t N = 16; N <= (std::size_t{1} << 24); N *= 2)
      if (detail::fft_pick_digits(algo, rx, (N + 18) / 19, (N + 18) / 19)) best = N;
    std::printf("#   %s: N = %zu\n", algorithm_name(algo), best);
    row("\"fp32_exact_up_to\": \"" + std::string(algorithm_name(algo)) + "\", \"digits\": " + std::to_string(best));
  }

  // Batched 2048-bit (32-limb binary) products per second: GPU vs GMP on all host cores.
  {
    const std::size_t n = 32, G = quick ? 8192 : 65536;
    std::vector<limb_t> a, b;
    for (std::size_t k = 0; k < G; ++k) {
      const auto x = bench::random_limbs(n, radix::binary, g), y = bench::random_limbs(n, radix::binary, g);
      a.insert(a.end(), x.begin(), x.end());
      b.insert(b.end(), y.begin(), y.end());
    }
    limb_t *d_a, *d_b, *d_r;
    if (cudaMalloc(&d_a, a.size() * 8) != cudaSuccess || cudaMalloc(&d_b, b.size() * 8) != cudaSuccess ||
        cudaMalloc(&d_r, 2 * a.size() * 8) != cudaSuccess ||
        cudaMemcpy(d_a, a.data(), a.size() * 8, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(d_b, b.data(), b.size() * 8, cudaMemcpyHostToDevice) != cudaSuccess) {
      std::printf("cannot place the batched 2048-bit operands on the device\n");
      return 1;
    }
    std::vector<mp_limb_t> r(2 * n * G);
    const double t_gmp = bench::time_median(
        [&] {
          std::vector<std::thread> pool;
          for (unsigned w = 0; w < host_threads; ++w)
            pool.emplace_back([&, w] {
              for (std::size_t k = w; k < G; k += host_threads)
                mpn_mul_n(r.data() + 2 * n * k, reinterpret_cast<const mp_limb_t*>(a.data() + n * k),
                          reinterpret_cast<const mp_limb_t*>(b.data() + n * k), static_cast<mp_size_t>(n));
            });
          for (auto& t : pool) t.join();
        },
        0.3, 3, 50);
    std::printf("\n# batched 2048-bit products, G = %zu\n", G);
    std::printf("%-22s %14s %10s\n", "variant", "products/s", "vs_GMP");
    std::printf("%-22s %14.3e %10s\n", ("gmp_" + std::to_string(host_threads) + "_threads").c_str(), G / t_gmp, "1.00");
    row("\"batched_2048\": \"gmp\", \"threads\": " + std::to_string(host_threads) + ", \"products_per_s\": " +
        sci(G / t_gmp));
    for (const variant& v : {variants[0], variants[1], variants[2], variants[3]}) {
      const double t = time_device(v, d_r, d_a, d_b, n, G, radix::binary, temp, temp_cap, nullptr, reps);
      if (t < 0) {
        ++failures;
        continue;
      }
      std::printf("%-22s %14.3e %10.2f\n", v.name, G / t, t_gmp / t);
      row("\"batched_2048\": \"" + std::string(v.name) + "\", \"products_per_s\": " + sci(G / t) +
          ", \"vs_gmp_all_cores\": " + fixed(t_gmp / t, 3));
    }
    // Including transfers (host API).
    mul_options o;
    o.where = backend::cuda;
    std::vector<limb_t> rr(2 * n * G);
    const double t_io = bench::time_median([&] { mul_batched(rr.data(), a.data(), b.data(), n, G, radix::binary, o); },
                                           0.3, 3, 50);
    std::printf("%-22s %14.3e %10.2f\n", "auto_with_transfers", G / t_io, t_gmp / t_io);
    row("\"batched_2048\": \"auto_with_transfers\", \"products_per_s\": " + sci(G / t_io) +
        ", \"vs_gmp_all_cores\": " + fixed(t_gmp / t_io, 3));
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_r);
  }
  cudaFree(temp);
  js << "\n  ]\n}\n";
  std::ofstream(json_path) << js.str();
  std::printf("# wrote %s\n", json_path.c_str());
  if (failures) {
    std::printf("bench_mul_gpu: %d variant(s) failed (see above)\n", failures);
    return 1;
  }
  return 0;
}
