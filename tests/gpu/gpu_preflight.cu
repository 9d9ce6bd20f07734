// SPDX-License-Identifier: LGPL-3.0-or-later
// gpu_preflight: the first thing scripts/gpu-check.sh runs on the GPU machine.
// It makes a CUDA context, runs one kernel (the programs hold sm_90 code only:
// a device this build cannot run fails here, not in every test), and prints
// one line: device name, compute capability, memory, driver and runtime
// versions. Without a usable GPU it prints one line starting
// "gpu_preflight: no usable GPU:" and exits 1, so the check stops at once.
#include <cuda_runtime.h>

#include <cstdio>

namespace {

__global__ void mark(int* out) { *out = 0x600d; }

int refuse(const char* what, cudaError_t e) {
  std::printf("gpu_preflight: no usable GPU: %s: %s (%s)\n", what, cudaGetErrorString(e), cudaGetErrorName(e));
  return 1;
}

// A.B from CUDA's packed 1000*A + 10*B.
void version(char* buf, std::size_t size, int v) { std::snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10); }

}  // namespace

int main() {
  int driver = 0, runtime = 0, count = 0;
  cudaError_t e = cudaDriverGetVersion(&driver);
  if (e != cudaSuccess) return refuse("cudaDriverGetVersion", e);
  if (driver == 0) {
    std::printf("gpu_preflight: no usable GPU: no CUDA driver is installed\n");
    return 1;
  }
  cudaRuntimeGetVersion(&runtime);
  if ((e = cudaGetDeviceCount(&count)) != cudaSuccess) return refuse("cudaGetDeviceCount", e);
  if (count == 0) {
    std::printf("gpu_preflight: no usable GPU: no CUDA device is visible\n");
    return 1;
  }
  if ((e = cudaSetDevice(0)) != cudaSuccess || (e = cudaFree(nullptr)) != cudaSuccess)
    return refuse("creating a context on device 0", e);
  cudaDeviceProp p{};
  if ((e = cudaGetDeviceProperties(&p, 0)) != cudaSuccess) return refuse("cudaGetDeviceProperties", e);
  int* d = nullptr;
  int got = 0;
  if ((e = cudaMalloc(&d, sizeof(int))) != cudaSuccess) return refuse("cudaMalloc", e);
  mark<<<1, 1>>>(d);
  if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess)
    return refuse("a kernel launch (is this device's architecture in the build?)", e);
  if ((e = cudaMemcpy(&got, d, sizeof(int), cudaMemcpyDeviceToHost)) != cudaSuccess) return refuse("cudaMemcpy", e);
  cudaFree(d);
  if (got != 0x600d) {
    std::printf("gpu_preflight: no usable GPU: a kernel ran but wrote %#x instead of 0x600d\n", got);
    return 1;
  }
  char dv[16], rv[16];
  version(dv, sizeof dv, driver);
  version(rv, sizeof rv, runtime);
  std::printf("gpu_preflight: device 0 of %d: %s, compute capability %d.%d, %d SMs, %.0f MiB; driver CUDA %s, runtime %s\n",
              count, p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem / 1048576.0, dv, rv);
  return 0;
}
