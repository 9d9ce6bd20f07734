// SPDX-License-Identifier: LGPL-3.0-or-later
// Host API on the CUDA backend (mul/mul_cuda.hpp): probe the device, check
// its free memory, copy the operands in, run bigmul::cuda::mul, copy out.
#include <cuda_runtime.h>

#include <chrono>
#include <mutex>
#include <string>

#include "bigmul/device.hpp"
#include "bigmul/error.hpp"
#include "fft/cuda/cufft_library.hpp"
#include "mul/cuda/params_gpu.hpp"
#include "mul/mul_cuda.hpp"

namespace bigmul::detail {
namespace {

std::string probe_once() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
  }
  if (count == 0) return "no CUDA device";
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp p{};
  e = cudaGetDeviceProperties(&p, dev);
  if (e != cudaSuccess) return std::string("cannot query the CUDA device (") + cudaGetErrorString(e) + ")";
  if (p.major < 9)
    return std::string("CUDA device ") + p.name + " has compute capability " + std::to_string(p.major) + "." +
           std::to_string(p.minor) + "; this build targets sm_90 (Hopper) and newer";
  e = cudaFree(nullptr);  // creates the context now, so a broken driver shows here
  if (e != cudaSuccess) return std::string("cannot start the CUDA device (") + cudaGetErrorString(e) + ")";
  // The crossover table for this device (its own, else the nearest tuned one).
  int clock_khz = 0, bus_bits = 0;
  double dram_gbs = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess)
    dram_gbs = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  params_gpu::select_for_device(p.name, p.major * 10 + p.minor, p.multiProcessorCount, dram_gbs);
  return {};
}

std::string mib(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

// Device memory for the operands, the result and the temp storage, freed on
// every path.
struct device_block {
  void* p = nullptr;
  cudaStream_t s;
  explicit device_block(cudaStream_t st) : s(st) {}
  ~device_block() {
    if (p) cudaFreeAsync(p, s);
  }
};

template <class Run>
void run_on_device(std::size_t in_limbs_a, std::size_t in_limbs_b, std::size_t out_limbs, const limb_t* a,
                   const limb_t* b, limb_t* r, bool square, mul_stats& stats, Run&& device_call) {
  std::string why;
  if (!cuda_probe(why)) throw error(error::kind::resource, "CUDA backend: " + why);
  const cudaStream_t st = cudaStreamPerThread;
  std::size_t temp = 0;
  if (device_call(nullptr, temp, nullptr, nullptr, nullptr, st) != cudaSuccess)
    throw error(error::kind::domain, cuda::last_error_message());
  const std::size_t limb_bytes = (in_limbs_a + (square ? 0 : in_limbs_b) + out_limbs) * sizeof(limb_t);
  const std::size_t need = ((limb_bytes + 255) & ~std::size_t{255}) + temp;
  device_block mem(st);
  // Allocate first, ask why after: memory a previous call freed on the
  // stream may still count as used until the pool gives it back.
  if (cudaMallocAsync(&mem.p, need, st) != cudaSuccess) {
    cudaGetLastError();
    mem.p = nullptr;
    std::size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw error(error::kind::resource, "CUDA backend: the product needs " + mib(need) +
                                           " of GPU memory and the device has " + mib(free_b) + " free (of " +
                                           mib(total_b) + ")");
  }
  limb_t* d_a = static_cast<limb_t*>(mem.p);
  limb_t* d_b = square ? d_a : d_a + in_limbs_a;
  limb_t* d_r = d_b + (square ? in_limbs_a : in_limbs_b);
  void* d_temp = static_cast<char*>(mem.p) + ((limb_bytes + 255) & ~std::size_t{255});
  const auto check = [](cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw error(error::kind::internal, std::string("CUDA backend: ") + what + ": " + cudaGetErrorString(e));
  };
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  check(cudaMemcpyAsync(d_a, a, in_limbs_a * sizeof(limb_t), cudaMemcpyHostToDevice, st), "copy to the device");
  if (!square)
    check(cudaMemcpyAsync(d_b, b, in_limbs_b * sizeof(limb_t), cudaMemcpyHostToDevice, st), "copy to the device");
  check(cudaStreamSynchronize(st), "copy to the device");
  double transfer = std::chrono::duration<double>(clock::now() - t0).count();
  const cudaError_t e = device_call(d_temp, temp, d_r, d_a, d_b, st);
  // The size query above already refused what cannot be computed (domain);
  // a failure now is the device's or ours.
  if (e != cudaSuccess) throw error(error::kind::internal, cuda::last_error_message());
  t0 = clock::now();
  check(cudaMemcpyAsync(r, d_r, out_limbs * sizeof(limb_t), cudaMemcpyDeviceToHost, st), "copy from the device");
  check(cudaStreamSynchronize(st), "copy from the device");
  transfer += std::chrono::duration<double>(clock::now() - t0).count();
  stats.t_transfer = transfer;
}

cuda::device_options device_options_for(const mul_options& options, mul_stats& stats) {
  // The cuFFT engine opens libcufft on first use: a machine without it gets
  // the loader's reason as a resource error here, not a device error later.
  if (options.engine == fft_engine::cufft) fft::cuda::require_cufft();
  cuda::device_options o;
  o.algo = options.algo;
  o.engine = options.engine;
  o.coefficient_digits = options.coefficient_digits;
  o.tile = options.tile;
  o.modular_check = options.modular_check;
  o.stats = &stats;
  return o;
}

}  // namespace

bool cuda_probe(std::string& why) {
  static std::once_flag once;
  static std::string reason;
  std::call_once(once, [] { reason = probe_once(); });
  why = reason;
  return reason.empty();
}

void mul_cuda_host(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                   const mul_options& options, mul_stats& stats) {
  const cuda::device_options o = device_options_for(options, stats);
  const bool square = a == b && an == bn;
  run_on_device(an, bn, an + bn, a, b, r, square, stats,
                [&](void* t, std::size_t& tb, limb_t* d_r, const limb_t* d_a, const limb_t* d_b, cudaStream_t s) {
                  return cuda::mul(t, tb, d_r, d_a, an, d_b, bn, rx, o, s);
                });
}

void mul_batched_cuda_host(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t G, radix rx,
                           const mul_options& options, mul_stats& stats) {
  const cuda::device_options o = device_options_for(options, stats);
  const bool square = a == b;
  run_on_device(n * G, n * G, 2 * n * G, a, b, r, square, stats,
                [&](void* t, std::size_t& tb, limb_t* d_r, const limb_t* d_a, const limb_t* d_b, cudaStream_t s) {
                  return cuda::mul_batched(t, tb, d_r, d_a, d_b, n, G, rx, o, s);
                });
}

}  // namespace bigmul::detail
