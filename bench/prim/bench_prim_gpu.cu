// GPU primitives against CUB and a device-to-device copy, timed with CUDA
// events (median of repeated runs, data already on the device).
// Usage: bench_prim_gpu [out.json] [max_log2=28]
// Prints one line per case and writes a JSON array of
//   {name, type, n, G, ms, gelem_s, gbyte_s, baseline, ratio}
// where ratio = baseline ms / our ms (> 1: we are faster).
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

#include "prim/cuda/device_reduce.cuh"
#include "prim/cuda/device_scan.cuh"
#include "prim/cuda/device_sort.cuh"
#include "prim/ops.hpp"

namespace gpu = bigmul::prim::cuda;
using bigmul::prim::plus_op;

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

// Median milliseconds of `run` (after one warm-up); `reset` runs untimed
// before each run (e.g. re-copy unsorted input).
double time_ms(const std::function<void()>& run, const std::function<void()>& reset = {}) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  if (reset) reset();
  run();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < 15; ++i) {
    if (reset) reset();
    CHECK(cudaEventRecord(a));
    run();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct result {
  std::string name, type, baseline;
  std::size_t n, G;
  double ms, bytes, base_ms;
};
std::vector<result> results;

void report(const std::string& name, const std::string& type, std::size_t n, std::size_t G, double ms, double bytes,
            const std::string& baseline, double base_ms) {
  results.push_back({name, type, baseline, n, G, ms, bytes, base_ms});
  std::printf("%-28s %-6s n=%-10zu G=%-6zu %9.4f ms %8.2f GB/s  vs %-22s %.3fx\n", name.c_str(), type.c_str(), n, G, ms,
              bytes / ms / 1e6, baseline.c_str(), base_ms > 0 ? base_ms / ms : 0.0);
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
    const double copy = time_ms([&] { CHECK(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); });
    report("copy_d2d", tname, n, 1, copy, 2.0 * n * sizeof(T), "copy_d2d", copy);
    // Reduce.
    CHECK(cub::DeviceReduce::Sum(nullptr, b, in, out, int(n)));
    void* t = pool.get(b);
    const double cub_reduce = time_ms([&] { CHECK(cub::DeviceReduce::Sum(t, b, in, out, int(n))); });
    report("cub_reduce", tname, n, 1, cub_reduce, 1.0 * n * sizeof(T), "cub_reduce", cub_reduce);
    for (auto order : {bigmul::prim::operand_order::commutative, bigmul::prim::operand_order::ordered}) {
      CHECK(gpu::device_reduce(nullptr, b, in, out, n, plus_op{}, T{0}, order));
      t = pool.get(b);
      const double ms = time_ms([&] { CHECK(gpu::device_reduce(t, b, in, out, n, plus_op{}, T{0}, order)); });
      report(order == bigmul::prim::operand_order::commutative ? "reduce_cascading" : "reduce_ordered", tname, n, 1,
             ms, 1.0 * n * sizeof(T), "cub_reduce", cub_reduce);
    }
    // Scan.
    CHECK(cub::DeviceScan::InclusiveSum(nullptr, b, in, out, int(n)));
    t = pool.get(b);
    const double cub_scan = time_ms([&] { CHECK(cub::DeviceScan::InclusiveSum(t, b, in, out, int(n))); });
    report("cub_scan", tname, n, 1, cub_scan, 2.0 * n * sizeof(T), "copy_d2d", copy);
    for (auto alg : {gpu::scan_algorithm::lookback, gpu::scan_algorithm::reduce_then_scan}) {
      CHECK(gpu::device_inclusive_scan(nullptr, b, in, out, n, plus_op{}, T{0}, 0, alg));
      t = pool.get(b);
      const double ms = time_ms([&] { CHECK(gpu::device_inclusive_scan(t, b, in, out, n, plus_op{}, T{0}, 0, alg)); });
      report(alg == gpu::scan_algorithm::lookback ? "scan_lookback" : "scan_reduce_then_scan", tname, n, 1, ms,
             2.0 * n * sizeof(T), "cub_scan", cub_scan);
      report(alg == gpu::scan_algorithm::lookback ? "scan_lookback_vs_copy" : "scan_rts_vs_copy", tname, n, 1, ms,
             2.0 * n * sizeof(T), "copy_d2d", copy);
    }
    // Sorts (input re-copied before every run, untimed).
    auto reset = [&] { CHECK(cudaMemcpyAsync(keys, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); };
    CHECK(cub::DeviceRadixSort::SortKeys(nullptr, b, in, out, int(n)));
    t = pool.get(b);
    const double cub_radix = time_ms([&] { CHECK(cub::DeviceRadixSort::SortKeys(t, b, in, out, int(n))); });
    report("cub_radix_sort", tname, n, 1, cub_radix, 2.0 * n * sizeof(T), "cub_radix_sort", cub_radix);
    CHECK(cub::DeviceMergeSort::SortKeys(nullptr, b, keys, int(n), custom_less{}));
    t = pool.get(b);
    const double cub_merge =
        time_ms([&] { CHECK(cub::DeviceMergeSort::SortKeys(t, b, keys, int(n), custom_less{})); }, reset);
    report("cub_merge_sort", tname, n, 1, cub_merge, 2.0 * n * sizeof(T), "cub_merge_sort", cub_merge);
    CHECK(gpu::device_merge_sort(nullptr, b, keys, static_cast<gpu::no_values*>(nullptr), n, gpu::less_op{}));
    t = pool.get(b);
    double ms = time_ms(
        [&] { CHECK(gpu::device_merge_sort(t, b, keys, static_cast<gpu::no_values*>(nullptr), n, gpu::less_op{})); },
        reset);
    report("merge_sort", tname, n, 1, ms, 2.0 * n * sizeof(T), "cub_merge_sort", cub_merge);
    t = pool.get(1);
    ms = time_ms(
        [&] { CHECK(gpu::device_bitonic_sort(t, b, keys, static_cast<gpu::no_values*>(nullptr), n, gpu::less_op{})); },
        reset);
    report("bitonic_sort", tname, n, 1, ms, 2.0 * n * sizeof(T), "cub_merge_sort", cub_merge);
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
    const double cub_seg =
        time_ms([&] { CHECK(cub::DeviceSegmentedSort::SortKeys(t, b, in, out, int(n), int(G), d_off, d_off + 1)); });
    report("cub_segmented_sort", tname, N, G, cub_seg, 2.0 * n * sizeof(T), "cub_segmented_sort", cub_seg);
    auto reset = [&] { CHECK(cudaMemcpyAsync(keys, in, n * sizeof(T), cudaMemcpyDeviceToDevice)); };
    t = pool.get(1);
    const double ms = time_ms(
        [&] {
          CHECK(gpu::device_batched_sort(t, b, keys, static_cast<gpu::no_values*>(nullptr), G, N, gpu::less_op{}));
        },
        reset);
    report("batched_sort", tname, N, G, ms, 2.0 * n * sizeof(T), "cub_segmented_sort", cub_seg);
    CHECK(gpu::device_batched_inclusive_scan(nullptr, b, in, out, G, N, plus_op{}, T{0}));
    t = pool.get(b);
    const double bs = time_ms([&] { CHECK(gpu::device_batched_inclusive_scan(t, b, in, out, G, N, plus_op{}, T{0})); });
    CHECK(cub::DeviceScan::InclusiveSum(nullptr, b, in, out, int(n)));
    t = pool.get(b);
    const double whole = time_ms([&] { CHECK(cub::DeviceScan::InclusiveSum(t, b, in, out, int(n))); });
    report("batched_scan", tname, N, G, bs, 2.0 * n * sizeof(T), "cub_scan_whole_array", whole);
    CHECK(cudaFree(d_off));
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(keys));
}

}  // namespace

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : nullptr;
  const unsigned max_log = argc > 2 ? unsigned(std::atoi(argv[2])) : 28;
  int devices = 0;
  if (const cudaError_t e = cudaGetDeviceCount(&devices); e != cudaSuccess || devices == 0) {
    // Under the GPU check (BIGMUL_REQUIRE_GPU=1) a missing GPU is a failure.
    const char* req = std::getenv("BIGMUL_REQUIRE_GPU");
    const bool required = req && req[0] == '1' && req[1] == 0;
    std::printf("bench_prim_gpu: no usable GPU (%s); nothing measured%s\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device",
                required ? " (BIGMUL_REQUIRE_GPU=1: failing)" : "");
    return required ? 1 : 0;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  temp_pool pool;
  run_type<std::int32_t>("int32", max_log, pool);
  run_type<std::int64_t>("int64", max_log, pool);
  if (path) {
    FILE* f = std::fopen(path, "w");
    if (!f) {
      std::fprintf(stderr, "bench_prim_gpu: cannot write %s\n", path);
      return 1;
    }
    std::fprintf(f, "{\"device\": \"%s\", \"tuning\": {\"scan_threads\": 256, \"scan_tile_bytes_per_thread\": 64, "
                    "\"bitonic_part\": 2048, \"merge_base\": 1024, \"merge_tile\": 1024}, \"results\": [\n", prop.name);
    for (std::size_t i = 0; i < results.size(); ++i) {
      const result& r = results[i];
      std::fprintf(f,
                   "  {\"name\": \"%s\", \"type\": \"%s\", \"n\": %zu, \"G\": %zu, \"ms\": %.6f, \"gbyte_s\": %.3f, "
                   "\"baseline\": \"%s\", \"baseline_ms\": %.6f, \"ratio\": %.4f}%s\n",
                   r.name.c_str(), r.type.c_str(), r.n, r.G, r.ms, r.bytes / r.ms / 1e6, r.baseline.c_str(), r.base_ms,
                   r.base_ms / r.ms, i + 1 < results.size() ? "," : "");
    }
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }
  pool.get(0);
  return 0;
}
