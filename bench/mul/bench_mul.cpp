// bench_mul: bigmul's multiplication against GMP's mpz_mul, measured in the
// same run, for 10^3 .. 10^7 decimal digits: every algorithm and the
// dispatcher, 1 thread and all threads, both radices; the ratio is
// (our time) / (GMP's time), so below 1 means faster than GMP. Also the peak
// heap of one product relative to the operands' size. The NTT runs once per
// engine this processor has (ifma, avx2, portable; BIGMUL_NTT_ENGINE set for
// the row, rows named ntt:<engine>; automatic runs the default). Writes JSON.
//
//   bench_mul [--min-digits N] [--max-digits N] [--radix decimal|binary|both]
//             [--algorithms a,b,...] [--json PATH]
#include <gmp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.hpp"
#include "bigmul/mul.hpp"
#include "mul/fft_mul.hpp"
#include "mul/ntt_mul.hpp"
#include "prim/parallel.hpp"

using namespace bigmul;
using namespace bigmul::bench;

namespace {

struct row {
  std::size_t digits;
  std::string radix_name, algo, engine;
  unsigned threads;
  double ours, gmp, ratio, mdata_per_s, peak_ratio;
  std::size_t transform_length;
  unsigned coefficient_digits;
  double max_roundoff;
};

// Largest digit count each algorithm is run at (quadratic ones stop early).
std::size_t digit_cap(algorithm a) {
  switch (a) {
    case algorithm::basecase: return 100000;
    case algorithm::tiled: return 100000;
    case algorithm::karatsuba: return 1000000;
    default: return ~std::size_t{0};
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t min_digits = 1000, max_digits = 10000000;
  std::string json_path = "bench_mul.json", radix_arg = "both";
  std::vector<algorithm> algos = {algorithm::automatic, algorithm::basecase, algorithm::karatsuba, algorithm::tiled,
                                  algorithm::fft_complex, algorithm::fft_real, algorithm::fft_complex_f32,
                                  algorithm::ntt};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_mul: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--min-digits") min_digits = std::stoull(next());
    else if (a == "--max-digits") max_digits = std::stoull(next());
    else if (a == "--json") json_path = next();
    else if (a == "--radix") radix_arg = next();
    else if (a == "--algorithms") {
      algos.clear();
      std::stringstream ss(next());
      std::string name;
      while (std::getline(ss, name, ',')) {
        algorithm al;
        if (!parse_algorithm(name, al)) {
          std::fprintf(stderr, "bench_mul: unknown algorithm '%s'\n", name.c_str());
          return 2;
        }
        algos.push_back(al);
      }
    } else {
      std::fprintf(stderr, "usage: bench_mul [--min-digits N] [--max-digits N] [--radix decimal|binary|both] "
                           "[--algorithms a,b] [--json PATH]\n");
      return 2;
    }
  }
  std::vector<radix> radices;
  if (radix_arg != "binary") radices.push_back(radix::decimal);
  if (radix_arg != "decimal") radices.push_back(radix::binary);
  const unsigned all_threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> thread_counts = {1};
  if (all_threads > 1) thread_counts.push_back(all_threads);

  std::mt19937_64 g(12345);
  std::vector<row> rows;
  // The caller's BIGMUL_NTT_ENGINE, for the rows that run the default engine.
  std::optional<std::string> env_engine;
  if (const char* e = std::getenv("BIGMUL_NTT_ENGINE")) env_engine = e;
  std::printf("# bigmul bench_mul  %s  commit %s  %s  GMP %s\n", machine_description().c_str(),
              git_commit().c_str(), today().c_str(), gmp_version);
  std::printf("%10s %8s %16s %3s %11s %11s %7s %9s %6s %9s %4s %8s\n", "digits", "radix", "algorithm", "thr",
              "ours_s", "gmp_s", "ratio", "MData/s", "peak", "fft_len", "dig", "roundoff");
  for (std::size_t digits = min_digits; digits <= max_digits; digits *= 10) {
    for (radix rx : radices) {
      // Operands: decimal limbs of `digits` digits, or binary limbs of the same bit size.
      std::vector<limb_t> a, b;
      if (rx == radix::decimal) {
        a = random_decimal_digits(digits, g);
        b = random_decimal_digits(digits, g);
      } else {
        const std::size_t n = static_cast<std::size_t>(static_cast<double>(digits) * 3.321928094887362 / 64) + 1;
        a = random_limbs(n, rx, g);
        b = random_limbs(n, rx, g);
      }
      mpz_t x, y, z;
      mpz_inits(x, y, z, nullptr);
      limbs_to_mpz(x, a.data(), a.size(), rx);
      limbs_to_mpz(y, b.data(), b.size(), rx);
      const double t_gmp = time_median([&] { mpz_mul(z, x, y); });
      const double operand_bytes = static_cast<double>((a.size() + b.size()) * sizeof(limb_t));
      for (algorithm algo : algos) {
        if (digits > digit_cap(algo)) continue;
        if (algo == algorithm::fft_complex_f32 && detail::fft_pick_digits(algo, rx, a.size(), b.size()) == 0) continue;
        std::vector<detail::ntt_engine> engines = {detail::ntt_engine::best};
        if (algo == algorithm::ntt) {
          engines.clear();
          for (auto e : {detail::ntt_engine::ifma, detail::ntt_engine::avx2, detail::ntt_engine::portable})
            if (detail::ntt_engine_available(e)) engines.push_back(e);
        }
        for (detail::ntt_engine engine : engines)
        for (unsigned threads : thread_counts) {
          if (engine != detail::ntt_engine::best)
            setenv("BIGMUL_NTT_ENGINE", detail::ntt_engine_name(engine), 1);
          else if (env_engine)
            setenv("BIGMUL_NTT_ENGINE", env_engine->c_str(), 1);
          else
            unsetenv("BIGMUL_NTT_ENGINE");
          const std::string name = std::string(algorithm_name(algo)) +
                                   (engine == detail::ntt_engine::best ? "" : std::string(":") + detail::ntt_engine_name(engine));
          std::vector<limb_t> r(a.size() + b.size());
          mul_options opt;
          opt.algo = algo;
          opt.threads = threads;
          mul_stats st;
          opt.stats = &st;
          // Peak heap of one product (the result vector is allocated outside),
          // scratch kept between products included: released before it.
          mul(r.data(), a.data(), a.size(), b.data(), b.size(), rx, opt);  // warm-up: plans, pool
          release_scratch();
          reset_peak();
          const std::size_t before = heap_in_use();
          mul(r.data(), a.data(), a.size(), b.data(), b.size(), rx, opt);
          const double peak = static_cast<double>(heap_peak() - before) + static_cast<double>(r.size() * 8);
          const double t = time_median([&] { mul(r.data(), a.data(), a.size(), b.data(), b.size(), rx, opt); });
          row w{digits, rx == radix::decimal ? "decimal" : "binary", name, st.ntt_engine ? st.ntt_engine : "", threads, t, t_gmp,
                t / t_gmp, 2.0 * static_cast<double>(digits) / t / 1e6, (peak + operand_bytes) / operand_bytes,
                st.transform_length, st.coefficient_digits, st.max_roundoff};
          rows.push_back(w);
          const std::string used = std::string(algorithm_name(st.used)) + (st.ntt_engine ? std::string(":") + st.ntt_engine : "");
          std::printf("%10zu %8s %16s %3u %11.6f %11.6f %7.3f %9.2f %6.2f %9zu %4u %8.2e\n", w.digits,
                      w.radix_name.c_str(), used.c_str(), threads, t, t_gmp, w.ratio, w.mdata_per_s,
                      w.peak_ratio, w.transform_length, w.coefficient_digits, w.max_roundoff);
          std::fflush(stdout);
        }
      }
      mpz_clears(x, y, z, nullptr);
    }
  }
  std::ofstream out(json_path);
  out << "{\n  \"benchmark\": \"bench_mul\",\n  \"machine\": \"" << machine_description() << "\",\n  \"commit\": \""
      << git_commit() << "\",\n  \"date\": \"" << today() << "\",\n  \"gmp\": \"" << gmp_version
      << "\",\n  \"ratio\": \"our time / GMP mpz_mul time, same run\",\n  \"peak\": \"peak heap of one product "
         "incl. operands and result / operand bytes\",\n  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& w = rows[i];
    out << "    {\"digits\": " << w.digits << ", \"radix\": \"" << w.radix_name << "\", \"algorithm\": \"" << w.algo
        << "\", \"ntt_engine\": \"" << w.engine << "\", \"threads\": " << w.threads << ", \"seconds\": " << w.ours << ", \"gmp_seconds\": " << w.gmp
        << ", \"ratio\": " << w.ratio << ", \"mdata_per_s\": " << w.mdata_per_s << ", \"peak_ratio\": "
        << w.peak_ratio << ", \"transform_length\": " << w.transform_length << ", \"coefficient_digits\": "
        << w.coefficient_digits << ", \"max_roundoff\": " << w.max_roundoff << "}" << (i + 1 < rows.size() ? "," : "")
        << "\n";
  }
  out << "  ]\n}\n";
  std::printf("# wrote %s\n", json_path.c_str());
  return 0;
}
