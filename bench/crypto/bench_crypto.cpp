// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_crypto: crypto sizes, in one run on the same threads.
//   products:  G products of n x n limbs through bigmul::mul_batched (IFMA
//              lanes where the processor has them, else AVX2 lanes) against
//              GMP's mpn_mul_n;
//   modexp:    G full-length exponentiations modulo one odd modulus (an RSA
//              private-key operation without CRT) through bigmul's batched
//              constant-time mod_pow_sec, its one-at-a-time scalar
//              mod_pow_sec, GMP's mpz_powm and mpz_powm_sec, and OpenSSL's
//              BN_mod_exp_mont_consttime with a BN_MONT_CTX built once.
// Where mul_batched takes the IFMA lanes and the processor has AVX2, the AVX2
// lanes (mul/batched_avx2.hpp, src/arith/montgomery_avx2.cpp) are timed beside
// them, called directly, so that one run on an IFMA processor shows both;
// BIGMUL_BATCHED_ENGINE=avx2 runs the whole bench on the AVX2 lanes as a
// processor without IFMA would (the header names the engine).
// Every result is compared with GMP's. Each contender keeps its best of three
// interleaved rounds (the machine may be shared). Prints operations per
// second and writes JSON (--json PATH): rows product/<bits>/threads:<t>
// (ratio_vs_gmp) and modexp/<bits>/threads:<t> (ours batched; ratio_vs_ each
// other contender), real_time per batch of `count` operations.
//
//   bench_crypto [--products G] [--modexps G] [--json PATH] [--quick]
//                [--repetitions N] [--min-time S] [--filter REGEX]
#include <gmp.h>
#include <openssl/bn.h>
#include <openssl/opensslv.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "harness.hpp"
#include "bigmul/modular.hpp"
#include "bigmul/mul.hpp"
#include "mul/batched_avx2.hpp"
#include "mul/batched_ifma.hpp"
#include "prim/cpu_features.hpp"
#include "prim/parallel.hpp"
#include "src/arith/montgomery.hpp"

using namespace bigmul;
using namespace bigmul::bench;

namespace {

harness* H = nullptr;  // main's

const char* engine_name() {
  switch (detail::batched_engine_chosen()) {
    case detail::batched_engine::ifma: return "ifma";
    case detail::batched_engine::avx2: return "avx2";
    default: return "scalar";
  }
}

// Whether the AVX2 lanes get their own column (see the top).
bool avx2_beside() {
  return detail::batched_engine_chosen() == detail::batched_engine::ifma && prim::cpu_has_avx2_fma();
}

// The machine is shared: each contender is timed in `rounds` interleaved
// rounds (ours, theirs, ours, ...) and keeps its best median, so that a burst
// of load from elsewhere does not land on one side only.
constexpr int rounds = 3;
template <class F>
void best_of(measurement& best, F&& f, double min_total, int min_runs) {
  const measurement t = H->time(f, {min_total, min_runs, 1000});
  if (best.iterations == 0 || t.real_s < best.real_s) best = t;
}

void bench_products(std::size_t G, unsigned threads, bool quick) {
  std::printf("\n## products: G=%zu n x n limbs, threads=%u (ratio = our throughput / GMP's)\n", G, threads);
  std::printf("%6s %14s %14s %8s", "bits", "ours_prod/s", "gmp_prod/s", "speedup");
  if (avx2_beside()) std::printf(" %14s %8s", "avx2_prod/s", "avx2_spd");
  std::printf("\n");
  std::mt19937_64 g(15);
  for (std::size_t bits : {1024u, 2048u, 3072u, 4096u, 8192u}) {
    const std::string name = "product/" + std::to_string(bits) + "/threads:" + std::to_string(threads);
    if (!H->selected(name)) continue;
    const std::size_t n = bits / 64;
    const auto a = random_limbs(n * G, radix::binary, g), b = random_limbs(n * G, radix::binary, g);
    std::vector<limb_t> r(2 * n * G), want(2 * n * G), r2(avx2_beside() ? 2 * n * G : 0);
    mul_options opt;
    opt.where = backend::cpu;
    opt.threads = threads;
    const double min_total = quick ? 0.05 : 0.3;
    const auto ours_run = [&] { mul_batched(r.data(), a.data(), b.data(), n, G, radix::binary, opt); };
    const auto gmp_run = [&] {
          prim::parallel_chunks(G, 64, threads, [&](std::size_t i0, std::size_t i1) {
            for (std::size_t i = i0; i < i1; ++i)
              mpn_mul_n(reinterpret_cast<mp_limb_t*>(want.data() + 2 * n * i),
                        reinterpret_cast<const mp_limb_t*>(a.data() + n * i),
                        reinterpret_cast<const mp_limb_t*>(b.data() + n * i), static_cast<mp_size_t>(n));
          });
    };
    // The AVX2 lanes as mul_batched runs them (groups of four, small tasks).
    const auto avx2_run = [&] {
      const std::size_t groups = (G + 3) / 4, per = detail::batched_avx2_task_groups(n);
      prim::parallel_for((groups + per - 1) / per, threads, [&](std::size_t t) {
        const std::size_t g0 = 4 * per * t, g1 = std::min(G, g0 + 4 * per);
        detail::mul_batched_avx2(r2.data() + g0 * 2 * n, a.data() + g0 * n, b.data() + g0 * n, n, g1 - g0);
      });
    };
    measurement m_ours, m_gmp, m_avx2;
    for (int round = 0; round < rounds; ++round) {
      best_of(m_ours, ours_run, min_total, 5);
      best_of(m_gmp, gmp_run, min_total, 5);
      if (avx2_beside()) best_of(m_avx2, avx2_run, min_total, 5);
    }
    const double ours = m_ours.real_s, gmp = m_gmp.real_s, avx2 = m_avx2.real_s;
    if (r != want || (avx2_beside() && r2 != want)) {
      std::fprintf(stderr, "bench_crypto: products differ from GMP at %zu bits\n", bits);
      std::exit(1);
    }
    std::printf("%6zu %14.4g %14.4g %8.2f", bits, G / ours, G / gmp, gmp / ours);
    if (avx2_beside()) std::printf(" %14.4g %8.2f", G / avx2, gmp / avx2);
    std::printf("\n");
    auto& row = H->add(name, m_ours)
                    .counter("bits", static_cast<double>(bits))
                    .counter("threads", threads)
                    .counter("count", static_cast<double>(G))
                    .counter("ours_per_s", static_cast<double>(G) / ours)
                    .counter("gmp_mpn_mul_n_per_s", static_cast<double>(G) / gmp)
                    .counter("speedup_vs_gmp", gmp / ours)
                    .baseline("gmp", gmp);
    if (avx2_beside())
      row.counter("avx2_lanes_per_s", static_cast<double>(G) / avx2)
          .counter("avx2_speedup_vs_gmp", gmp / avx2)
          .baseline("avx2_lanes", avx2);
  }
}

integer from_limbs(const std::vector<limb_t>& v) { return integer(std::span<const limb_t>(v), false, radix::binary); }

void bench_modexp(std::size_t G0, unsigned threads, bool quick) {
  std::printf("\n## modexp: G full-length exponents, one odd modulus, threads=%u (ops/s; speedup = ours batched / other)\n",
              threads);
  std::printf("%6s %5s %12s %12s %12s %12s %12s %9s %9s", "bits", "G", "ours_batch", "ours_single", "gmp_powm",
              "gmp_powm_sec", "openssl_ct", "vs_ossl", "vs_gmpsec");
  if (avx2_beside()) std::printf(" %12s %9s", "avx2_batch", "avx2_ossl");
  std::printf("\n");
  std::mt19937_64 g(16);
  for (std::size_t bits : {1024u, 2048u, 3072u, 4096u}) {
    const std::string name = "modexp/" + std::to_string(bits) + "/threads:" + std::to_string(threads);
    if (!H->selected(name)) continue;
    const std::size_t n = bits / 64;
    // Fewer operations at large sizes; a multiple of 8 lanes x threads.
    std::size_t G = std::max<std::size_t>(8 * threads, G0 * 1024 / bits);
    if (quick) G = 8 * threads;
    G = (G + 8 * threads - 1) / (8 * threads) * (8 * threads);
    std::vector<limb_t> m = random_limbs(n, radix::binary, g);
    m[0] |= 1;
    m[n - 1] |= limb_t{1} << 63;
    std::vector<integer> bases, exps;
    std::vector<std::vector<limb_t>> bl(G), el(G);
    for (std::size_t k = 0; k < G; ++k) {
      bl[k] = random_limbs(n, radix::binary, g);
      bl[k][n - 1] >>= 1;  // below m (m's top bit is set)
      el[k] = random_limbs(n, radix::binary, g);
      el[k][n - 1] |= limb_t{1} << 63;  // full length
      bases.push_back(from_limbs(bl[k]));
      exps.push_back(from_limbs(el[k]));
    }
    const integer mi = from_limbs(m);
    const montgomery_context ctx(mi);
    // GMP operands.
    std::vector<mpz_t> zb(G), ze(G), zr(G);
    mpz_t zm;
    mpz_init(zm);
    limbs_to_mpz(zm, m.data(), n, radix::binary);
    for (std::size_t k = 0; k < G; ++k) {
      mpz_inits(zb[k], ze[k], zr[k], nullptr);
      limbs_to_mpz(zb[k], bl[k].data(), n, radix::binary);
      limbs_to_mpz(ze[k], el[k].data(), n, radix::binary);
    }
    // OpenSSL operands (little-endian bytes of the limbs on x86-64).
    BIGNUM* om = BN_lebin2bn(reinterpret_cast<const unsigned char*>(m.data()), static_cast<int>(8 * n), nullptr);
    std::vector<BIGNUM*> ob(G), oe(G), orr(G);
    for (std::size_t k = 0; k < G; ++k) {
      ob[k] = BN_lebin2bn(reinterpret_cast<const unsigned char*>(bl[k].data()), static_cast<int>(8 * n), nullptr);
      oe[k] = BN_lebin2bn(reinterpret_cast<const unsigned char*>(el[k].data()), static_cast<int>(8 * n), nullptr);
      orr[k] = BN_new();
    }
    BN_CTX* setup = BN_CTX_new();
    BN_MONT_CTX* mont = BN_MONT_CTX_new();
    BN_MONT_CTX_set(mont, om, setup);

    const double min_total = quick ? 0.1 : 0.5;
    std::vector<integer> ours;
    const auto batch_run = [&] { ours = ctx.mod_pow_sec(bases, exps, threads); };
    std::vector<integer> single(G);
    const auto single_run = [&] {
      prim::parallel_chunks(G, 1, threads, [&](std::size_t i0, std::size_t i1) {
        for (std::size_t i = i0; i < i1; ++i) single[i] = ctx.mod_pow_sec(bases[i], exps[i]);
      });
    };
    const auto gmp_run = [&](bool sec) {
      prim::parallel_chunks(G, 1, threads, [&](std::size_t i0, std::size_t i1) {
        for (std::size_t i = i0; i < i1; ++i)
          if (sec) mpz_powm_sec(zr[i], zb[i], ze[i], zm);
          else mpz_powm(zr[i], zb[i], ze[i], zm);
      });
    };
    const auto ossl_run = [&] {
      prim::parallel_chunks(G, 1, threads, [&](std::size_t i0, std::size_t i1) {
        BN_CTX* c = BN_CTX_new();
        for (std::size_t i = i0; i < i1; ++i) BN_mod_exp_mont_consttime(orr[i], ob[i], oe[i], om, c, mont);
        BN_CTX_free(c);
      });
    };
    // The AVX2 lanes' constant-time exponentiation, four jobs a call.
    std::vector<std::vector<limb_t>> ra(avx2_beside() ? G : 0, std::vector<limb_t>(n));
    const auto avx2_run = [&] {
      prim::parallel_chunks((G + 3) / 4, 1, threads, [&](std::size_t q0, std::size_t q1) {
        for (std::size_t q = q0; q < q1; ++q) {
          detail::lane_job jobs[4];
          const std::size_t count = std::min<std::size_t>(4, G - 4 * q);
          for (std::size_t l = 0; l < count; ++l) {
            const std::size_t k = 4 * q + l;
            jobs[l] = {m.data(), n, bl[k].data(), n, el[k].data(), n, ra[k].data()};
          }
          detail::lanes_avx2_pow_sec(jobs, count, 64 * n);
        }
      });
    };
    measurement m_batch, m_single, m_gmp, m_gmp_sec, m_ossl, m_avx2;
    for (int round = 0; round < rounds; ++round) {
      best_of(m_batch, batch_run, min_total, 3);
      if (avx2_beside()) best_of(m_avx2, avx2_run, min_total, 3);
      best_of(m_ossl, ossl_run, min_total, 3);
      best_of(m_single, single_run, min_total, 3);
      best_of(m_gmp, [&] { gmp_run(false); }, min_total, 3);
      best_of(m_gmp_sec, [&] { gmp_run(true); }, min_total, 3);  // last: zr holds mpz_powm_sec's results
    }
    const double t_batch = m_batch.real_s, t_single = m_single.real_s, t_gmp = m_gmp.real_s,
                 t_gmp_sec = m_gmp_sec.real_s, t_ossl = m_ossl.real_s, t_avx2 = m_avx2.real_s;
    // Every result against GMP's (zr holds mpz_powm_sec's).
    for (std::size_t k = 0; k < G; ++k) {
      std::vector<limb_t> want(n, 0), got_o(n, 0);
      mpz_export(want.data(), nullptr, -1, 8, 0, 0, zr[k]);
      BN_bn2lebinpad(orr[k], reinterpret_cast<unsigned char*>(got_o.data()), static_cast<int>(8 * n));
      const std::vector<limb_t> got(ours[k].magnitude().begin(), ours[k].magnitude().end()),
          got_s(single[k].magnitude().begin(), single[k].magnitude().end());
      std::vector<limb_t> w = want;
      while (!w.empty() && w.back() == 0) w.pop_back();
      if (got != w || got_s != w || got_o != want || (avx2_beside() && ra[k] != want)) {
        std::fprintf(stderr, "bench_crypto: modexp %zu differs from GMP at %zu bits\n", k, bits);
        std::exit(1);
      }
    }
    std::printf("%6zu %5zu %12.1f %12.1f %12.1f %12.1f %12.1f %9.2f %9.2f", bits, G, G / t_batch, G / t_single,
                G / t_gmp, G / t_gmp_sec, G / t_ossl, t_ossl / t_batch, t_gmp_sec / t_batch);
    if (avx2_beside()) std::printf(" %12.1f %9.2f", G / t_avx2, t_ossl / t_avx2);
    std::printf("\n");
    auto& row = H->add(name, m_batch)
        .counter("bits", static_cast<double>(bits))
        .counter("threads", threads)
        .counter("count", static_cast<double>(G))
        .counter("ours_batched_sec_per_s", static_cast<double>(G) / t_batch)
        .counter("ours_single_sec_per_s", static_cast<double>(G) / t_single)
        .counter("gmp_powm_per_s", static_cast<double>(G) / t_gmp)
        .counter("gmp_powm_sec_per_s", static_cast<double>(G) / t_gmp_sec)
        .counter("openssl_consttime_per_s", static_cast<double>(G) / t_ossl)
        .counter("speedup_vs_openssl", t_ossl / t_batch)
        .counter("speedup_vs_gmp_powm_sec", t_gmp_sec / t_batch)
        .baseline("ours_single", t_single)
        .baseline("gmp_powm", t_gmp)
        .baseline("gmp_powm_sec", t_gmp_sec)
        .baseline("openssl", t_ossl);
    if (avx2_beside())
      row.counter("avx2_lanes_sec_per_s", static_cast<double>(G) / t_avx2)
          .counter("avx2_speedup_vs_openssl", t_ossl / t_avx2)
          .baseline("avx2_lanes", t_avx2);
    BN_MONT_CTX_free(mont);
    BN_CTX_free(setup);
    BN_free(om);
    for (std::size_t k = 0; k < G; ++k) {
      BN_free(ob[k]);
      BN_free(oe[k]);
      BN_free(orr[k]);
      mpz_clears(zb[k], ze[k], zr[k], nullptr);
    }
    mpz_clear(zm);
  }
}

}  // namespace

int main(int argc, char** argv) {
  harness h("bench_crypto", argc, argv, "bench_crypto.json");
  H = &h;
  std::size_t G_prod = 4096, G_exp = 64;
  bool quick = false;
  const auto& av = h.args();
  for (std::size_t i = 0; i < av.size(); ++i) {
    const std::string& a = av[i];
    if (a == "--quick") quick = true;
    else if (a == "--products" && i + 1 < av.size()) G_prod = std::strtoull(av[++i].c_str(), nullptr, 10);
    else if (a == "--modexps" && i + 1 < av.size()) G_exp = std::strtoull(av[++i].c_str(), nullptr, 10);
    else {
      std::fprintf(stderr, "usage: bench_crypto [--products G] [--modexps G] [--json PATH] [--quick]\n");
      return 2;
    }
  }
  std::printf("# bigmul bench_crypto  %s  commit %s  %s  GMP %s  %s  batched engine %s%s\n",
              machine_description().c_str(), git_commit().c_str(), today().c_str(), gmp_version, OPENSSL_VERSION_TEXT,
              engine_name(), avx2_beside() ? " (avx2 lanes beside)" : "");
  for (unsigned threads : {1u, 2u}) bench_products(quick ? 512 : G_prod, threads, quick);
  for (unsigned threads : {1u, 2u}) bench_modexp(G_exp, threads, quick);
  h.context("openssl", OPENSSL_VERSION_TEXT);
  h.context("batched_engine", engine_name());
  h.context("note", "each contender's best of three interleaved medians, same threads, same run; ratio_vs_X = our "
                    "time / X's, speedup_vs_X = our throughput / X's");
  return h.write() ? 0 : 1;
}
