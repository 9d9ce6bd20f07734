// SPDX-License-Identifier: LGPL-3.0-or-later
// cuFFT loaded on first use (fft/cuda/cufft_library.hpp): the candidate names,
// the loader's failures (a missing file, a library without cuFFT's functions,
// a memory cap that cannot map libcufft) as clear errors, never a crash, and the
// adapter reaching the loader before any CUDA call. Needs no GPU: CUDA builds
// run it on the CPU machine (libcufft itself loads without a device).
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bigmul/error.hpp"
#include "fft/cuda/cufft_library.hpp"
#include "fft/cuda/cufft_plans.cuh"

namespace bigmul::test {
namespace {

namespace gpu = bigmul::fft::cuda;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool all_resolved(const gpu::cufft_api& a) {
  return a.create && a.destroy && a.set_auto_allocation && a.make_plan_many64 && a.set_stream && a.set_work_area &&
         a.exec_c2c && a.exec_z2z && a.exec_r2c && a.exec_d2z && a.exec_c2r && a.exec_z2d && a.handle &&
         !a.loaded.empty();
}

bool none_resolved(const gpu::cufft_api& a) {
  return !a.create && !a.destroy && !a.set_auto_allocation && !a.make_plan_many64 && !a.set_stream &&
         !a.set_work_area && !a.exec_c2c && !a.exec_z2z && !a.exec_r2c && !a.exec_d2z && !a.exec_c2r && !a.exec_z2d &&
         !a.handle && a.loaded.empty();
}

// Restores BIGMUL_CUFFT_LIBRARY after a test that sets it.
class forced_library {
 public:
  explicit forced_library(const char* value) {
    if (const char* v = std::getenv("BIGMUL_CUFFT_LIBRARY")) saved_ = v, had_ = true;
    if (value) ::setenv("BIGMUL_CUFFT_LIBRARY", value, 1);
    else ::unsetenv("BIGMUL_CUFFT_LIBRARY");
  }
  ~forced_library() {
    if (had_) ::setenv("BIGMUL_CUFFT_LIBRARY", saved_.c_str(), 1);
    else ::unsetenv("BIGMUL_CUFFT_LIBRARY");
  }

 private:
  std::string saved_;
  bool had_ = false;
};

TEST(CufftLibrary, CandidatesAreTheSonameThenExistingToolkitPathThenPlainNames) {
  const forced_library none(nullptr);
  const std::vector<std::string> c = gpu::cufft_candidates();
  ASSERT_GE(c.size(), 3u);
  EXPECT_EQ(std::set<std::string>(c.begin(), c.end()).size(), c.size()) << "a name is tried twice";
  EXPECT_EQ(c.back(), "libcufft.so");  // the plain names come last
  for (const std::string& name : c) {
    EXPECT_TRUE(has(name, "libcufft.so")) << name;
    // A path is only ever the toolkit's file, and only where it exists here.
    if (has(name, "/")) EXPECT_EQ(::access(name.c_str(), F_OK), 0) << name;
    else EXPECT_TRUE(name.rfind("libcufft.so", 0) == 0) << name;
  }
  // The configured SONAME is tried first, by name (the loader's search path).
  EXPECT_FALSE(has(c.front(), "/")) << c.front();
  const forced_library empty("");  // set but empty: as if unset
  EXPECT_EQ(gpu::cufft_candidates(), c);
}

TEST(CufftLibrary, TheEnvironmentVariableIsTheOnlyCandidate) {
  const forced_library forced("/opt/elsewhere/libcufft.so.99");
  EXPECT_EQ(gpu::cufft_candidates(), std::vector<std::string>{"/opt/elsewhere/libcufft.so.99"});
}

TEST(CufftLibrary, AMissingLibraryIsAReasonNamingItAndDlerror) {
  gpu::cufft_api api;
  const std::string why = gpu::cufft_resolve({"libbigmul-no-such-cufft.so.99", "/nonexistent/libcufft.so.12"}, api);
  EXPECT_TRUE(has(why, "cuFFT (libcufft) cannot be loaded")) << why;
  // Both candidates, each with dlerror()'s own text.
  EXPECT_TRUE(has(why, "libbigmul-no-such-cufft.so.99: cannot open shared object file")) << why;
  EXPECT_TRUE(has(why, "/nonexistent/libcufft.so.12: cannot open shared object file")) << why;
  EXPECT_TRUE(has(why, "BIGMUL_CUFFT_LIBRARY")) << why;
  EXPECT_TRUE(none_resolved(api));
  EXPECT_TRUE(has(gpu::cufft_resolve({}, api), "no library name to try"));
}

TEST(CufftLibrary, ALibraryWithoutCufftsFunctionsIsRefusedByName) {
  gpu::cufft_api api;
  const std::string why = gpu::cufft_resolve({"libm.so.6"}, api);  // loads, but is not cuFFT
  EXPECT_TRUE(has(why, "libm.so.6: no function cufftCreate")) << why;
  EXPECT_TRUE(none_resolved(api));
}

TEST(CufftLibrary, TheToolkitsLibraryResolvesEveryFunction) {
  const forced_library none(nullptr);
  gpu::cufft_api api;
  const std::string why = gpu::cufft_resolve(gpu::cufft_candidates(), api);
  ASSERT_EQ(why, "");
  EXPECT_TRUE(all_resolved(api));
  // A failing candidate before it does not stop the search.
  gpu::cufft_api second;
  std::vector<std::string> names = gpu::cufft_candidates();
  names.insert(names.begin(), "libbigmul-no-such-cufft.so.99");
  ASSERT_EQ(gpu::cufft_resolve(names, second), "");
  EXPECT_EQ(second.loaded, api.loaded);
  EXPECT_EQ(second.create, api.create);  // the same library, already mapped
}

TEST(CufftLibrary, TheProcessTableIsResolvedOnceForAllThreads) {
  const forced_library none(nullptr);
  std::vector<const gpu::cufft_api*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t) threads.emplace_back([&, t] { seen[t] = gpu::cufft_library(); });
  for (auto& th : threads) th.join();
  ASSERT_NE(seen[0], nullptr);
  for (const auto* p : seen) EXPECT_EQ(p, seen[0]);
  EXPECT_TRUE(all_resolved(*seen[0]));
  EXPECT_EQ(&gpu::require_cufft(), seen[0]);
}

// The process-wide table reads BIGMUL_CUFFT_LIBRARY once: these run in a
// fresh process each (death tests, "threadsafe" style re-executes the program).
int child_wrong_library() {
  ::setenv("BIGMUL_CUFFT_LIBRARY", "/nonexistent/libcufft.so.12", 1);
  // The adapter reaches the loader before any CUDA call: on a machine without
  // a GPU or driver the answer is still the loader's.
  const cudaError_t e = gpu::cufft_prepare(gpu::cufft_kind::z2z, 1024, 1);
  if (e != cudaErrorSharedObjectInitFailed) return 10;
  if (!has(gpu::cufft_last_error(), "/nonexistent/libcufft.so.12: cannot open shared object file")) return 11;
  std::size_t bytes = 1;
  if (gpu::cufft_work_bytes(gpu::cufft_kind::r2c_c2r, 1024, 1, bytes) != cudaErrorSharedObjectInitFailed) return 12;
  if (gpu::cufft_forward_c2c(static_cast<gpu::cplx<double>*>(nullptr), nullptr, 1024, 1, 0) !=
      cudaErrorSharedObjectInitFailed)
    return 13;
  if (gpu::cufft_library() != nullptr) return 14;
  try {
    gpu::require_cufft();
  } catch (const bigmul::error& err) {
    if (err.code() != bigmul::error::kind::resource) return 15;
    std::fprintf(stderr, "%s\n", err.what());
    return 0;
  }
  return 16;
}

TEST(CufftLibraryDeathTest, AWrongLibraryNameIsAResourceErrorNotACrash) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(child_wrong_library()), ::testing::ExitedWithCode(0),
              "cuFFT \\(libcufft\\) cannot be loaded: /nonexistent/libcufft\\.so\\.12: cannot open shared object file");
}

// Virtual memory of this process now, in KiB.
unsigned long long vm_size_kib() {
  std::ifstream f("/proc/self/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7));
  return 0;
}

// Under a memory cap too small to map libcufft (ulimit -v), loading it is
// the same clear error: the CUDA build's bigmul once died with exit 127 there.
int child_capped() {
  ::unsetenv("BIGMUL_CUFFT_LIBRARY");
  const unsigned long long now = vm_size_kib();
  if (now == 0) return 20;
  const rlim_t cap = static_cast<rlim_t>((now + 16 * 1024) * 1024);  // 16 MiB more; libcufft maps > 100 MiB
  const rlimit lim{cap, cap};
  if (::setrlimit(RLIMIT_AS, &lim) != 0) return 21;
  try {
    gpu::require_cufft();
  } catch (const bigmul::error& err) {
    if (err.code() != bigmul::error::kind::resource) return 22;
    std::fprintf(stderr, "%s\n", err.what());
    return 0;
  }
  return 23;
}

TEST(CufftLibraryDeathTest, AMemoryCapThatCannotMapCufftIsAResourceError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(std::exit(child_capped()), ::testing::ExitedWithCode(0), "cuFFT \\(libcufft\\) cannot be loaded: .*libcufft");
}

}  // namespace
}  // namespace bigmul::test
