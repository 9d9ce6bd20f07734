// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_batched_cpu: crypto-size batches on the CPU. G independent products
// of n x n limbs (1024 .. 8192-bit operands) through bigmul::mul_batched,
// against GMP's mpn_mul_n over the same operands on the same number of
// threads, measured in the same run. Prints products per second and the
// ratio (our time / GMP's time: below 1 is faster); writes JSON.
//
// Rows batched/<bits>, ratio_vs_gmp.
//   bench_batched_cpu [--products G] [--json PATH] [--repetitions N] [--min-time S] [--filter REGEX]
#include <gmp.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "harness.hpp"
#include "bigmul/mul.hpp"
#include "prim/parallel.hpp"

using namespace bigmul;
using namespace bigmul::bench;

int main(int argc, char** argv) {
  harness h("bench_batched_cpu", argc, argv, "bench_batched_cpu.json");
  std::size_t G = std::size_t{1} << 15;
  const auto& av = h.args();
  for (std::size_t i = 0; i < av.size(); i += 2) {
    const std::string a = av[i];
    if (a == "--products" && i + 1 < av.size()) G = std::strtoull(av[i + 1].c_str(), nullptr, 10);
    else {
      std::fprintf(stderr, "usage: bench_batched_cpu [--products G] [--json PATH]\n");
      return 2;
    }
  }
  const unsigned threads = prim::default_threads();
  std::printf("# bigmul bench_batched_cpu  %s  commit %s  %s  GMP %s  G=%zu  threads=%u\n",
              machine_description().c_str(), git_commit().c_str(), today().c_str(), gmp_version, G, threads);
  std::printf("%6s %5s %14s %14s %7s %14s\n", "bits", "limbs", "ours_prod/s", "gmp_prod/s", "ratio", "algorithm");
  std::mt19937_64 g(2024);
  h.context("ratio", "real_time / gmp_seconds (GMP mpn_mul_n over the same products on the same threads, same run)");
  for (std::size_t bits : {1024u, 2048u, 4096u, 8192u}) {
    const std::string name = "batched/" + std::to_string(bits);
    if (!h.selected(name)) continue;
    const std::size_t n = bits / 64;
    const auto a = random_limbs(n * G, radix::binary, g), b = random_limbs(n * G, radix::binary, g);
    std::vector<limb_t> r(2 * n * G), want(2 * n * G);
    mul_options opt;
    opt.where = backend::cpu;
    // Timed without stats, as a user's calls run; one more call fills in the labels.
    const measurement m = h.time([&] { mul_batched(r.data(), a.data(), b.data(), n, G, radix::binary, opt); });
    mul_stats st;
    opt.stats = &st;
    mul_batched(r.data(), a.data(), b.data(), n, G, radix::binary, opt);
    const double ours = m.real_s;
    // GMP: the same G products in contiguous runs over the same threads.
    const auto gmp_all = [&] {
      prim::parallel_chunks(G, 64, threads, [&](std::size_t i0, std::size_t i1) {
        for (std::size_t i = i0; i < i1; ++i)
          mpn_mul_n(reinterpret_cast<mp_limb_t*>(want.data() + 2 * n * i),
                    reinterpret_cast<const mp_limb_t*>(a.data() + n * i),
                    reinterpret_cast<const mp_limb_t*>(b.data() + n * i), static_cast<mp_size_t>(n));
      });
    };
    const double gmp = h.time(gmp_all).real_s;
    if (r != want) {
      std::fprintf(stderr, "bench_batched_cpu: products differ from GMP at %zu bits\n", bits);
      return 1;
    }
    std::printf("%6zu %5zu %14.4g %14.4g %7.3f %14s\n", bits, n, G / ours, G / gmp, ours / gmp, algorithm_name(st.used));
    h.add(name, m)
        .label("algorithm", algorithm_name(st.used))
        .counter("bits", static_cast<double>(bits))
        .counter("limbs", static_cast<double>(n))
        .counter("products", static_cast<double>(G))
        .counter("threads", threads)
        .counter("products_per_s", static_cast<double>(G) / ours)
        .baseline("gmp", gmp);
  }
  return h.write() ? 0 : 1;
}
