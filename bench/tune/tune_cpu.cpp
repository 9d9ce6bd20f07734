// SPDX-License-Identifier: LGPL-3.0-or-later
// tune_cpu: measures the CPU dispatcher's crossovers (GMP's tuneup in
// miniature) and writes this processor's table, mul/params/<name>.inc
// (mul/params_cpu.hpp: name and key from params_cpu::key_for), with its log
// bench/results/tune/<name>.txt, and lists it in mul/params/entries.inc.
//   karatsuba_basecase: below it Karatsuba's recursion uses the schoolbook;
//   karatsuba: smallest bn where Karatsuba beats the schoolbook;
//   toom3 (binary): smallest bn where Toom-3 over Karatsuba beats Karatsuba
//   (0 in the decimal row: no decimal Toom-3);
//   fft: smallest bn where fft_real beats Karatsuba (balanced operands);
//   ntt, ntt_portable, ntt_avx2: smallest bn where the NTT (IFMA engine,
//   portable engine, AVX2 engine) beats whichever of Karatsuba and fft_real
//   the table picks there.
// An engine this processor cannot run gets the next one's value (ifma ->
// avx2 -> portable); the dispatcher never reads it here.
//   sqr_karatsuba (binary squares a * a): smallest n where one level of the
//   Karatsuba square over the schoolbook square beats the schoolbook square
//   (the Karatsuba square's cut-off, which is also where the dispatcher's
//   squares start splitting);
//   sqr_toom3: smallest n where one level of the Toom-3 square over
//   Karatsuba squares beats the Karatsuba square (squares' pieces are
//   squares, whose schoolbook is twice as fast, so the split into five pays
//   later than for products; 0 if it never wins up to 3000);
//   sqr_ntt, sqr_ntt_portable, sqr_ntt_avx2: smallest n where that engine's
//   NTT square beats the table's square (Karatsuba / Toom-3 squares from
//   sqr_toom3 / fft_real as the binary row picks them), probed from half
//   the engine's product crossover (below that the NTT never runs).
//   gmp_crossover, gmp_crossover_portable, gmp_crossover_avx2: smallest n
//   (binary limbs) from which bigmul::mul on that engine beats GMP's mpz_mul
//   (all threads; the GMP bridge's switch).
//   radix_to_decimal_basecase, radix_from_decimal_basecase: the longest
//   decimal length (10^19 limbs) the radix converter leaves to its schoolbook
//   code, one below the first length where one divide-and-conquer split over
//   the schoolbook beats the schoolbook (both directions).
// A crossover is the first size from which the faster side keeps winning for
// the next three sizes probed (noise-robust). Default thread count (all
// cores), as the library runs by default.
//
//   tune_cpu [--out mul/params/<name>.inc] [--log bench/results/tune/<name>.txt]
//            [--entries mul/params/entries.inc | --entries none]
// (paths relative to the working directory: run it from the source root to
// update the committed table, its log and the registry together).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "harness.hpp"
#include "bigmul/mul.hpp"
#include "mul/basecase.hpp"
#include "mul/karatsuba.hpp"
#include "mul/sqr_basecase.hpp"
#include "mul/toom3.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/params_cpu.hpp"
#include "src/arith/radix_convert.hpp"

using namespace bigmul;
using namespace bigmul::bench;

namespace {

std::mt19937_64 g(77);

// Time of f(r, a, b, n) on n x n random limbs.
double time_at(radix rx, std::size_t n, const std::function<void(limb_t*, const limb_t*, const limb_t*, std::size_t)>& f) {
  const auto a = random_limbs(n, rx, g), b = random_limbs(n, rx, g);
  std::vector<limb_t> r(2 * n);
  return measure([&] { f(r.data(), a.data(), b.data(), n); }, timing{0.05, 5, 2000}).real_s;
}

// First size in `sizes` from which `challenger` is faster than `incumbent`
// at it and at the next three sizes.
std::size_t crossover(radix rx, const std::vector<std::size_t>& sizes,
                      const std::function<void(limb_t*, const limb_t*, const limb_t*, std::size_t)>& incumbent,
                      const std::function<void(limb_t*, const limb_t*, const limb_t*, std::size_t)>& challenger,
                      const char* what) {
  std::vector<bool> wins;
  for (std::size_t n : sizes) {
    const double ti = time_at(rx, n, incumbent), tc = time_at(rx, n, challenger);
    wins.push_back(tc < ti);
    say("  %-28s %-7s n=%6zu  incumbent %.3e s  challenger %.3e s  %s\n", what,
                rx == radix::binary ? "binary" : "decimal", n, ti, tc, tc < ti ? "challenger" : "incumbent");
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    bool all = true;
    for (std::size_t k = i; k < std::min(sizes.size(), i + 4); ++k) all = all && wins[k];
    if (all) return sizes[i];
  }
  return sizes.back();
}

// n x n products through the NTT on one engine (all threads, as bigmul::mul runs).
std::function<void(limb_t*, const limb_t*, const limb_t*, std::size_t)> ntt_on(radix rx, detail::ntt_engine e) {
  return [rx, e](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
    mul_options o;
    mul_stats st;
    detail::mul_ntt(r, a, n, b, n, rx, o, st, e);
  };
}

namespace pc = detail::params_cpu;

std::string crossovers_text(const pc::crossovers& x) {
  std::string s;
  for (std::size_t v : {x.karatsuba, x.fft, x.karatsuba_basecase, x.ntt, x.ntt_portable, x.ntt_avx2, x.toom3})
    s += (s.empty() ? "{" : ", ") + std::to_string(v);
  return s + "}";
}

// The table as mul/params/entries.inc includes it: one braced cpu_params.
bool write_table(const std::string& path, const pc::cpu_params& t, const std::string& provenance) {
  std::ofstream out(path);
  out << "// SPDX-License-Identifier: LGPL-3.0-or-later\n"
      << "// Generated by bench/tune/tune_cpu on " << provenance << ".\n"
      << "{.name = \"" << t.name << "\", .vendor = \"" << t.vendor << "\", .family = " << t.family
      << ", .model_first = " << t.model_first << ", .model_last = " << t.model_last << ",\n"
      << " .engine = ntt_engine::" << detail::ntt_engine_name(t.engine) << ",\n"
      << " .binary_radix = " << crossovers_text(t.binary_radix) << ",\n"
      << " .decimal_radix = " << crossovers_text(t.decimal_radix) << ",\n"
      << " .gmp_crossover = " << t.gmp_crossover << ", .gmp_crossover_portable = " << t.gmp_crossover_portable
      << ", .gmp_crossover_avx2 = " << t.gmp_crossover_avx2 << ",\n"
      << " .sqr_karatsuba = " << t.sqr_karatsuba << ", .sqr_toom3 = " << t.sqr_toom3 << ", .sqr_ntt = " << t.sqr_ntt
      << ", .sqr_ntt_portable = " << t.sqr_ntt_portable << ", .sqr_ntt_avx2 = " << t.sqr_ntt_avx2 << ",\n"
      << " .tiled_tile = " << t.tiled_tile << ",\n"
      << " .radix_to_decimal_basecase = " << t.radix_to_decimal_basecase
      << ", .radix_from_decimal_basecase = " << t.radix_from_decimal_basecase << "},\n";
  out.close();
  return static_cast<bool>(out);
}

// Adds the table's #include line (its path from the source root) to the
// registry unless it is there.
bool list_table(const std::string& entries_path, const std::string& table_path) {
  const std::string line = "#include \"" + table_path + "\"";
  std::ifstream in(entries_path);
  if (!in) return false;
  for (std::string l; std::getline(in, l);)
    if (l == line) return true;
  in.close();
  std::ofstream out(entries_path, std::ios::app);
  out << line << "\n";
  out.close();
  return static_cast<bool>(out);
}

std::vector<std::size_t> geometric(std::size_t lo, std::size_t hi, double step) {
  std::vector<std::size_t> v;
  for (double x = static_cast<double>(lo); x <= static_cast<double>(hi); x *= step) {
    const auto n = static_cast<std::size_t>(x);
    if (v.empty() || n != v.back()) v.push_back(n);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const pc::processor cpu = pc::this_processor();
  const pc::table_key key = pc::key_for(cpu);
  std::string out_path = "mul/params/" + key.name + ".inc", log_path = "bench/results/tune/" + key.name + ".txt",
              entries_path = "mul/params/entries.inc";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--out" || a == "--log" || a == "--entries") && i + 1 < argc)
      (a == "--out" ? out_path : a == "--log" ? log_path : entries_path) = argv[++i];
    else {
      std::fprintf(stderr, "usage: tune_cpu [--out %s] [--log %s] [--entries %s | --entries none]\n",
                   out_path.c_str(), log_path.c_str(), entries_path.c_str());
      return 2;
    }
  }
  // Once, before the log and the table are written (they would make the tree
  // read as modified).
  const std::string commit = git_commit();
  if (!open_log(log_path)) {
    std::fprintf(stderr, "tune_cpu: cannot write %s\n", log_path.c_str());
    return 1;
  }
  const double start = now_seconds();
  say("# tune_cpu  %s  commit %s  %s\n", machine_description().c_str(), commit.c_str(), today().c_str());
  say("# table %s: %.*s family %u model %u, NTT engine %s\n", key.name.c_str(), static_cast<int>(cpu.vendor.size()),
      cpu.vendor.data(), cpu.family, cpu.model, detail::ntt_engine_name(cpu.engine));
  const std::string vendor(cpu.vendor);
  pc::cpu_params t{};
  t.name = key.name.c_str();
  t.vendor = vendor.c_str();
  t.family = cpu.family;
  t.model_first = key.model_first;
  t.model_last = key.model_last;
  t.engine = cpu.engine;
  std::size_t sqr_kara = 0, sqr_toom3 = 0, sqr_ntt = 0, sqr_ntt_portable = 0, sqr_ntt_avx2 = 0;  // binary squares
  for (radix rx : {radix::binary, radix::decimal}) {
    const auto basecase = [rx](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
      detail::mul_basecase(r, a, n, b, n, rx);
    };
    // Karatsuba with a candidate cut: one level of Karatsuba over basecase at
    // size n decides whether splitting n pays.
    const std::size_t cut = crossover(
        rx, geometric(8, 160, 1.12), basecase,
        [rx](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) { detail::mul_karatsuba(r, a, n, b, n, rx, n); },
        "karatsuba one level");
    const std::size_t kara = crossover(
        rx, geometric(8, 200, 1.12), basecase,
        [rx, cut](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
          detail::mul_karatsuba(r, a, n, b, n, rx, cut);
        },
        "karatsuba vs basecase");
    const std::size_t toom3 =
        rx == radix::binary
            ? crossover(
                  rx, geometric(60, 3000, 1.15),
                  [cut](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
                    detail::mul_karatsuba(r, a, n, b, n, radix::binary, cut);
                  },
                  [cut](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
                    detail::mul_toom3(r, a, n, b, n, n, cut);  // Toom-3 at the top, Karatsuba below
                  },
                  "toom3 vs karatsuba")
            : 0;
    // What the dispatcher runs between the schoolbook and the FFTs.
    const auto chain = [rx, cut, toom3](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
      if (toom3 && n >= toom3) return detail::mul_toom3(r, a, n, b, n, toom3, cut);
      detail::mul_karatsuba(r, a, n, b, n, rx, cut);
    };
    const std::size_t fft = crossover(
        rx, geometric(100, 30000, 1.15), chain,
        [rx](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
          mul_options o;
          o.algo = algorithm::fft_real;
          mul(r, a, n, b, n, rx, o);
        },
        "fft_real vs karatsuba");
    const auto incumbent = [rx, chain, fft](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
      if (n < fft) return chain(r, a, b, n);
      mul_options o;
      o.algo = algorithm::fft_real;
      mul(r, a, n, b, n, rx, o);
    };
    const auto ntt_vs_table = [&](detail::ntt_engine e, std::size_t fallback) {
      if (!detail::ntt_engine_available(e)) return fallback;
      const std::string what = std::string("ntt ") + detail::ntt_engine_name(e) + " vs table";
      return crossover(rx, geometric(100, 30000, 1.15), incumbent, ntt_on(rx, e), what.c_str());
    };
    const std::size_t ntt_portable = ntt_vs_table(detail::ntt_engine::portable, 0);
    const std::size_t ntt_avx2 = ntt_vs_table(detail::ntt_engine::avx2, ntt_portable);
    const std::size_t ntt = ntt_vs_table(detail::ntt_engine::ifma, ntt_avx2);
    if (rx == radix::binary) {
      const double sqr_start = now_seconds();
      // Squares: the same timings with b = a (every algorithm squares its pieces then).
      using fn = std::function<void(limb_t*, const limb_t*, const limb_t*, std::size_t)>;
      const auto square = [](fn f) -> fn {
        return [f](limb_t* r, const limb_t* a, const limb_t*, std::size_t n) { f(r, a, a, n); };
      };
      // 16 squares a timed run: one takes 40 ns - 2 us here, near the clock's 10 ns steps.
      sqr_kara = crossover(
          rx, geometric(8, 100, 1.08),
          [](limb_t* r, const limb_t* a, const limb_t*, std::size_t n) {
            for (int i = 0; i < 16; ++i) detail::sqr_basecase(r, a, n);
          },
          [](limb_t* r, const limb_t* a, const limb_t*, std::size_t n) {
            for (int i = 0; i < 16; ++i) detail::sqr_karatsuba(r, a, n, n);
          },
          "sqr karatsuba one level (x16)");
      const std::vector<std::size_t> toom_sizes = geometric(60, 3000, 1.15);
      sqr_toom3 = crossover(
          rx, toom_sizes,
          [cut](limb_t* r, const limb_t* a, const limb_t*, std::size_t n) {
            detail::mul_karatsuba(r, a, n, a, n, radix::binary, cut);
          },
          [cut](limb_t* r, const limb_t* a, const limb_t*, std::size_t n) {
            detail::mul_toom3(r, a, n, a, n, n, cut);  // Toom-3 at the top, Karatsuba squares below
          },
          "sqr toom3 vs karatsuba");
      if (sqr_toom3 == toom_sizes.back()) sqr_toom3 = 0;  // never won in the range probed
      // The dispatcher's squares below the NTT: Toom-3 squares from sqr_toom3.
      const auto sqr_table = [&](limb_t* r, const limb_t* a, const limb_t*, std::size_t n) {
        if (n >= fft) return incumbent(r, a, a, n);
        if (sqr_toom3 && n >= sqr_toom3) return detail::mul_toom3(r, a, n, a, n, sqr_toom3, cut);
        detail::mul_karatsuba(r, a, n, a, n, radix::binary, cut);
      };
      const auto sqr_vs_table = [&](detail::ntt_engine e, std::size_t product_crossover, std::size_t fallback) {
        if (!detail::ntt_engine_available(e)) return fallback;
        const std::string what = std::string("sqr ntt ") + detail::ntt_engine_name(e) + " vs table";
        const std::size_t lo = std::max<std::size_t>(60, product_crossover / 2);
        return crossover(rx, geometric(lo, 30 * lo, 1.15), sqr_table, square(ntt_on(rx, e)), what.c_str());
      };
      sqr_ntt_portable = sqr_vs_table(detail::ntt_engine::portable, ntt_portable, 0);
      sqr_ntt_avx2 = sqr_vs_table(detail::ntt_engine::avx2, ntt_avx2, sqr_ntt_portable);
      sqr_ntt = sqr_vs_table(detail::ntt_engine::ifma, ntt, sqr_ntt_avx2);
      say("binary squares: sqr_karatsuba %zu, sqr_toom3 %zu, sqr_ntt %zu, sqr_ntt_portable %zu, sqr_ntt_avx2 %zu "
          "(%.1f s)\n",
          sqr_kara, sqr_toom3, sqr_ntt, sqr_ntt_portable, sqr_ntt_avx2, now_seconds() - sqr_start);
    }
    (rx == radix::binary ? t.binary_radix : t.decimal_radix) = {kara, fft, cut, ntt, ntt_portable, ntt_avx2, toom3};
    say("%s: karatsuba %zu, fft %zu, karatsuba_basecase %zu, ntt %zu, ntt_portable %zu, ntt_avx2 %zu, toom3 %zu\n",
                rx == radix::binary ? "binary" : "decimal", kara, fft, cut, ntt, ntt_portable, ntt_avx2, toom3);
  }
  // Where bigmul (all threads, as the GMP bridge calls it) beats mpz_mul.
  mpz_t z;
  mpz_init(z);
  const auto gmp = [&z](limb_t*, const limb_t* a, const limb_t* b, std::size_t n) {
    mpz_t x, y;
    mpz_mul(z, mpz_roinit_n(x, reinterpret_cast<const mp_limb_t*>(a), static_cast<mp_size_t>(n)),
            mpz_roinit_n(y, reinterpret_cast<const mp_limb_t*>(b), static_cast<mp_size_t>(n)));
  };
  const auto vs_gmp = [&](detail::ntt_engine e, std::size_t fallback) {
    if (!detail::ntt_engine_available(e)) return fallback;
    const std::string what = std::string("ntt ") + detail::ntt_engine_name(e) + " vs GMP";
    return crossover(radix::binary, geometric(100, 600000, 1.3), gmp, ntt_on(radix::binary, e), what.c_str());
  };
  const std::size_t gmp_portable = vs_gmp(detail::ntt_engine::portable, 0);
  const std::size_t gmp_avx2 = vs_gmp(detail::ntt_engine::avx2, gmp_portable);
  const std::size_t gmp_ifma = vs_gmp(detail::ntt_engine::ifma, gmp_avx2);
  mpz_clear(z);
  say("gmp_crossover %zu, gmp_crossover_portable %zu, gmp_crossover_avx2 %zu\n", gmp_ifma, gmp_portable,
              gmp_avx2);
  t.gmp_crossover = gmp_ifma, t.gmp_crossover_portable = gmp_portable, t.gmp_crossover_avx2 = gmp_avx2;
  t.sqr_karatsuba = sqr_kara, t.sqr_toom3 = sqr_toom3, t.sqr_ntt = sqr_ntt, t.sqr_ntt_portable = sqr_ntt_portable;
  t.sqr_ntt_avx2 = sqr_ntt_avx2;

  // Tile size of the tiled convolution: the fastest of the candidates at a
  // size where it is still used by name (quadratic, so a mid size).
  unsigned best_tile = 32;
  double best_time = 0;
  for (unsigned tile : {8u, 16u, 32u, 64u, 128u, 256u, 512u}) {
    const double t = time_at(radix::binary, 1500, [tile](limb_t* r, const limb_t* a, const limb_t* b, std::size_t n) {
      mul_options o;
      o.algo = algorithm::tiled;
      o.tile = tile;
      mul(r, a, n, b, n, radix::binary, o);
    });
    say("  tiled tile %4u  n=1500  %.3e s\n", tile, t);
    if (best_time == 0 || t < best_time) {
      best_time = t;
      best_tile = tile;
    }
  }
  say("tiled tile %u\n", best_tile);
  t.tiled_tile = best_tile;

  // Radix conversion. Binary -> decimal recurses on the decimal length L of
  // its input (detail::decimal_limbs_bound): "basecase up to L - 1" makes a
  // length-L input split once, its halves go to the schoolbook.
  constexpr std::size_t never = ~std::size_t{0};
  const auto to_decimal_length = [](std::size_t n) {
    const std::vector<limb_t> top(n, ~limb_t{0});
    return detail::decimal_limbs_bound(top.data(), n);
  };
  const std::size_t to_dec_n = crossover(
      radix::binary, geometric(4, 600, 1.15),
      [](limb_t*, const limb_t* a, const limb_t*, std::size_t n) { detail::binary_to_decimal(a, n, never); },
      [](limb_t*, const limb_t* a, const limb_t*, std::size_t n) {
        detail::binary_to_decimal(a, n, detail::decimal_limbs_bound(a, n) - 1);
      },
      "radix to decimal split");
  const std::size_t from_dec_n = crossover(
      radix::decimal, geometric(4, 600, 1.15),
      [](limb_t*, const limb_t* a, const limb_t*, std::size_t n) { detail::decimal_to_binary(a, n, never); },
      [](limb_t*, const limb_t* a, const limb_t*, std::size_t n) { detail::decimal_to_binary(a, n, n - 1); },
      "radix from decimal split");
  const std::size_t to_dec = to_decimal_length(to_dec_n) - 1, from_dec = from_dec_n - 1;
  say("radix_to_decimal_basecase %zu, radix_from_decimal_basecase %zu\n", to_dec, from_dec);
  t.radix_to_decimal_basecase = to_dec, t.radix_from_decimal_basecase = from_dec;
  if (!write_table(out_path, t, machine_description() + ", " + today() + ", commit " + commit)) {
    std::fprintf(stderr, "tune_cpu: cannot write %s\n", out_path.c_str());
    return 1;
  }
  if (entries_path != "none" && out_path.rfind("mul/params/", 0) != 0) {
    say("# %s is outside mul/params/: not listed in %s\n", out_path.c_str(), entries_path.c_str());
  } else if (entries_path != "none" && !list_table(entries_path, out_path)) {
    std::fprintf(stderr, "tune_cpu: cannot add %s to %s\n", out_path.c_str(), entries_path.c_str());
    return 1;
  }
  say("# wrote %s (log %s) in %.1f s\n", out_path.c_str(), log_path.c_str(), now_seconds() - start);
  return 0;
}
