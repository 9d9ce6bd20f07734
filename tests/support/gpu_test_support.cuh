// SPDX-License-Identifier: LGPL-3.0-or-later
// What every GPU test program shares: the device probe and its rule, the
// fixture GPU tests derive from, a device buffer, and CUDA_OK.
//
// The rule: without a usable GPU a GPU test skips, except under
// BIGMUL_REQUIRE_GPU=1 (scripts/gpu-check.sh sets it), where it FAILS, so a
// check run on a machine whose GPU is missing or broken cannot pass.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// Extra words CUDA_OK prints after the CUDA error (a file may define it before
// including this header, e.g. the cuFFT adapter's last message).
#ifndef BIGMUL_CUDA_OK_DETAIL
#define BIGMUL_CUDA_OK_DETAIL ""
#endif

// ASSERT that a CUDA call returned cudaSuccess, naming the call and the error.
#define CUDA_OK(expr)                                                                              \
  do {                                                                                             \
    const cudaError_t cuda_ok_e_ = (expr);                                                         \
    ASSERT_EQ(cuda_ok_e_, cudaSuccess) << #expr << ": " << cudaGetErrorString(cuda_ok_e_) << " " \
                                       << BIGMUL_CUDA_OK_DETAIL;                                   \
  } while (0)

namespace bigmul::test {

// True when BIGMUL_REQUIRE_GPU=1: a missing GPU is a failure, not a skip.
inline bool gpu_required() {
  const char* v = std::getenv("BIGMUL_REQUIRE_GPU");
  return v && std::strcmp(v, "1") == 0;
}

// "" when device 0 is usable (a context can be made on it, compute capability
// 9.0 or newer), else why not.
// Probed once per program; no CUDA call happens before the first GPU test.
inline const std::string& gpu_unusable_reason() {
  static const std::string why = [] {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
    if (n == 0) return std::string("no CUDA device is visible");
    if ((e = cudaSetDevice(0)) != cudaSuccess || (e = cudaFree(nullptr)) != cudaSuccess)
      return std::string("no context on device 0: ") + cudaGetErrorString(e);
    cudaDeviceProp p{};
    if ((e = cudaGetDeviceProperties(&p, 0)) != cudaSuccess)
      return std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(e);
    // The same bar as bigmul::cuda_usable(): the build holds sm_90 code.
    if (p.major < 9)
      return std::string(p.name) + " has compute capability " + std::to_string(p.major) + "." +
             std::to_string(p.minor) + "; this build targets sm_90 and newer";
    return std::string();
  }();
  return why;
}

inline bool gpu_usable() { return gpu_unusable_reason().empty(); }

// The base of every GPU test: skips (or, under BIGMUL_REQUIRE_GPU=1, fails)
// before the body when no GPU is usable.
class gpu_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpu_usable()) return;
    if (gpu_required()) FAIL() << "BIGMUL_REQUIRE_GPU=1 but no usable GPU: " << gpu_unusable_reason();
    GTEST_SKIP() << "no usable GPU: " << gpu_unusable_reason();
  }
};

// A device array of n T's (at least one allocated, so p is never null after a
// successful allocation), freed on scope exit. Failures are test failures.
template <class T>
struct dev_buf {
  T* p = nullptr;
  std::size_t n = 0;
  explicit dev_buf(std::size_t count) : n(count) {
    EXPECT_EQ(cudaMalloc(&p, std::max<std::size_t>(count, 1) * sizeof(T)), cudaSuccess);
  }
  explicit dev_buf(const std::vector<T>& v) : dev_buf(v.size()) { put(v); }
  ~dev_buf() { cudaFree(p); }
  dev_buf(const dev_buf&) = delete;
  dev_buf& operator=(const dev_buf&) = delete;
  // The first `count` elements (default: all n) back on the host.
  std::vector<T> get(std::size_t count) const {
    std::vector<T> v(count);
    if (count) EXPECT_EQ(cudaMemcpy(v.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
  std::vector<T> get() const { return get(n); }
  void put(const std::vector<T>& v) {
    EXPECT_LE(v.size(), std::max<std::size_t>(n, 1));
    if (!v.empty()) EXPECT_EQ(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  // Fills the first `count` elements with a byte pattern, so an element a
  // kernel never wrote shows.
  void poison(std::size_t count, int byte = 0xa5) {
    EXPECT_EQ(cudaMemset(p, byte, std::max<std::size_t>(count, 1) * sizeof(T)), cudaSuccess);
  }
};

}  // namespace bigmul::test
