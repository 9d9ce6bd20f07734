// SPDX-License-Identifier: LGPL-3.0-or-later
// tune_gpu: measures the GPU dispatcher's crossovers and writes the table of
// the GPU it runs on, OUT_DIR/params_<device>.inc (mul/cuda/params_gpu.hpp:
// one table per device, <device> = device_key of its name, e.g. h200):
//   tile         fastest tiled-convolution tile at 1024 x 1024 limbs
//   fft          smallest bn where the in-house fft_real beats tiled on the
//                device (operands resident), and keeps beating it for the next
//                two sizes
//   batched_fft  the same for batched products (G * n = 2^20 limbs)
//   host         smallest an + bn where the GPU through the host API (both
//                transfers included) beats the CPU dispatcher on all cores
//
//   tune_gpu OUT_DIR [--log PATH]   (e.g. mul/cuda; the log, default
//   bench/results/tune_gpu.txt from the working directory, gets what stdout
//   gets: the measurements behind the table)
//
// Any error (an allocation, a launch, a product) is printed and the program
// exits 1 without writing the table: a table from failed measurements would
// look like a tuned one. Without a GPU it writes nothing and exits 0, or 1
// under BIGMUL_REQUIRE_GPU=1 (the GPU check).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpu.cuh"
#include "harness.hpp"
#include "bigmul/device.hpp"
#include "bigmul/mul.hpp"
#include "mul/cuda/params_gpu.hpp"

using namespace bigmul;

namespace {

// Prints what failed and ends the program with status 1 (nothing written).
[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "tune_gpu: %s; nothing written\n", what.c_str());
  std::fflush(stdout);
  std::exit(1);
}

void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) fail(what + ": " + cudaGetErrorString(e) + " (" + cuda::last_error_message() + ")");
}

struct device_operands {
  limb_t *a = nullptr, *b = nullptr, *r = nullptr;
  void* temp = nullptr;
  std::size_t cap = 0;
  device_operands(const std::vector<limb_t>& x, const std::vector<limb_t>& y) {
    check(cudaMalloc(&a, x.size() * 8), "cudaMalloc");
    check(cudaMalloc(&b, y.size() * 8), "cudaMalloc");
    check(cudaMalloc(&r, (x.size() + y.size()) * 8), "cudaMalloc");
    check(cudaMemcpy(a, x.data(), x.size() * 8, cudaMemcpyHostToDevice), "cudaMemcpy");
    check(cudaMemcpy(b, y.data(), y.size() * 8, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  ~device_operands() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(r);
    cudaFree(temp);
  }
};

// Median device time of cuda::mul / mul_batched; any error ends the program.
double device_time(device_operands& d, std::size_t n, std::size_t G, radix rx, algorithm algo, unsigned tile) {
  cuda::device_options o;
  o.algo = algo;
  o.tile = tile;
  std::size_t bytes = 0;
  const auto call = [&](void* t, std::size_t& bt) {
    return G == 1 ? cuda::mul(t, bt, d.r, d.a, n, d.b, n, rx, o) : cuda::mul_batched(t, bt, d.r, d.a, d.b, n, G, rx, o);
  };
  const std::string what = std::string(algorithm_name(algo)) + " n=" + std::to_string(n) + " G=" + std::to_string(G) +
                           (rx == radix::decimal ? " decimal" : " binary") + (tile ? " tile " + std::to_string(tile) : "");
  check(call(nullptr, bytes), what + ": size query");
  if (bytes > d.cap) {
    cudaFree(d.temp);
    d.temp = nullptr;
    check(cudaMalloc(&d.temp, bytes), what + ": " + std::to_string(bytes) + " bytes of temp");
    d.cap = bytes;
  }
  bytes = d.cap;
  check(call(d.temp, bytes), what);
  check(cudaDeviceSynchronize(), what);
  // CUDA events: the device's time whether or not the call waits for its
  // kernels (host timing of a call that returns early would time the launch).
  bench::measurement m;
  check(bench::gpu_measure(m, [&] { return call(d.temp, bytes); }, bench::gpu_timing{bench::timing{0.05, 5, 200}, 1}),
        what + " (timed runs)");
  check(cudaDeviceSynchronize(), what + " (timed runs)");
  return m.real_s;
}

std::size_t grow(std::size_t n) { return n + std::max<std::size_t>(1, n / 4); }

int tune(const std::string& out_dir, const std::string& log_path);

}  // namespace

int main(int argc, char** argv) {
  std::string log_path = "bench/results/tune_gpu.txt";
  if (argc == 4 && std::string(argv[2]) == "--log") log_path = argv[3];
  if (argc != 2 && argc != 4) {
    std::fprintf(stderr, "usage: tune_gpu OUT_DIR [--log PATH]\n");
    return 2;
  }
  std::string why;
  if (!cuda_usable(&why)) {
    const char* req = std::getenv("BIGMUL_REQUIRE_GPU");
    const bool required = req && std::string(req) == "1";
    std::printf("tune_gpu: no usable GPU (%s); nothing written%s\n", why.c_str(),
                required ? " (BIGMUL_REQUIRE_GPU=1: failing)" : "");
    return required ? 1 : 0;
  }
  if (!std::filesystem::is_directory(argv[1])) {
    std::fprintf(stderr, "tune_gpu: %s is not a folder (the table goes to OUT_DIR/params_<device>.inc)\n", argv[1]);
    return 2;
  }
  try {
    return tune(argv[1], log_path);
  } catch (const std::exception& e) {  // the host API's errors (bigmul::error)
    fail(e.what());
  }
}

namespace {

int tune(const std::string& out_dir, const std::string& log_path) {
  if (!bench::open_log(log_path)) fail("cannot write " + log_path);
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  const std::string key = detail::params_gpu::device_key(p.name);
  const std::string out_path = out_dir + "/params_" + key + ".inc";
  const double dram_gbs = bench::gpu_peak_gbyte_s(0);
  bench::say("# tune_gpu  device %s  host %s  commit %s  %s\n", p.name, bench::machine_description().c_str(),
              bench::git_commit().c_str(), bench::today().c_str());
  std::mt19937_64 g(7);

  // Tile size.
  unsigned best_tile = 128;
  {
    const std::size_t n = 1024;
    device_operands d(bench::random_limbs(n, radix::binary, g), bench::random_limbs(n, radix::binary, g));
    double best = 1e30;
    for (unsigned tile : {32u, 64u, 128u, 256u, 512u}) {
      const double t = device_time(d, n, 1, radix::binary, algorithm::tiled, tile);
      bench::say("tile %4u: %.4f ms\n", tile, t * 1e3);
      if (t < best) {
        best = t;
        best_tile = tile;
      }
    }
  }

  std::size_t fft_x[2] = {0, 0}, batched_x[2] = {0, 0}, host_x[2] = {0, 0};
  for (radix rx : {radix::binary, radix::decimal}) {
    const int ri = rx == radix::decimal;
    const char* rname = ri ? "decimal" : "binary";
    // Single products on the device: tiled vs fft_real.
    int wins = 0;
    std::size_t first_win = 0;
    for (std::size_t n = 16; n <= 32768 && !fft_x[ri]; n = grow(n)) {
      device_operands d(bench::random_limbs(n, rx, g), bench::random_limbs(n, rx, g));
      const double tt = device_time(d, n, 1, rx, algorithm::tiled, best_tile);
      const double tf = device_time(d, n, 1, rx, algorithm::fft_real, 0);
      bench::say("%s single n=%zu: tiled %.4f ms, fft_real %.4f ms\n", rname, n, tt * 1e3, tf * 1e3);
      if (tf < tt) {
        if (wins++ == 0) first_win = n;
        if (wins == 3) fft_x[ri] = first_win;
      } else {
        wins = 0;
      }
    }
    if (!fft_x[ri]) fft_x[ri] = 32768;
    // Batched: G * n = 2^20 limbs.
    wins = 0;
    std::size_t first_batched = 0;
    for (std::size_t n = 8; n <= 8192 && !batched_x[ri]; n = grow(n)) {
      const std::size_t G = std::max<std::size_t>(1, (std::size_t{1} << 20) / n);
      device_operands d(bench::random_limbs(n * G, rx, g), bench::random_limbs(n * G, rx, g));
      const double tt = device_time(d, n, G, rx, algorithm::tiled, best_tile);
      const double tf = device_time(d, n, G, rx, algorithm::fft_real, 0);
      bench::say("%s batched n=%zu G=%zu: tiled %.4f ms, fft_real %.4f ms\n", rname, n, G, tt * 1e3, tf * 1e3);
      if (tf < tt) {
        if (wins++ == 0) first_batched = n;
        if (wins == 3) batched_x[ri] = first_batched;
      } else {
        wins = 0;
      }
    }
    if (!batched_x[ri]) batched_x[ri] = 8192;
    // Host API with transfers vs the CPU on all cores.
    wins = 0;
    std::size_t first_host = 0;
    for (std::size_t n = 64; n <= (std::size_t{1} << 20) && !host_x[ri]; n = grow(n)) {
      const auto a = bench::random_limbs(n, rx, g), b = bench::random_limbs(n, rx, g);
      std::vector<limb_t> r(2 * n);
      mul_options gpu, cpu;
      gpu.where = backend::cuda;
      cpu.where = backend::cpu;
      const double tg = bench::measure([&] { mul(r.data(), a.data(), n, b.data(), n, rx, gpu); }, {0.05, 3, 100}).real_s;
      const double tc = bench::measure([&] { mul(r.data(), a.data(), n, b.data(), n, rx, cpu); }, {0.05, 3, 100}).real_s;
      bench::say("%s host n=%zu: gpu+transfers %.4f ms, cpu %.4f ms\n", rname, n, tg * 1e3, tc * 1e3);
      if (tg < tc) {
        if (wins++ == 0) first_host = 2 * n;
        if (wins == 3) host_x[ri] = first_host;
      } else {
        wins = 0;
      }
    }
    if (!host_x[ri]) host_x[ri] = std::size_t{1} << 21;
  }

  // One entry of params_gpu.hpp's list: key, device, sm, SMs, GB/s,
  // binary {fft, host, batched_fft}, decimal {...}, tile.
  std::ofstream out(out_path);
  char gbs[32];
  std::snprintf(gbs, sizeof gbs, "%.0f", dram_gbs);
  out << "// SPDX-License-Identifier: LGPL-3.0-or-later\n";
  out << "// Generated by bench/tune/tune_gpu on " << p.name << " (host " << bench::machine_description() << "), "
      << bench::today() << ", commit " << bench::git_commit() << "; do not edit by hand.\n"
      << "{\"" << key << "\", \"" << p.name << "\", " << p.major * 10 + p.minor << ", " << p.multiProcessorCount << ", "
      << gbs << ", {" << fft_x[0] << ", " << host_x[0] << ", " << batched_x[0] << "}, {" << fft_x[1] << ", "
      << host_x[1] << ", " << batched_x[1] << "}, " << best_tile << "},\n";
  out.close();
  if (!out) fail("cannot write " + out_path);
  bench::say("# wrote %s: binary {%zu, %zu, %zu}, decimal {%zu, %zu, %zu}, tile %u\n", out_path.c_str(), fft_x[0],
              host_x[0], batched_x[0], fft_x[1], host_x[1], batched_x[1], best_tile);
  bool listed = false;
  for (const auto& t : detail::params_gpu::tables) listed = listed || key == t.key;
  if (!listed)
    bench::say("# a new device: commit %s as mul/cuda/params_%s.inc and add its #include to the list in "
               "mul/cuda/params_gpu.hpp\n", out_path.c_str(), key.c_str());
  return 0;
}

}  // namespace
