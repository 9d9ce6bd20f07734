// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_fixed_factor: products by one fixed operand (bigmul::fixed_factor,
// its transforms kept) against plain bigmul::mul of the same operands, in
// the same run. Balanced operands of D digits (binary: D log2(10) bits;
// decimal: D / 19 limbs), 1 and 2 threads. Per row: the preparation's
// seconds, a product's seconds (the row's time) and mul's
// (ratio_vs_mul = ours / mul's: the target is <= 1 / 1.35 = 0.74).
// Every fixed product is compared with mul's; a difference exits 1.
//
// Rows fixed/<radix>/<digits>/t<threads>.
//   bench_fixed_factor [--digits 1e4,1e5,...] [--threads 1,2] [--json PATH]
//                      [--repetitions N] [--min-time S] [--filter REGEX]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "bigmul/fixed_factor.hpp"
#include "bigmul/mul.hpp"
#include "harness.hpp"

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

std::size_t limbs_for(double digits, radix rx) {
  const double limbs = rx == radix::binary ? digits * std::log2(10.0) / 64 : digits / 19;
  return static_cast<std::size_t>(std::ceil(limbs));
}

}  // namespace

int main(int argc, char** argv) {
  harness h("bench_fixed_factor", argc, argv, "fixed_factor_cpu.json");
  const auto digit_list = list_of(h.text("--digits", "1e4,1e5,1e6,1e7,1e8"));
  const auto thread_list = list_of(h.text("--threads", "1,2"));
  std::printf("# bigmul bench_fixed_factor  %s  commit %s  %s  GMP %s\n", machine_description().c_str(),
              git_commit().c_str(), today().c_str(), gmp_version);
  std::printf("%-8s %10s %3s %10s %12s %12s %7s %8s\n", "radix", "digits", "thr", "limbs", "prepare_s", "fixed_s",
              "mul_s", "speedup");
  h.context("ratio", "real_time (one product by the prepared factor) / mul_seconds (bigmul::mul of the same "
                     "operands, same run); speedup = mul_seconds / real_time");
  std::mt19937_64 g(36);
  for (const radix rx : {radix::binary, radix::decimal}) {
    const char* rname = rx == radix::binary ? "binary" : "decimal";
    for (const double digits : digit_list) {
      const std::size_t n = limbs_for(digits, rx);
      const auto a = random_limbs(n, rx, g), b = random_limbs(n, rx, g);
      std::vector<limb_t> r(2 * n), want(2 * n);
      for (const double tt : thread_list) {
        const auto threads = static_cast<unsigned>(tt);
        const std::string name = std::string("fixed/") + rname + "/" + std::to_string(static_cast<long long>(digits)) +
                                 "/t" + std::to_string(threads);
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
        const measurement m = h.time([&] { f.mul(r.data(), a.data(), n, rx, threads); });
        const double plain = h.time([&] { mul(want.data(), a.data(), n, b.data(), n, rx, opt); }).real_s;
        std::printf("%-8s %10.3g %3u %10zu %12.4g %12.4g %7.4g %8.3f\n", rname, digits, threads, n, prepare, m.real_s,
                    plain, plain / m.real_s);
        std::fflush(stdout);
        h.add(name, m)
            .label("radix", rname)
            .counter("digits", digits)
            .counter("limbs", static_cast<double>(n))
            .counter("threads", threads)
            .counter("transform_length", static_cast<double>(f.transform_length()))
            .counter("prepare_seconds", prepare)
            .counter("heap_bytes", static_cast<double>(f.heap_bytes()))
            .counter("speedup_vs_mul", plain / m.real_s)
            .baseline("mul", plain);
      }
    }
  }
  return h.write() ? 0 : 1;
}
