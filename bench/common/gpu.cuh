// SPDX-License-Identifier: LGPL-3.0-or-later
// What the CUDA bench programs add to the harness (harness.hpp): the GPU in
// the context block, the "no GPU" rule every GPU program follows, and timing
// with CUDA events into the harness's `measurement`.
// Header-only and CUDA-only: harness.cpp stays plain C++ (the CPU programs
// must build without a CUDA toolkit).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "harness.hpp"

namespace bigmul::bench {

// Whether a CUDA device can be used; if not, why (in *why).
inline bool gpu_present(std::string* why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why) *why = e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device";
    return false;
  }
  return true;
}

// The rule of every GPU program without a usable GPU: a message and exit 0
// (a CPU-only machine runs them harmlessly), but exit 1 under
// BIGMUL_REQUIRE_GPU=1 (scripts/gpu-check.sh), so a GPU check cannot pass
// with nothing measured. Returns the exit status to use.
inline int no_gpu_exit(const std::string& program, const std::string& why) {
  const char* req = std::getenv("BIGMUL_REQUIRE_GPU");
  const bool required = req && std::string(req) == "1";
  std::printf("%s: no usable GPU (%s); nothing measured%s\n", program.c_str(), why.c_str(),
              required ? " (BIGMUL_REQUIRE_GPU=1: failing)" : "");
  return required ? 1 : 0;
}

// Peak DRAM bandwidth in GB/s from the device's memory clock and bus width
// (double data rate); 0 when the driver does not say.
inline double gpu_peak_gbyte_s(int dev) {
  int clock_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev) != cudaSuccess)
    return 0;
  return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
}

// The GPU in the context block: name, compute capability, SMs, memory, peak
// bandwidth, driver and runtime versions. Returns the device's properties.
inline cudaDeviceProp add_gpu_context(harness& h, int dev = 0) {
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) return p;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  const auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  h.context("gpu_name", p.name);
  h.context("gpu_compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor));
  h.context("gpu_sms", static_cast<double>(p.multiProcessorCount));
  h.context("gpu_memory_bytes", static_cast<double>(p.totalGlobalMem));
  h.context("gpu_peak_gbyte_s", gpu_peak_gbyte_s(dev));
  h.context("cuda_driver_version", version(driver));
  h.context("cuda_runtime_version", version(runtime));
  return p;
}

// How a GPU measurement runs: samples (at least min_runs and --min-time
// seconds, at most max_runs), each `reps` back-to-back calls between two
// events (reps = 0: chosen from a probe so that a sample takes ~2 ms, which
// hides the launch gaps of tiny transforms).
struct gpu_timing {
  timing t{0, 7, 7};
  int reps = 1;
};

// Times f() (returning cudaError_t) with CUDA events on stream s after one
// warm-up call; reset() runs untimed before each call (e.g. re-copies unsorted
// keys; it forces reps = 1). real_s: median seconds per call on the device;
// cpu_s: the host's process CPU time per call (launch overhead, host work).
// Returns the first error (m is then unset).
template <class F, class R>
cudaError_t gpu_measure(measurement& m, F&& f, R&& reset, gpu_timing g, cudaStream_t s = 0) {
  constexpr bool has_reset = !std::is_same_v<std::decay_t<R>, std::nullptr_t>;
  cudaEvent_t a = nullptr, b = nullptr;
  cudaError_t e = cudaEventCreate(&a);
  if (e == cudaSuccess) e = cudaEventCreate(&b);
  const auto cleanup = [&](cudaError_t r) {
    if (a) cudaEventDestroy(a);
    if (b) cudaEventDestroy(b);
    return r;
  };
  if (e != cudaSuccess) return cleanup(e);
  const auto sample = [&](int reps, double& ms_per_call, double& cpu_per_call) -> cudaError_t {
    if constexpr (has_reset) reset();
    const double c0 = cpu_seconds();
    cudaError_t x = cudaEventRecord(a, s);
    for (int r = 0; r < reps && x == cudaSuccess; ++r) x = f();
    if (x == cudaSuccess) x = cudaEventRecord(b, s);
    if (x == cudaSuccess) x = cudaEventSynchronize(b);
    float ms = 0;
    if (x == cudaSuccess) x = cudaEventElapsedTime(&ms, a, b);
    ms_per_call = double(ms) / reps;
    cpu_per_call = (cpu_seconds() - c0) / reps;
    return x;
  };
  if constexpr (has_reset) reset();
  if ((e = f()) != cudaSuccess || (e = cudaStreamSynchronize(s)) != cudaSuccess) return cleanup(e);
  int reps = has_reset ? 1 : std::max(1, g.reps);
  if (!has_reset && g.reps == 0) {
    double probe = 0, cpu = 0;
    if ((e = sample(1, probe, cpu)) != cudaSuccess) return cleanup(e);
    reps = std::max(1, std::min(200, static_cast<int>(2.0 / std::max(probe, 1e-3))));
  }
  std::vector<double> real, cpu;
  const double start = now_seconds();
  while (static_cast<int>(real.size()) < g.t.max_runs &&
         (static_cast<int>(real.size()) < g.t.min_runs || now_seconds() - start < g.t.min_time)) {
    double ms = 0, c = 0;
    if ((e = sample(reps, ms, c)) != cudaSuccess) return cleanup(e);
    real.push_back(ms / 1e3);
    cpu.push_back(c);
  }
  std::sort(real.begin(), real.end());
  std::sort(cpu.begin(), cpu.end());
  m.iterations = real.size() * static_cast<std::size_t>(reps);
  m.real_s = real[real.size() / 2];
  m.cpu_s = cpu[cpu.size() / 2];
  return cleanup(cudaSuccess);
}

template <class F>
cudaError_t gpu_measure(measurement& m, F&& f, gpu_timing g, cudaStream_t s = 0) {
  return gpu_measure(m, std::forward<F>(f), nullptr, g, s);
}

// A program's GPU timing with --repetitions / --min-time applied.
inline gpu_timing gpu_timing_for(const harness& h, gpu_timing defaults) {
  defaults.t = h.timing_for(defaults.t);
  return defaults;
}

}  // namespace bigmul::bench
