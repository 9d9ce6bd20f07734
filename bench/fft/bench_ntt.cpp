// SPDX-License-Identifier: LGPL-3.0-or-later
// NTT throughput: forward + inverse per iteration, every engine (portable:
// three 62-bit primes, scalar; ifma: four 50-bit primes, AVX-512 IFMA; avx2:
// the same primes, AVX2 + FMA doubles), one prime, n = 2^10 .. 2^22 and 3 * 2^k, one thread and all threads.
// Counter ns_per_butterfly = time / (2 * (n/2) log2 n) (a radix-3 stage counts
// as log2 3 levels), the cost one multiply pays per prime and transform.
//   bench_ntt --json ntt.json
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gbench_main.hpp"
#include "fft/ntt.hpp"
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_ifma.hpp"
#include "prim/parallel.hpp"

namespace {

using namespace bigmul::fft;

unsigned threads_arg(const benchmark::State& state) {
  return state.range(2) == 0 ? bigmul::prim::default_threads() : static_cast<unsigned>(state.range(2));
}

// range(0): log2 of the power-of-two part, range(1): 1 or 3 (the factor 3).
template <class Plan>
void round_trip(benchmark::State& state) {
  if constexpr (std::is_same_v<Plan, ntt52_plan>) {
    if (!ntt52_supported()) {
      state.SkipWithError("no AVX-512 IFMA on this processor");
      return;
    }
  }
  if constexpr (std::is_same_v<Plan, ntt_avx2_plan>) {
    if (!ntt_avx2_supported()) {
      state.SkipWithError("no AVX2 and FMA on this processor");
      return;
    }
  }
  const std::size_t n = (std::size_t{1} << state.range(0)) * static_cast<std::size_t>(state.range(1));
  const unsigned threads = threads_arg(state);
  const auto plan = Plan::get(0, n);
  std::mt19937_64 g(1);
  std::vector<u64> a(n);
  for (auto& x : a) x = g() % plan->modulus();
  for (auto _ : state) {
    plan->forward(a.data(), threads);
    plan->inverse(a.data(), threads);
    benchmark::DoNotOptimize(a.data());
  }
  const double butterflies = 2.0 * (static_cast<double>(n) / 2) * std::log2(static_cast<double>(n));
  state.counters["ns_per_butterfly"] = benchmark::Counter(
      butterflies * static_cast<double>(state.iterations()) * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["threads"] = threads;
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int lg = 10; lg <= 22; lg += 2)
    for (int f : {1, 3})
      for (int t : {1, 0}) b->Args({lg, f, t});
}

BENCHMARK_TEMPLATE(round_trip, ntt_plan)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(round_trip, ntt52_plan)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(round_trip, ntt_avx2_plan)->Apply(sizes)->Unit(benchmark::kMicrosecond);

// The AVX2 engine's radix-16 passes against its radix-4 ones: round_trip of
// ntt_avx2_plan with quads from 2^range(3) points in a one-thread block and
// from half of that in the threaded whole-array levels (range(3) = 0: no
// quads), for the thresholds' defaults (fft/ntt_avx2_transform.cpp).
void avx2_quad(benchmark::State& state) {
  const std::size_t points = state.range(3) == 0 ? ~std::size_t{0} : std::size_t{1} << state.range(3);
  const auto old = ntt_avx2_set_quad_min({points, points == ~std::size_t{0} ? points : points / 2});
  round_trip<ntt_avx2_plan>(state);
  ntt_avx2_set_quad_min(old);
  state.counters["quad_min_log2"] = static_cast<double>(state.range(3));
}
void quad_sizes(benchmark::internal::Benchmark* b) {
  for (int lg = 18; lg <= 24; ++lg)
    for (int f : {1, 3})
      for (int t : {1, 2})
        for (int q : {0, 18, 20, 22})
          if (q == 0 || q <= lg) b->Args({lg, f, t, q});
}
BENCHMARK(avx2_quad)->Apply(quad_sizes)->Unit(benchmark::kMillisecond);

}  // namespace

BIGMUL_BENCHMARK_MAIN("bench_ntt")
