// SPDX-License-Identifier: LGPL-3.0-or-later
// Throughput of the CPU primitives against std:: on the same data, one
// thread and all threads. Run with --json FILE for JSON (the harness's
// options, bench/common/gbench_main.hpp). Sizes 2^16 .. 2^26 elements.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "gbench_main.hpp"
#include "prim/ops.hpp"
#include "prim/parallel.hpp"
#include "prim/reduce.hpp"
#include "prim/scan.hpp"
#include "prim/sort_bitonic.hpp"
#include "prim/sort_merge.hpp"

namespace {

using namespace bigmul::prim;

template <class T>
std::vector<T> random_vector(std::size_t n) {
  std::mt19937_64 g(12345);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(g());
  return v;
}

// threads: 1, or 0 for every hardware thread.
unsigned threads_arg(const benchmark::State& s) { return static_cast<unsigned>(s.range(1)); }

void set_rate(benchmark::State& s, std::size_t n, std::size_t bytes_per_item) {
  s.SetItemsProcessed(static_cast<std::int64_t>(s.iterations()) * static_cast<std::int64_t>(n));
  s.SetBytesProcessed(static_cast<std::int64_t>(s.iterations()) * static_cast<std::int64_t>(n * bytes_per_item));
  s.counters["threads"] = s.range(1) ? static_cast<double>(s.range(1)) : default_threads();
}

template <class T>
void BM_std_reduce(benchmark::State& s) {
  const auto v = random_vector<T>(static_cast<std::size_t>(s.range(0)));
  for (auto _ : s) benchmark::DoNotOptimize(std::reduce(v.begin(), v.end(), T{0}));
  set_rate(s, v.size(), sizeof(T));
}

template <class T>
void BM_prim_reduce_cascading(benchmark::State& s) {
  const auto v = random_vector<T>(static_cast<std::size_t>(s.range(0)));
  for (auto _ : s)
    benchmark::DoNotOptimize(reduce(v.data(), v.size(), plus_op{}, T{0}, operand_order::commutative, threads_arg(s)));
  set_rate(s, v.size(), sizeof(T));
}

template <class T>
void BM_prim_reduce_pipeline(benchmark::State& s) {
  const auto v = random_vector<T>(static_cast<std::size_t>(s.range(0)));
  for (auto _ : s)
    benchmark::DoNotOptimize(reduce(v.data(), v.size(), plus_op{}, T{0}, operand_order::ordered, threads_arg(s)));
  set_rate(s, v.size(), sizeof(T));
}

template <class T>
void BM_std_inclusive_scan(benchmark::State& s) {
  const auto v = random_vector<T>(static_cast<std::size_t>(s.range(0)));
  std::vector<T> out(v.size());
  for (auto _ : s) {
    std::inclusive_scan(v.begin(), v.end(), out.begin());
    benchmark::ClobberMemory();
  }
  set_rate(s, v.size(), 2 * sizeof(T));
}

template <class T>
void BM_prim_inclusive_scan(benchmark::State& s) {
  const auto v = random_vector<T>(static_cast<std::size_t>(s.range(0)));
  std::vector<T> out(v.size());
  for (auto _ : s) {
    inclusive_scan(v.data(), out.data(), v.size(), plus_op{}, T{0}, threads_arg(s));
    benchmark::ClobberMemory();
  }
  set_rate(s, v.size(), 2 * sizeof(T));
}

// Sorts time the copy of the unsorted input too (same for every contender).
template <class T>
void BM_std_sort(benchmark::State& s) {
  const auto v = random_vector<T>(static_cast<std::size_t>(s.range(0)));
  std::vector<T> w(v.size());
  for (auto _ : s) {
    w = v;
    std::sort(w.begin(), w.end());
  }
  set_rate(s, v.size(), sizeof(T));
}

template <class T>
void BM_std_stable_sort(benchmark::State& s) {
  const auto v = random_vector<T>(static_cast<std::size_t>(s.range(0)));
  std::vector<T> w(v.size());
  for (auto _ : s) {
    w = v;
    std::stable_sort(w.begin(), w.end());
  }
  set_rate(s, v.size(), sizeof(T));
}

template <class T>
void BM_prim_merge_sort(benchmark::State& s) {
  const auto v = random_vector<T>(static_cast<std::size_t>(s.range(0)));
  std::vector<T> w(v.size());
  for (auto _ : s) {
    w = v;
    merge_sort(w.data(), w.size(), std::less<>{}, threads_arg(s));
  }
  set_rate(s, v.size(), sizeof(T));
}

template <class T>
void BM_prim_bitonic_sort(benchmark::State& s) {
  const auto v = random_vector<T>(static_cast<std::size_t>(s.range(0)));
  std::vector<T> w(v.size());
  for (auto _ : s) {
    w = v;
    bitonic_sort(w.data(), w.size(), std::less<>{}, threads_arg(s));
  }
  set_rate(s, v.size(), sizeof(T));
}

void sizes_std(benchmark::internal::Benchmark* b) {
  for (int lg = 16; lg <= 26; lg += 2) b->Args({std::int64_t{1} << lg, 1});
}
void sizes_prim(benchmark::internal::Benchmark* b) {
  for (int lg = 16; lg <= 26; lg += 2) {
    b->Args({std::int64_t{1} << lg, 1});
    b->Args({std::int64_t{1} << lg, 0});
  }
}
void sizes_sort_std(benchmark::internal::Benchmark* b) {
  for (int lg = 16; lg <= 24; lg += 4) b->Args({std::int64_t{1} << lg, 1});
}
void sizes_sort_prim(benchmark::internal::Benchmark* b) {
  for (int lg = 16; lg <= 24; lg += 4) {
    b->Args({std::int64_t{1} << lg, 1});
    b->Args({std::int64_t{1} << lg, 0});
  }
}

}  // namespace

#define BIGMUL_BENCH_TYPES(fn, sizes)                                          \
  BENCHMARK(fn<std::int32_t>)->Apply(sizes)->Unit(benchmark::kMicrosecond)->UseRealTime(); \
  BENCHMARK(fn<std::int64_t>)->Apply(sizes)->Unit(benchmark::kMicrosecond)->UseRealTime();

BIGMUL_BENCH_TYPES(BM_std_reduce, sizes_std)
BIGMUL_BENCH_TYPES(BM_prim_reduce_cascading, sizes_prim)
BIGMUL_BENCH_TYPES(BM_prim_reduce_pipeline, sizes_prim)
BIGMUL_BENCH_TYPES(BM_std_inclusive_scan, sizes_std)
BIGMUL_BENCH_TYPES(BM_prim_inclusive_scan, sizes_prim)
BIGMUL_BENCH_TYPES(BM_std_sort, sizes_sort_std)
BIGMUL_BENCH_TYPES(BM_std_stable_sort, sizes_sort_std)
BIGMUL_BENCH_TYPES(BM_prim_merge_sort, sizes_sort_prim)
BIGMUL_BENCH_TYPES(BM_prim_bitonic_sort, sizes_sort_prim)

BIGMUL_BENCHMARK_MAIN("bench_prim_cpu")
