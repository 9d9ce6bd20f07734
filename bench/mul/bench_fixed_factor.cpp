// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_fixed_factor: products by one fixed operand (bigmul::fixed_factor,
// its transforms kept) against plain bigmul::mul of the same operands, in
// the same run. Balanced operands of D digits (binary: D log2(10) bits;
// decimal: D / 19 limbs), 1 and 2 threads. Per row: the preparation's
// seconds, a product's seconds (the row's time) and mul's
// (ratio_vs_mul = ours / mul's: the target is <= 1 / 1.35 = 0.74).
// Every fixed product is compared with mul's; a difference exits 1.
// The two are timed in alternation (fixed then mul, mul then fixed, ...),
// so that other load on the machine slows both alike; speedup is the
// median of the pairs' ratios, fixed_s and mul_s the medians of each.
// Each NTT engine named by --engines (default: every one this processor
// runs but the portable one) runs its own rows, BIGMUL_NTT_ENGINE set.
//
// Rows fixed:<engine>/<radix>/<digits>/t<threads>.
//   bench_fixed_factor [--digits 1e4,1e5,...] [--threads 1,2] [--engines ifma,avx2]
//                      [--json PATH] [--repetitions N] [--min-time S] [--filter REGEX]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "bigmul/fixed_factor.hpp"
#include "bigmul/mul.hpp"
#include "harness.hpp"
#include "mul/ntt_mul.hpp"

using namespace bigmul;
using namespace bigmul::bench;

namespace {

std::vector<double> list_of(const std::string& text) {
  std::vector<double> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) out.push_back(std::strtod(item.c_str(), nullptr));
  return out;
}

std::vector<std::string> names_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) out.push_back(item);
  return out;
}

// The engines to run: --engines, else every vector engine this processor runs.
std::vector<std::string> engine_list(const harness& h) {
  std::string def;
  for (const auto e : {detail::ntt_engine::ifma, detail::ntt_engine::avx2})
    if (detail::ntt_engine_available(e)) def += std::string(def.empty() ? "" : ",") + detail::ntt_engine_name(e);
  if (def.empty()) def = "portable";
  return names_of(h.text("--engines", def));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Fixed and plain products timed in alternation (see the top of the file),
// at least min_runs pairs and min_time seconds (--repetitions, --min-time).
struct paired {
  measurement fixed;
  double plain_s = 0, speedup = 0;
};
template <class Fixed, class Plain>
paired time_pairs(const harness& h, Fixed&& fixed, Plain&& plain) {
  const int min_runs = h.repetitions().value_or(5);
  const double min_time = h.min_time().value_or(0.6);
  std::vector<double> tf, tp, ratio, cpu;
  const double start = now_seconds();
  for (int i = 0; i < 2000 && (i < min_runs || now_seconds() - start < min_time); ++i) {
    double f = 0, p = 0, c = 0;
    const auto run_fixed = [&] {
      const double c0 = cpu_seconds(), t0 = now_seconds();
      fixed();
      f = now_seconds() - t0;
      c = cpu_seconds() - c0;
    };
    const auto run_plain = [&] {
      const double t0 = now_seconds();
      plain();
      p = now_seconds() - t0;
    };
    if (i % 2 == 0)
      run_fixed(), run_plain();
    else
      run_plain(), run_fixed();
    tf.push_back(f), tp.push_back(p), ratio.push_back(p / f), cpu.push_back(c);
  }
  paired out;
  out.fixed.iterations = tf.size();
  out.fixed.real_s = median(tf);
  out.fixed.cpu_s = median(cpu);
  out.plain_s = median(tp);
  out.speedup = median(ratio);
  return out;
}

std::size_t limbs_for(double digits, radix rx) {
  const double limbs = rx == radix::binary ? digits * std::log2(10.0) / 64 : digits / 19;
  return static_cast<std::size_t>(std::ceil(limbs));
}

}  // namespace

int main(int argc, char** argv) {
  harness h("bench_fixed_factor", argc, argv, "fixed_factor_cpu.json");
  const auto digit_list = list_of(h.text("--digits", "1e4,1e5,1e6,1e7,1e8"));
  const auto thread_list = list_of(h.text("--threads", "1,2"));
  const auto engines = engine_list(h);
  std::printf("# bigmul bench_fixed_factor  %s  commit %s  %s  GMP %s\n", machine_description().c_str(),
              git_commit().c_str(), today().c_str(), gmp_version);
  std::printf("%-8s %-8s %10s %3s %10s %12s %12s %12s %8s\n", "engine", "radix", "digits", "thr", "limbs",
              "prepare_s", "fixed_s", "mul_s", "speedup");
  h.context("ratio", "real_time (one product by the prepared factor) / mul_seconds (bigmul::mul of the same "
                     "operands, same run, timed in alternation); speedup_vs_mul = the median of the pairs' "
                     "mul / fixed ratios");
  for (const std::string& engine : engines) {
    setenv("BIGMUL_NTT_ENGINE", engine.c_str(), 1);
    std::mt19937_64 g(36);
    for (const radix rx : {radix::binary, radix::decimal}) {
      const char* rname = rx == radix::binary ? "binary" : "decimal";
      for (const double digits : digit_list) {
        const std::size_t n = limbs_for(digits, rx);
        const auto a = random_limbs(n, rx, g), b = random_limbs(n, rx, g);
        std::vector<limb_t> r(2 * n), want(2 * n);
        for (const double tt : thread_list) {
          const auto threads = static_cast<unsigned>(tt);
          const std::string name = "fixed:" + engine + "/" + rname + "/" +
                                   std::to_string(static_cast<long long>(digits)) + "/t" + std::to_string(threads);
          if (!h.selected(name)) continue;
          const double t0 = now_seconds();
          fixed_factor f(b.data(), n, n, rx, threads);
          const double prepare = now_seconds() - t0;
          mul_options opt;
          opt.threads = threads;
          opt.where = backend::cpu;
          // Both warm before timing (scratch, plans and twiddle tables built once).
          f.mul(r.data(), a.data(), n, rx, threads);
          mul(want.data(), a.data(), n, b.data(), n, rx, opt);
          if (r != want) {
            std::fprintf(stderr, "bench_fixed_factor: %s: the fixed product differs from mul's\n", name.c_str());
            return 1;
          }
          const paired m = time_pairs(
              h, [&] { f.mul(r.data(), a.data(), n, rx, threads); },
              [&] { mul(want.data(), a.data(), n, b.data(), n, rx, opt); });
          std::printf("%-8s %-8s %10.3g %3u %10zu %12.4g %12.4g %12.4g %8.3f\n", engine.c_str(), rname, digits,
                      threads, n, prepare, m.fixed.real_s, m.plain_s, m.speedup);
          std::fflush(stdout);
          h.add(name, m.fixed)
              .label("radix", rname)
              .label("ntt_engine", engine)
              .counter("digits", digits)
              .counter("limbs", static_cast<double>(n))
              .counter("threads", threads)
              .counter("transform_length", static_cast<double>(f.transform_length()))
              .counter("prepare_seconds", prepare)
              .counter("heap_bytes", static_cast<double>(f.heap_bytes()))
              .counter("speedup_vs_mul", m.speedup)
              .baseline("mul", m.plain_s);
        }
      }
    }
  }
  return h.write() ? 0 : 1;
}
