// SPDX-License-Identifier: LGPL-3.0-or-later
// FFT throughput: forward + inverse per iteration, complex and real, double and
// float, n = 2^10 .. 2^24, one thread and all threads. GFLOP/s counts the
// conventional 5 n log2 n flops per complex transform (2.5 n log2 n for a real
// one of n points). A last group measures the rounding error of an integer
// convolution of random balanced 16-bit values (the accuracy budget).
//   bench_fft --json fft.json
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gbench_main.hpp"
#include "fft/fft_complex.hpp"
#include "fft/fft_real.hpp"
#include "prim/parallel.hpp"

namespace {

using bigmul::fft::complex_fft;
using bigmul::fft::real_fft;

template <class Real>
std::vector<Real> noise(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<Real> v(n);
  for (auto& x : v) x = static_cast<Real>(d(g));
  return v;
}

unsigned threads_arg(const benchmark::State& state) {
  return state.range(1) == 0 ? bigmul::prim::default_threads() : static_cast<unsigned>(state.range(1));
}

template <class Real>
void complex_round(benchmark::State& state) {
  const std::size_t n = std::size_t{1} << state.range(0);
  const unsigned threads = threads_arg(state);
  const complex_fft<Real> plan(n);
  std::vector<Real> re = noise<Real>(n, 1), im = noise<Real>(n, 2);
  const Real s = plan.inverse_scale();
  for (auto _ : state) {
    plan.forward(re.data(), im.data(), threads);
    plan.inverse(re.data(), im.data(), threads);
    // keep values bounded across iterations
    re[0] *= s;
    benchmark::ClobberMemory();
  }
  const double flops = 5.0 * static_cast<double>(n) * static_cast<double>(state.range(0));
  state.counters["threads"] = threads;
  state.counters["GFLOPs"] = benchmark::Counter(2 * flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  // seconds per single transform (half of a forward + inverse iteration)
  state.counters["s_per_transform"] = benchmark::Counter(
      2, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

template <class Real>
void real_round(benchmark::State& state) {
  const std::size_t n = std::size_t{1} << state.range(0);
  const unsigned threads = threads_arg(state);
  const real_fft<Real> plan(n);
  std::vector<Real> re = noise<Real>(n / 2, 3), im = noise<Real>(n / 2, 4);
  for (auto _ : state) {
    plan.forward(re.data(), im.data(), threads);
    plan.inverse(re.data(), im.data(), threads);
    re[0] *= plan.inverse_scale();
    benchmark::ClobberMemory();
  }
  const double flops = 2.5 * static_cast<double>(n) * static_cast<double>(state.range(0));
  state.counters["threads"] = threads;
  state.counters["GFLOPs"] = benchmark::Counter(2 * flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  // seconds per single transform (half of a forward + inverse iteration)
  state.counters["s_per_transform"] = benchmark::Counter(
      2, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// max |x - round(x)| of the real-FFT convolution of two random balanced 16-bit
// vectors of n/2 values each (n real points), double.
void rounding_error(benchmark::State& state) {
  const std::size_t n = std::size_t{1} << state.range(0), h = n / 2;
  const real_fft<double> plan(n);
  std::mt19937_64 g(5);
  std::uniform_int_distribution<int> d(-(1 << 15), (1 << 15) - 1);
  double worst = 0;
  for (auto _ : state) {
    std::vector<double> ar(h, 0), ai(h, 0), br(h, 0), bi(h, 0);
    for (std::size_t i = 0; i < h; ++i) ((i & 1) ? ai : ar)[i / 2] = d(g);
    for (std::size_t i = 0; i < h; ++i) ((i & 1) ? bi : br)[i / 2] = d(g);
    plan.forward(ar.data(), ai.data());
    plan.forward(br.data(), bi.data());
    plan.multiply_spectra(ar.data(), ai.data(), br.data(), bi.data(), plan.inverse_scale());
    plan.inverse(ar.data(), ai.data());
    for (std::size_t i = 0; i < h; ++i) {
      worst = std::max(worst, std::abs(ar[i] - std::nearbyint(ar[i])));
      worst = std::max(worst, std::abs(ai[i] - std::nearbyint(ai[i])));
    }
  }
  state.counters["max_rounding_error"] = worst;
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int k = 10; k <= 24; ++k) {
    b->Args({k, 1});
    b->Args({k, 0});
  }
  b->ArgNames({"log2n", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(complex_round<double>)->Apply(sizes);
BENCHMARK(complex_round<float>)->Apply(sizes);
BENCHMARK(real_round<double>)->Apply(sizes);
BENCHMARK(real_round<float>)->Apply(sizes);
BENCHMARK(rounding_error)->Arg(16)->Arg(20)->Iterations(4)->Unit(benchmark::kMillisecond);

}  // namespace

BIGMUL_BENCHMARK_MAIN("bench_fft")
