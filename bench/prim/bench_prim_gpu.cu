// SPDX-License-Identifier: LGPL-3.0-or-later
// GPU primitives against CUB and a device-to-device copy, timed with CUDA
// events (median of 15 runs after a warm-up, data already on the device).
//   bench_prim_gpu [--json FILE] [--max-log2 L=28] [--repetitions N] [--min-time S] [--filter REGEX]
// The harness's schema (bench/common/harness.hpp); context adds the GPU and the
// kernels' tuning. Rows "prim/<name>/<type>/n=<n>/G=<G>" (G problems of n
// elements), counters n, G, gbyte_s (bytes read + written once / time) and
// ratio_vs_<baseline> = ours / the baseline's time, the baseline (CUB or the
// copy) timed in the same process (below 1: we are faster); the baseline rows
// themselves carry none. --filter picks the rows written; every case is still
// timed (the rows' baselines come from it).
// Without a GPU: a message, exit 0 (1 under BIGMUL_REQUIRE_GPU=1), nothing written.
#include <cuda_runtime.h>

#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "prim/cuda/device_radix_sort.cuh"
#include "prim/cuda/device_reduce.cuh"
#include "prim/cuda/device_scan.cuh"
#include "prim/cuda/device_sort.cuh"
#include "prim/ops.hpp"
#include "gpu.cuh"
#include "harness.hpp"

namespace gpu = bigmul::prim::cuda;
using bigmul::prim::plus_op;
namespace bench = bigmul::bench;

namespace {

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

struct temp_pool {
  void* p = nullptr;
  std::size_t bytes = 0;
  void* get(std::size_t b) {
    if (b > bytes) {
      if (p) CHECK(cudaFree(p));
      CHECK(cudaMalloc(&p, b));
      bytes = b;
    }
    return p;
  }
};

bench::harness* H = nullptr;
bench::gpu_timing timing;

// Median seconds of `run` on the device (after one warm-up); `reset` runs
// untimed before each run (e.g. re-copy unsorted input). Errors end the program.
bench::measurement time_run(const std::function<void()>& run, const std::function<void()>& reset = {}) {
  bench::measurement m;
  const auto f = [&]() -> cudaError_t {
    run();
    return cudaGetLastError();
  };
  if (reset) CHECK(bench::gpu_measure(m, f, [&] { reset(); }, timing));
  else CHECK(bench::gpu_measure(m, f, timing));
  return m;
}

// One row: our time against the baselines timed in this run (none for a
// baseline's own row).
void report(const std::string& name, const std::string& type, std::size_t n, std::size_t G,
            const bench::measurement& m, double bytes,
            std::initializer_list<std::pair<const char*, const bench::measurement*>> baselines = {}) {
  const std::string full = "prim/" + name + "/" + type + "/n=" + std::to_string(n) + "/G=" + std::to_string(G);
  std::printf("%-28s %-6s n=%-10zu G=%-6zu %9.4f ms %8.2f GB/s", name.c_str(), type.c_str(), n, G, m.real_s * 1e3,
              bytes / m.real_s / 1e9);
  for (const auto& [who, b] : baselines) std::printf("  %s/%s %.3f", name.c_str(), who, m.real_s / b->real_s);
  std::printf("\n");
  if (!H->selected(full)) return;
  bench::row& r = H->add(full, m);
  r.label("type", type).counter("n", double(n)).counter("G", double(G)).counter("gbyte_s", bytes / m.real_s / 1e9);
  for (const auto& [who, b] : baselines) r.baseline(who, b->real_s);
}

// a[0..n) == b[0..n) (device arrays, compared on the host).
template <class T>
bool same_on_device(const T* a, const T* b, std::size_t n) {
  std::vector<T> x(n), y(n);
  CHECK(cudaMemcpy(x.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(y.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost));
  return x == y;
}

struct custom_less {  // forces CUB's merge sort onto a user comparator
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const { return a < b; }
};

template <class T>
void run_type(const char* tname, unsigned max_log, temp_pool& pool) {
  std::mt19937_64 g(7);
  const std::size_t max_n = std::size_t{1} << max_log;
  std::vector<T> host(max_n);
  for (auto& x : host) x = static_cast<T>(g() % 1000);
  T *in, *out, *keys;
  CHECK(cudaMalloc(&in, max_n * sizeof(T)));
  CHECK(cudaMalloc(&out, max_n * sizeof(T)));
  CHECK(cudaMalloc(&keys, max_n * sizeof(T)));
  CHECK(cudaMemcpy(in, host.data(), max_n * sizeof(T), cudaMemcpyHostToDevice));
  for (unsigned lg = 16; lg <= max_log; lg += 2) {
    const std::size_t n = std::size_t{1} << lg;
    std::size_t b = 0;
    const bench::measurement copy = time_run([&] { CHECK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); });
    report("copy_d2d", tname, n, 1, copy, 2.0 * n * sizeof(T));
    // Reduce.
    CHECK(cub::DeviceReduce::Sum(nullptr, b, in, out, int(n)));
    void* t = pool.get(b);
    const bench::measurement cub_reduce = time_run([&] { CHECK(cub::DeviceReduce::Sum(t, b, in, out, int(n))); });
    report("cub_reduce", tname, n, 1, cub_reduce, 1.0 * n * sizeof(T));
    for (auto order : {bigmul::prim::operand_order::commutative, bigmul::prim::operand_order::ordered}) {
      CHECK(gpu::device_reduce(nullptr, b, in, out, n, plus_op{}, T{0}, order));
      t = pool.get(b);
      const bench::measurement ms = time_run([&] { CHECK(gpu::device_reduce(t, b, in, out, n, plus_op{}, T{0}, order)); });
      report(order == bigmul::prim::operand_order::commutative ? "reduce_cascading" : "reduce_ordered", tname, n, 1,
             ms, 1.0 * n * sizeof(T), {{"cub_reduce", &cub_reduce}});
    }
    // Scan.
    CHECK(cub::DeviceScan::InclusiveSum(nullptr, b, in, out, int(n)));
    t = pool.get(b);
    const bench::measurement cub_scan = time_run([&] { CHECK(cub::DeviceScan::InclusiveSum(t, b, in, out, int(n))); });
    report("cub_scan", tname, n, 1, cub_scan, 2.0 * n * sizeof(T), {{"copy_d2d", &copy}});
    const bool compare = n <= (std::size_t{1} << 22);  // outputs checked against CUB's up to 2^22
    if (compare) CHECK(cudaMemcpy(keys, out, n * sizeof(T), cudaMemcpyDeviceToDevice));
    for (auto alg : {gpu::scan_algorithm::lookback, gpu::scan_algorithm::reduce_then_scan,
                     gpu::scan_algorithm::lookback_packed}) {
      CHECK(gpu::device_inclusive_scan(nullptr, b, in, out, n, plus_op{}, T{0}, 0, alg));
      t = pool.get(b);
      const bench::measurement ms = time_run([&] { CHECK(gpu::device_inclusive_scan(t, b, in, out, n, plus_op{}, T{0}, 0, alg)); });
      const char* name = alg == gpu::scan_algorithm::lookback          ? "scan_lookback"
                         : alg == gpu::scan_algorithm::lookback_packed ? "scan_lookback_packed"
                                                                       : "scan_reduce_then_scan";
      if (compare && !same_on_device(keys, out, n)) {
        std::fprintf(stderr, "bench_prim_gpu: %s %s n=%zu differs from CUB's scan\n", name, tname, n);
        std::exit(1);
      }
      // Against CUB's scan and against the copy (the bandwidth bound): one row, two ratios.
      report(name, tname, n, 1, ms,
             2.0 * n * sizeof(T), {{"cub_scan", &cub_scan}, {"copy_d2d", &copy}});
    }
    // Sorts (input re-copied before every run, untimed).
    auto reset = [&] { CHECK(cudaMemcpyAsync(keys, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); };
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, b, in, out, int(n)));
    t = pool.get(b);
    const bench::measurement cub_radix = time_run([&] { CHECK(cub::DeviceRadixSort::SortKeys(t, b, in, out, int(n))); });
    report("cub_radix_sort", tname, n, 1, cub_radix, 2.0 * n * sizeof(T));
    if (n <= (std::size_t{1} << 22)) CHECK(cudaMemcpy(keys, out, n * sizeof(T), cudaMemcpyDeviceToDevice));
    CHECK(gpu::device_radix_sort(nullptr, b, in, out, n));
    t = pool.get(b);
    const bench::measurement radix = time_run([&] { CHECK(gpu::device_radix_sort(t, b, in, out, n)); });
    if (n <= (std::size_t{1} << 22) && !same_on_device(keys, out, n)) {
      std::fprintf(stderr, "bench_prim_gpu: radix_sort %s n=%zu differs from CUB's\n", tname, n);
      std::exit(1);
    }
    report("radix_sort", tname, n, 1, radix, 2.0 * n * sizeof(T), {{"cub_radix_sort", &cub_radix}});
    CHECK(cub::DeviceMergeSort::SortKeys(nullptr, b, keys, int(n), custom_less{}));
    t = pool.get(b);
    const bench::measurement cub_merge =
        time_run([&] { CHECK(cub::DeviceMergeSort::SortKeys(t, b, keys, int(n), custom_less{})); }, reset);
    report("cub_merge_sort", tname, n, 1, cub_merge, 2.0 * n * sizeof(T));
    CHECK(gpu::device_merge_sort(nullptr, b, keys, static_cast<gpu::no_values*>(nullptr), n, gpu::less_op{}));
    t = pool.get(b);
    bench::measurement ms = time_run(
        [&] { CHECK(gpu::device_merge_sort(t, b, keys, static_cast<gpu::no_values*>(nullptr), n, gpu::less_op{})); },
        reset);
    report("merge_sort", tname, n, 1, ms, 2.0 * n * sizeof(T), {{"cub_merge_sort", &cub_merge}});
    t = pool.get(1);
    ms = time_run(
        [&] { CHECK(gpu::device_bitonic_sort(t, b, keys, static_cast<gpu::no_values*>(nullptr), n, gpu::less_op{})); },
        reset);
    report("bitonic_sort", tname, n, 1, ms, 2.0 * n * sizeof(T), {{"cub_merge_sort", &cub_merge}});
  }
  // Batched cases: G problems of N (G*N = 2^24).
  for (std::size_t N : {64u, 256u, 1024u, 4096u}) {
    const std::size_t G = (std::size_t{1} << 24) / N, n = G * N;
    if (n > max_n) continue;
    std::vector<int> offsets(G + 1);
    for (std::size_t i = 0; i <= G; ++i) offsets[i] = int(i * N);
    int* d_off;
    CHECK(cudaMalloc(&d_off, offsets.size() * sizeof(int)));
    CHECK(cudaMemcpy(d_off, offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
    std::size_t b = 0;
    CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, b, in, out, int(n), int(G), d_off, d_off + 1));
    void* t = pool.get(b);
    const bench::measurement cub_seg =
        time_run([&] { CHECK(cub::DeviceSegmentedSort::SortKeys(t, b, in, out, int(n), int(G), d_off, d_off + 1)); });
    report("cub_segmented_sort", tname, N, G, cub_seg, 2.0 * n * sizeof(T));
    auto reset = [&] { CHECK(cudaMemcpyAsync(keys, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); };
    t = pool.get(1);
    const bench::measurement ms = time_run(
        [&] {
          CHECK(gpu::device_batched_sort(t, b, keys, static_cast<gpu::no_values*>(nullptr), G, N, gpu::less_op{}));
        },
        reset);
    report("batched_sort", tname, N, G, ms, 2.0 * n * sizeof(T), {{"cub_segmented_sort", &cub_seg}});
    CHECK(gpu::device_batched_inclusive_scan(nullptr, b, in, out, G, N, plus_op{}, T{0}));
    t = pool.get(b);
    const bench::measurement bs = time_run([&] { CHECK(gpu::device_batched_inclusive_scan(t, b, in, out, G, N, plus_op{}, T{0})); });
    CHECK(cub::DeviceScan::InclusiveSum(nullptr, b, in, out, int(n)));
    t = pool.get(b);
    const bench::measurement whole = time_run([&] { CHECK(cub::DeviceScan::InclusiveSum(t, b, in, out, int(n))); });
    report("batched_scan", tname, N, G, bs, 2.0 * n * sizeof(T), {{"cub_scan_whole_array", &whole}});
    CHECK(cudaFree(d_off));
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(keys));
}

}  // namespace

int main(int argc, char** argv) {
  bench::harness h("bench_prim_gpu", argc, argv, "bench_prim_gpu.json");
  H = &h;
  for (std::size_t i = 0; i < h.args().size(); ++i) {
    if (h.args()[i] == "--max-log2" && i + 1 < h.args().size()) {
      ++i;
      continue;
    }
    std::fprintf(stderr, "bench_prim_gpu: unknown argument %s\nusage: bench_prim_gpu [--json FILE] [--max-log2 L=28] "
                         "[--repetitions N] [--min-time S] [--filter REGEX]\n", h.args()[i].c_str());
    return 2;
  }
  const unsigned max_log = static_cast<unsigned>(h.number("--max-log2", 28));
  if (max_log < 16 || max_log > 30) {
    std::fprintf(stderr, "bench_prim_gpu: --max-log2 must be 16 .. 30\n");
    return 2;
  }
  std::string why;
  if (!bench::gpu_present(&why)) return bench::no_gpu_exit("bench_prim_gpu", why);
  const cudaDeviceProp prop = bench::add_gpu_context(h);
  // The kernels' tuning these rows were measured with (prim/cuda/*.cuh).
  h.context("scan_threads", 256.0);
  h.context("scan_tile_bytes_per_thread", 64.0);
  h.context("bitonic_part", 2048.0);
  h.context("merge_base", 1024.0);
  h.context("merge_tile", 1024.0);
  h.context("radix_digit_bits", 8.0);
  h.context("radix_tile", 2048.0);
  h.context("max_log2", static_cast<double>(max_log));
  timing = bench::gpu_timing_for(h, bench::gpu_timing{bench::timing{0, 15, 15}, 1});
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  temp_pool pool;
  run_type<std::int32_t>("int32", max_log, pool);
  run_type<std::int64_t>("int64", max_log, pool);
  pool.get(0);
  return h.write() ? 0 : 1;
}
