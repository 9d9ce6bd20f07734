// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_small: single small products, bigmul::mul against GMP's mpn_mul
// (issue 15's target: at most 1.1x GMP's time at every size from 1 limb to
// the NTT crossover), and squares bigmul::mul(a, a) against mpn_sqr.
//   sizes: every limb count 1 .. 32, then a geometric set (x1.12) up to the
//          NTT crossover + 20% (the later of the products' and the squares'),
//          plus each crossover +-1 (found here: the first size at which
//          bigmul::mul reports algorithm::ntt).
//   timing: one product takes nanoseconds, so a timed run is K products
//          (K from a calibration, ~20 us a run); ours and GMP's runs are
//          interleaved (alternating which goes first) for --rounds rounds and
//          each side keeps its median, so load from elsewhere lands on both.
// Binary radix, balanced operands, 1 thread, default options otherwise (the
// path a user's call takes). Every result is compared with GMP's.
// Rows mul/<limbs> and sqr/<limbs>: real_time per product, ratio_vs_gmp
// (ours / GMP's median; below 1: faster) and round_ratio_median (the median
// of the per-round ratios, steadier under load).
//
// --algorithm NAME times ours with that algorithm asked for by name (the full
// entry point), to look at a crossover; --min-limbs N skips smaller sizes.
//
//   bench_small [--min-limbs N] [--max-limbs N] [--rounds R] [--algorithm NAME] [--quick] [--json PATH]
//               [--filter REGEX]
#include <gmp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "bigmul/mul.hpp"
#include "harness.hpp"

using namespace bigmul;
using namespace bigmul::bench;

namespace {

// The first length at which a balanced product (square: a square) goes to
// the NTT (the dispatcher's crossover for this processor's engine), or 0
// below `limit`.
std::size_t ntt_crossover(std::size_t limit, bool square) {
  std::mt19937_64 g(1);
  const auto probe = [&](std::size_t n) {
    const auto a = random_limbs(n, g), b = random_limbs(n, g);
    std::vector<limb_t> r(2 * n);
    mul_stats st;
    mul_options o;
    o.threads = 1;
    o.where = backend::cpu;
    o.stats = &st;
    mul(r.data(), a.data(), n, square ? a.data() : b.data(), n, radix::binary, o);
    return st.used == algorithm::ntt;
  };
  if (!probe(limit)) return 0;
  std::size_t lo = 1, hi = limit;  // probe(hi) holds
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (probe(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

struct result {
  measurement ours, gmp;
  double round_ratio = 0;
};

// Times f_ours and f_gmp (each one product) in interleaved runs of K.
template <class F, class G>
result compare(F&& f_ours, G&& f_gmp, int rounds) {
  // K: about 20 us of GMP's products a run (a floor under the clock's cost).
  std::size_t K = 1;
  for (;;) {
    const double t0 = now_seconds();
    for (std::size_t k = 0; k < K; ++k) f_gmp();
    if (now_seconds() - t0 > 20e-6 || K >= (std::size_t{1} << 20)) break;
    K *= 2;
  }
  std::vector<double> ro, rg, co, cg, ratio;
  const auto run = [&](auto& f, std::vector<double>& real, std::vector<double>& cpu) {
    const double c0 = cpu_seconds(), t0 = now_seconds();
    for (std::size_t k = 0; k < K; ++k) f();
    real.push_back((now_seconds() - t0) / static_cast<double>(K));
    cpu.push_back((cpu_seconds() - c0) / static_cast<double>(K));
  };
  for (int i = 0; i < rounds + 1; ++i) {
    if (i % 2) {
      run(f_ours, ro, co);
      run(f_gmp, rg, cg);
    } else {
      run(f_gmp, rg, cg);
      run(f_ours, ro, co);
    }
    if (i == 0) {  // a warm-up round, not kept
      ro.clear(), rg.clear(), co.clear(), cg.clear();
      continue;
    }
    ratio.push_back(ro.back() / rg.back());
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  result res;
  res.ours = {median(ro), median(co), static_cast<std::size_t>(rounds) * K};
  res.gmp = {median(rg), median(cg), static_cast<std::size_t>(rounds) * K};
  res.round_ratio = median(ratio);
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  harness h("bench_small", argc, argv, "bench_small.json");
  std::size_t max_limbs = 0;  // 0: the NTT crossover + 20%
  std::size_t min_limbs = 1;
  algorithm forced = algorithm::automatic;
  int rounds = 21;
  bool quick = false;
  const auto& av = h.args();
  for (std::size_t i = 0; i < av.size(); ++i) {
    const std::string& a = av[i];
    if (a == "--quick") quick = true;
    else if (a == "--max-limbs" && i + 1 < av.size()) max_limbs = std::strtoull(av[++i].c_str(), nullptr, 10);
    else if (a == "--min-limbs" && i + 1 < av.size()) min_limbs = std::strtoull(av[++i].c_str(), nullptr, 10);
    else if (a == "--rounds" && i + 1 < av.size()) rounds = std::max(1, std::atoi(av[++i].c_str()));
    else if (a == "--algorithm" && i + 1 < av.size() && parse_algorithm(av[i + 1], forced)) ++i;
    else {
      std::fprintf(stderr,
                   "usage: bench_small [--min-limbs N] [--max-limbs N] [--rounds R] [--algorithm NAME] [--quick] "
                   "[--json PATH]\n");
      return 2;
    }
  }
  if (h.repetitions()) rounds = std::max(1, *h.repetitions());
  if (quick) rounds = std::min(rounds, 3);

  const std::size_t xo = ntt_crossover(100000, false), xs = ntt_crossover(100000, true);
  const std::size_t xmax = std::max(xo, xs);
  if (max_limbs == 0) max_limbs = xmax ? xmax + xmax / 5 : 400;
  std::set<std::size_t> sizes;
  for (std::size_t n = 1; n <= std::min<std::size_t>(32, max_limbs); ++n) sizes.insert(n);
  for (double n = 36; n <= static_cast<double>(max_limbs); n *= 1.12) sizes.insert(static_cast<std::size_t>(n));
  for (std::size_t x : {xo, xs})
    if (x)
      for (std::size_t n : {x - 1, x, x + 1})
        if (n >= 1 && n <= max_limbs) sizes.insert(n);
  sizes.insert(max_limbs);
  sizes.erase(sizes.begin(), sizes.lower_bound(min_limbs));

  std::printf("# bigmul bench_small  %s  commit %s  %s  GMP %s\n", machine_description().c_str(),
              git_commit().c_str(), today().c_str(), gmp_version);
  std::printf("# single products, binary radix, 1 thread, %d interleaved rounds, medians; NTT from %zu limbs "
              "(squares %zu); ours: %s\n",
              rounds, xo, xs, algorithm_name(forced));
  std::printf("%6s %11s %11s %7s %7s | %11s %11s %7s %7s\n", "limbs", "mul_ns", "mpn_mul_ns", "ratio", "rnd",
              "sqr_ns", "mpn_sqr_ns", "ratio", "rnd");
  std::mt19937_64 g(23);
  mul_options opt;
  opt.threads = 1;
  opt.algo = forced;
  if (forced != algorithm::automatic) opt.where = backend::cpu;
  bool all_ok = true;
  for (const std::size_t n : sizes) {
    const auto a = random_limbs(n, g), b = random_limbs(n, g);
    std::vector<limb_t> r(2 * n), want(2 * n);
    const auto* ap = reinterpret_cast<const mp_limb_t*>(a.data());
    const auto* bp = reinterpret_cast<const mp_limb_t*>(b.data());
    auto* wp = reinterpret_cast<mp_limb_t*>(want.data());
    const auto ns = static_cast<mp_size_t>(n);
    const std::string mname = "mul/" + std::to_string(n), sname = "sqr/" + std::to_string(n);
    // Checks the last result against GMP's, prints its columns and adds its row.
    const auto record = [&](const std::string& name, const char* what, const result& x) {
      if (r != want) {
        std::fprintf(stderr, "bench_small: %s differs from GMP at %zu limbs\n", what, n);
        all_ok = false;
      }
      std::printf(" %11.1f %11.1f %7.3f %7.3f", 1e9 * x.ours.real_s, 1e9 * x.gmp.real_s,
                  x.ours.real_s / x.gmp.real_s, x.round_ratio);
      h.add(name, x.ours)
          .counter("limbs", static_cast<double>(n))
          .counter("threads", 1)
          .counter("round_ratio_median", x.round_ratio)
          .baseline("gmp", x.gmp.real_s);
    };
    std::printf("%6zu", n);
    if (h.selected(mname)) {
      record(mname, "product",
             compare([&] { mul(r.data(), a.data(), n, b.data(), n, radix::binary, opt); },
                     [&] { mpn_mul(wp, ap, ns, bp, ns); }, rounds));
    } else {
      std::printf(" %11s %11s %7s %7s", "-", "-", "-", "-");
    }
    std::printf(" |");
    if (h.selected(sname)) {
      record(sname, "square",
             compare([&] { mul(r.data(), a.data(), n, a.data(), n, radix::binary, opt); },
                     [&] { mpn_sqr(wp, ap, ns); }, rounds));
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  h.context("ntt_crossover_limbs", static_cast<double>(xo));
  h.context("ntt_crossover_square_limbs", static_cast<double>(xs));
  h.context("algorithm", algorithm_name(forced));
  h.context("note", "ratio_vs_gmp = our median time per product / GMP's (mpn_mul, mpn_sqr for sqr/ rows), "
                    "interleaved rounds of K products; round_ratio_median = median of the per-round ratios");
  if (!all_ok) return 1;
  return h.write() ? 0 : 1;
}
