// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_pool: what one parallel_for costs beyond its tasks, the thread pool's
// hand-off latency. Each call runs `threads` busy tasks of --task-us each (one
// per thread, so a helper that arrives late leaves its task to the caller and
// the call takes twice as long); calls follow each other back to back or after
// a busy gap of --gap-us, which decides whether the helpers are still spinning
// (gap within prim's spin window) or asleep and must be woken (past it).
//
// Rows pool/task_us:<d>/gap_us:<g>/threads:<t>: real_time = median seconds
// per call; overhead_us_median / overhead_us_p90 = call time minus one task;
// helper_share = fraction of calls in which a pool thread ran a task;
// cpu_us_per_call = process CPU per call (includes the helpers' spinning);
// for tasks of nonzero length, ratio_vs_serial = median call time / the same
// tasks run one after another on the caller (below 1: the pool paid off).
//
//   bench_pool [--task-us 0,2,10,50] [--gap-us 0,1,100,10000] [--threads 2]
//              [--json PATH] [--repetitions N] [--min-time S] [--filter REGEX]
// Each row: at least --repetitions calls (default 200) and --min-time seconds
// (default 0.2), after 20 calls not counted.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"
#include "prim/parallel.hpp"

using namespace bigmul::bench;

namespace {

using clk = std::chrono::steady_clock;

double us_between(clk::time_point a, clk::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

// Busy, not sleeping: a sleeping task would hide the latency being measured.
void busy_us(double us) {
  const auto t0 = clk::now();
  while (us_between(t0, clk::now()) < us) {
  }
}

std::vector<double> list(const harness& h, const std::string& name, const std::string& def) {
  std::vector<double> v;
  const std::string s = h.text(name, def);
  for (std::size_t b = 0; b <= s.size();) {
    const std::size_t e = std::min(s.find(',', b), s.size());
    if (e > b) v.push_back(std::strtod(s.substr(b, e - b).c_str(), nullptr));
    b = e + 1;
  }
  return v;
}

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

void bench_row(harness& h, double task_us, double gap_us, unsigned threads) {
  const std::string name = "pool/task_us:" + std::to_string(static_cast<long>(task_us)) +
                           "/gap_us:" + std::to_string(static_cast<long>(gap_us)) +
                           "/threads:" + std::to_string(threads);
  if (!h.selected(name)) return;
  const int min_calls = h.repetitions().value_or(200);
  const double min_time = h.min_time().value_or(0.2);
  const auto caller = std::this_thread::get_id();
  std::vector<double> call_us;
  int helped = 0;
  const auto run_call = [&](unsigned t) {
    std::atomic<bool> helper{false};
    const auto t0 = clk::now();
    bigmul::prim::parallel_for(threads, t, [&](std::size_t) {
      if (std::this_thread::get_id() != caller) helper.store(true, std::memory_order_relaxed);
      busy_us(task_us);
    });
    return std::pair{us_between(t0, clk::now()), helper.load()};
  };
  for (int i = 0; i < 20; ++i) run_call(threads);
  const double c0 = cpu_seconds();
  const auto start = clk::now();
  while (static_cast<int>(call_us.size()) < min_calls || us_between(start, clk::now()) < min_time * 1e6) {
    const auto [us, helper] = run_call(threads);
    call_us.push_back(us);
    helped += helper;
    busy_us(gap_us);
  }
  const double cpu_per_call = (cpu_seconds() - c0) / static_cast<double>(call_us.size());
  std::vector<double> serial_us;
  if (task_us > 0)
    for (int i = 0; i < 50; ++i) serial_us.push_back(run_call(1).first);

  measurement m;
  m.iterations = call_us.size();
  m.real_s = quantile(call_us, 0.5) * 1e-6;
  m.cpu_s = cpu_per_call;
  const double ovh = quantile(call_us, 0.5) - task_us, ovh90 = quantile(call_us, 0.9) - task_us;
  const double share = static_cast<double>(helped) / static_cast<double>(call_us.size());
  row& r = h.add(name, m)
               .counter("task_us", task_us)
               .counter("gap_us", gap_us)
               .counter("threads", threads)
               .counter("overhead_us_median", ovh)
               .counter("overhead_us_p90", ovh90)
               .counter("helper_share", share)
               .counter("cpu_us_per_call", cpu_per_call * 1e6);
  if (!serial_us.empty()) r.baseline("serial", quantile(serial_us, 0.5) * 1e-6);
  std::printf("%8.0f %8.0f %4u | %9.2f %9.2f | %6.2f %9.2f  %s\n", task_us, gap_us, threads, ovh, ovh90, share,
              cpu_per_call * 1e6,
              serial_us.empty() ? "" : std::to_string(m.real_s / (quantile(serial_us, 0.5) * 1e-6)).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  harness h("bench_pool", argc, argv, "bench_pool.json");
  const auto tasks = list(h, "--task-us", "0,2,10,50");
  const auto gaps = list(h, "--gap-us", "0,1,100,10000");
  const auto threads = list(h, "--threads", "2");
  std::printf("# bigmul bench_pool  %s  commit %s  %s  spin window %lld us\n", machine_description().c_str(),
              git_commit().c_str(), today().c_str(),
              static_cast<long long>(bigmul::prim::detail::spin_window().count()));
  std::printf("%8s %8s %4s | %9s %9s | %6s %9s  %s\n", "task_us", "gap_us", "thr", "ovh_med", "ovh_p90", "helped",
              "cpu_us", "vs_serial");
  for (double t : threads)
    for (double g : gaps)
      for (double d : tasks) bench_row(h, d, g, std::max(2u, static_cast<unsigned>(t)));
  h.context("spin_window_us", static_cast<double>(bigmul::prim::detail::spin_window().count()));
  return h.write() ? 0 : 1;
}
