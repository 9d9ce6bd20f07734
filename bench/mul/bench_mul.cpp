// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_mul: bigmul's multiplication against GMP's mpz_mul, measured in the
// same run, for 10^3 .. 10^7 decimal digits: every algorithm and the
// dispatcher, 1 thread and all threads, both radices; the ratio is
// (our time) / (GMP's time), so below 1 means faster than GMP. Also the peak
// heap of one product relative to the operands' size. The NTT runs once per
// engine this processor has (ifma, avx2, portable; BIGMUL_NTT_ENGINE set for
// the row, rows named ntt:<engine>; automatic runs the default).
//
// Then how cost grows at large sizes (issue 19), rows scaling/binary/<digits>/
// threads:<t>: random balanced binary operands of <digits> decimal digits,
// each size and thread count in a fresh child process (this program again,
// --child), which reports the cold time (the first product in the process:
// fresh pages, tables; with its user and system CPU time and page faults, so
// that the library's own first-call work and the kernel's first touch of
// fresh pages are told apart), the warm time (median of the later products), the
// peak heap of a product (counted operator new, over the operands and result
// already allocated) and the peak RSS (ru_maxrss minus its value before the
// operands), then GMP's time on the same operands up to --gmp-max-digits.
//
//   bench_mul [--min-digits N] [--max-digits N] [--radix decimal|binary|both]
//             [--algorithms a,b,...] [--digits 1e6,1e7,...] [--threads 1,2]
//             [--warm-runs N] [--gmp-max-digits N] [--scaling-only | --no-scaling]
//             [--json PATH] [--repetitions N] [--min-time S] [--filter REGEX]
// Warm products: at least --warm-runs (3) and --min-time seconds (0.3); GMP
// likewise. Default --digits 1e6,1e7; the heavy sizes (1e8, 3e8, 1e9) only when asked,
// e.g. bench_mul --scaling-only --digits 1e7,3e7,1e8,3e8,1e9.
#include <gmp.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "harness.hpp"
#include "heap_count.hpp"
#include "bigmul/mul.hpp"
#include "mul/fft_mul.hpp"
#include "mul/ntt_mul.hpp"
#include "prim/parallel.hpp"

using namespace bigmul;
using namespace bigmul::bench;

namespace {

// Largest digit count each algorithm is run at (quadratic ones stop early).
std::size_t digit_cap(algorithm a) {
  switch (a) {
    case algorithm::basecase: return 100000;
    case algorithm::tiled: return 100000;
    case algorithm::karatsuba: return 1000000;
    default: return ~std::size_t{0};
  }
}

// Comma-separated numbers ("1e7,3e7"), as sizes or thread counts.
std::vector<std::size_t> number_list(const std::string& text) {
  std::vector<std::size_t> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) v.push_back(static_cast<std::size_t>(std::stod(item)));
  return v;
}

// Peak resident set of this process so far, bytes.
double max_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) * 1024.0;
}

// This process's user and system CPU seconds (all threads) and minor page
// faults so far: a cold product's excess over a warm one splits into bigmul's
// own first-call work (user time: tables, plans) and the kernel's first
// touch of fresh pages (system time, one fault per page).
struct usage {
  double user = 0, system = 0, faults = 0;
};
usage usage_now() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return {seconds(u.ru_utime), seconds(u.ru_stime), static_cast<double>(u.ru_minflt)};
}

// One scaling measurement in this (fresh) process; prints one "result" line
// for the parent. GMP runs last, so the RSS peak is ours alone.
int child(std::size_t digits, unsigned threads, int warm_runs, bool with_gmp, double min_time) {
  const double rss_base = max_rss_bytes();
  std::mt19937_64 g(digits ^ 0x5eed);
  const std::size_t n = limbs_for_digits(static_cast<double>(digits));
  const auto a = random_limbs(n, radix::binary, g), b = random_limbs(n, radix::binary, g);
  std::vector<limb_t> r(2 * n);
  mul_options opt;
  opt.threads = threads;
  // The timed products run without stats, as a user's do (phase timing reads
  // the clock); one more product afterwards fills in the row's labels.
  mul_stats st;
  const auto product = [&] { mul(r.data(), a.data(), n, b.data(), n, radix::binary, opt); };
  usage used{};  // of the last product peak_of ran
  const auto peak_of = [&](auto&& f) {
    reset_peak();
    const std::size_t before = heap_in_use();
    const usage u0 = usage_now();
    const double c0 = cpu_seconds(), t0 = now_seconds();
    f();
    const double t = now_seconds() - t0, c = cpu_seconds() - c0;
    const usage u1 = usage_now();
    used = {u1.user - u0.user, u1.system - u0.system, u1.faults - u0.faults};
    return std::make_tuple(t, c, static_cast<double>(heap_peak() - before));
  };
  const auto [cold, cold_cpu, heap_cold] = peak_of(product);
  const usage cold_usage = used;
  std::vector<double> warm, warm_cpu, warm_user;
  double heap_warm = 0;
  // At least warm_runs products, and at least min_time seconds of them.
  const double warm_start = now_seconds();
  for (int i = 0; i < 1000 && (i < warm_runs || now_seconds() - warm_start < min_time); ++i) {
    const auto [t, c, h] = peak_of(product);
    warm.push_back(t);
    warm_cpu.push_back(c);
    warm_user.push_back(used.user);
    heap_warm = std::max(heap_warm, h);
  }
  std::sort(warm.begin(), warm.end());
  std::sort(warm_cpu.begin(), warm_cpu.end());
  std::sort(warm_user.begin(), warm_user.end());
  const double rss_peak = max_rss_bytes() - rss_base;
  opt.stats = &st;
  product();
  opt.stats = nullptr;
  double t_gmp = 0;
  int gmp_runs = 0;
  if (with_gmp) {
    mpz_t x, y, z;
    mpz_inits(x, y, z, nullptr);
    limbs_to_mpz(x, a.data(), n, radix::binary);
    limbs_to_mpz(y, b.data(), n, radix::binary);
    // As the warm products: a few runs and min_time seconds (one run past it).
    const measurement m = measure([&] { mpz_mul(z, x, y); }, timing{min_time, std::min(warm_runs, 3), 1000});
    t_gmp = m.real_s;
    gmp_runs = static_cast<int>(m.iterations);
    if (mpz_size(z) != 2 * n - (r[2 * n - 1] == 0) ||
        std::memcmp(mpz_limbs_read(z), r.data(), mpz_size(z) * sizeof(limb_t)) != 0) {
      std::fprintf(stderr, "bench_mul: product differs from GMP's at %zu digits\n", digits);
      return 1;
    }
    mpz_clears(x, y, z, nullptr);
  }
  std::printf("result %.9g %.9g %.9g %.9g %d %.17g %.17g %.17g %.9g %d %s %s %zu %.9g %.9g %.17g %.9g\n", cold,
              cold_cpu, warm.empty() ? cold : warm[warm.size() / 2],
              warm_cpu.empty() ? cold_cpu : warm_cpu[warm_cpu.size() / 2], static_cast<int>(warm.size()), heap_cold,
              heap_warm, rss_peak, t_gmp, gmp_runs, algorithm_name(st.used), st.ntt_engine ? st.ntt_engine : "-",
              st.transform_length, cold_usage.user, cold_usage.system, cold_usage.faults,
              warm_user.empty() ? cold_usage.user : warm_user[warm_user.size() / 2]);
  return 0;
}

// Runs one child and turns its line into a row; false when it failed.
bool scaling_row(harness& h, const std::string& self, std::size_t digits, unsigned threads, int warm_runs,
                 std::size_t gmp_max_digits) {
  const double min_time = h.min_time().value_or(0.3);
  const std::string name = "scaling/binary/" + std::to_string(digits) + "/threads:" + std::to_string(threads);
  if (!h.selected(name)) return true;
  const bool with_gmp = digits <= gmp_max_digits;
  const std::string cmd = "'" + self + "' --child " + std::to_string(digits) + " " + std::to_string(threads) + " " +
                          std::to_string(warm_runs) + " " + (with_gmp ? "1" : "0") + " " + std::to_string(min_time);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return false;
  char line[512] = "";
  std::string found;
  while (std::fgets(line, sizeof line, p))
    if (std::strncmp(line, "result ", 7) == 0) found = line;
  const int status = pclose(p);
  double cold, cold_cpu, warm, warm_cpu, heap_cold, heap_warm, rss, t_gmp, cold_user, cold_system, cold_faults,
      warm_user;
  int runs, gmp_runs;
  char used[64], engine[64];
  std::size_t tlen;
  if (status != 0 ||
      std::sscanf(found.c_str(), "result %lf %lf %lf %lf %d %lf %lf %lf %lf %d %63s %63s %zu %lf %lf %lf %lf", &cold,
                  &cold_cpu, &warm, &warm_cpu, &runs, &heap_cold, &heap_warm, &rss, &t_gmp, &gmp_runs, used, engine,
                  &tlen, &cold_user, &cold_system, &cold_faults, &warm_user) != 17) {
    std::fprintf(stderr, "bench_mul: the child for %zu digits, %u threads failed (status %d)\n", digits, threads,
                 status);
    return false;
  }
  const std::size_t n = limbs_for_digits(static_cast<double>(digits));
  const double operand_bytes = 2.0 * static_cast<double>(n) * sizeof(limb_t), result_bytes = operand_bytes;
  const double heap = std::max(heap_cold, heap_warm);
  measurement m;
  m.real_s = warm;
  m.cpu_s = warm_cpu;
  m.iterations = static_cast<std::size_t>(std::max(runs, 1));
  row& w = h.add(name, m);
  w.label("radix", "binary").label("algorithm", used).label("ntt_engine", std::strcmp(engine, "-") ? engine : "");
  w.counter("digits", static_cast<double>(digits)).counter("limbs", static_cast<double>(n)).counter("threads", threads);
  w.counter("cold_seconds", cold).counter("cold_cpu_seconds", cold_cpu).counter("warm_seconds", warm);
  w.counter("cold_over_warm", cold / warm);
  // The cold product's CPU split: user time against a warm product's (the
  // library's own first-call work) and system time with its page faults.
  w.counter("cold_user_seconds", cold_user).counter("cold_system_seconds", cold_system);
  w.counter("cold_page_faults", cold_faults).counter("warm_user_seconds", warm_user);
  w.counter("cold_over_warm_user", warm_user > 0 ? cold_user / warm_user : 0.0);
  w.counter("peak_heap_bytes", heap).counter("peak_heap_cold_bytes", heap_cold).counter("peak_heap_warm_bytes", heap_warm);
  w.counter("operand_bytes", operand_bytes).counter("result_bytes", result_bytes);
  w.counter("peak_heap_over_operands_result", heap / (operand_bytes + result_bytes));
  w.counter("peak_rss_bytes", rss).counter("transform_length", static_cast<double>(tlen));
  if (with_gmp) w.baseline("gmp", t_gmp).counter("gmp_iterations", gmp_runs);
  std::printf("%11zu %3u %11.4f %11.4f %6.2f %7.2f %8.3f %11.3f %11.3f %6.2f %11s %7s\n", digits, threads, cold, warm,
              cold / warm, warm_user > 0 ? cold_user / warm_user : 0.0, cold_system, heap / 1e6, rss / 1e6,
              heap / (operand_bytes + result_bytes),
              with_gmp ? std::to_string(t_gmp).c_str() : "-", with_gmp ? std::to_string(warm / t_gmp).substr(0, 6).c_str() : "-");
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 7 && std::strcmp(argv[1], "--child") == 0)
    return child(std::stoull(argv[2]), static_cast<unsigned>(std::stoul(argv[3])), std::atoi(argv[4]),
                 std::strcmp(argv[5], "1") == 0, std::atof(argv[6]));
  harness h("bench_mul", argc, argv, "bench_mul.json");
  std::size_t min_digits = 1000, max_digits = 10000000, gmp_max_digits = 300000000;
  std::string radix_arg = "both";
  std::vector<std::size_t> scaling_digits = {1000000, 10000000}, scaling_threads;
  int warm_runs = 3;
  bool table = true, scaling = true;
  std::vector<algorithm> algos = {algorithm::automatic, algorithm::basecase, algorithm::karatsuba, algorithm::tiled,
                                  algorithm::fft_complex, algorithm::fft_real, algorithm::fft_complex_f32,
                                  algorithm::ntt};
  const auto& args = h.args();
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "bench_mul: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return args[++i];
    };
    if (a == "--min-digits") min_digits = static_cast<std::size_t>(std::stod(next()));
    else if (a == "--max-digits") max_digits = static_cast<std::size_t>(std::stod(next()));
    else if (a == "--radix") radix_arg = next();
    else if (a == "--digits") scaling_digits = number_list(next());
    else if (a == "--threads") scaling_threads = number_list(next());
    else if (a == "--warm-runs") warm_runs = std::max(1, std::stoi(next()));
    else if (a == "--gmp-max-digits") gmp_max_digits = static_cast<std::size_t>(std::stod(next()));
    else if (a == "--scaling-only") table = false;
    else if (a == "--no-scaling") scaling = false;
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
                           "[--algorithms a,b] [--digits 1e6,1e7] [--threads 1,2] [--warm-runs N] "
                           "[--gmp-max-digits N] [--scaling-only | --no-scaling] [--json PATH] [--repetitions N] "
                           "[--min-time S] [--filter REGEX]\n");
      return 2;
    }
  }
  std::vector<radix> radices;
  if (radix_arg != "binary") radices.push_back(radix::decimal);
  if (radix_arg != "decimal") radices.push_back(radix::binary);
  const unsigned all_threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<unsigned> thread_counts = {1};
  if (all_threads > 1) thread_counts.push_back(all_threads);
  h.context("ratio", "real_time / gmp_seconds (GMP's mpz_mul, same process, same operands)");
  h.context("peak_heap_method",
            "table rows: peak_heap_bytes = counted operator new peak during one product over the heap in use "
            "before it (scratch released first), peak_ratio = (that + result + operands) / operands; scaling rows: "
            "the same counter, cold and warm products in a fresh process, and peak_rss_bytes = getrusage ru_maxrss "
            "after the products minus before the operands");

  std::mt19937_64 g(12345);
  // The caller's BIGMUL_NTT_ENGINE, for the rows that run the default engine.
  std::optional<std::string> env_engine;
  if (const char* e = std::getenv("BIGMUL_NTT_ENGINE")) env_engine = e;
  std::printf("# bigmul bench_mul  %s  commit %s  %s  GMP %s\n", machine_description().c_str(),
              git_commit().c_str(), today().c_str(), gmp_version);
  if (table)
    std::printf("%10s %8s %16s %3s %11s %11s %7s %9s %6s %9s %4s %8s\n", "digits", "radix", "algorithm", "thr",
                "ours_s", "gmp_s", "ratio", "MData/s", "peak", "fft_len", "dig", "roundoff");
  for (std::size_t digits = min_digits; table && digits <= max_digits; digits *= 10) {
    for (radix rx : radices) {
      const char* rname = rx == radix::decimal ? "decimal" : "binary";
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
      // The rows this size would produce, to skip GMP when the filter leaves none.
      const auto row_name = [&](const std::string& algo_name, unsigned threads) {
        return algo_name + "/" + rname + "/" + std::to_string(digits) + "/threads:" + std::to_string(threads);
      };
      mpz_t x, y, z;
      mpz_inits(x, y, z, nullptr);
      limbs_to_mpz(x, a.data(), a.size(), rx);
      limbs_to_mpz(y, b.data(), b.size(), rx);
      std::optional<double> t_gmp;
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
          const std::string name = std::string(algorithm_name(algo)) +
                                   (engine == detail::ntt_engine::best ? "" : std::string(":") + detail::ntt_engine_name(engine));
          if (!h.selected(row_name(name, threads))) continue;
          if (!t_gmp) t_gmp = h.time([&] { mpz_mul(z, x, y); }).real_s;
          if (engine != detail::ntt_engine::best)
            setenv("BIGMUL_NTT_ENGINE", detail::ntt_engine_name(engine), 1);
          else if (env_engine)
            setenv("BIGMUL_NTT_ENGINE", env_engine->c_str(), 1);
          else
            unsetenv("BIGMUL_NTT_ENGINE");
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
          const double heap = static_cast<double>(heap_peak() - before);
          const double peak = heap + static_cast<double>(r.size() * 8);
          // Timed without stats, as a user's products run: phase timing reads
          // the clock several times a product (~4% at 10^4 digits).
          opt.stats = nullptr;
          const measurement m = h.time([&] { mul(r.data(), a.data(), a.size(), b.data(), b.size(), rx, opt); });
          const double t = m.real_s;
          row& w = h.add(row_name(name, threads), m);
          w.label("radix", rname).label("algorithm", algorithm_name(st.used)).label("ntt_engine", st.ntt_engine ? st.ntt_engine : "");
          w.counter("digits", static_cast<double>(digits)).counter("threads", threads).baseline("gmp", *t_gmp);
          w.counter("mdata_per_s", 2.0 * static_cast<double>(digits) / t / 1e6);
          w.counter("peak_heap_bytes", heap).counter("peak_ratio", (peak + operand_bytes) / operand_bytes);
          w.counter("transform_length", static_cast<double>(st.transform_length));
          w.counter("coefficient_digits", st.coefficient_digits).counter("max_roundoff", st.max_roundoff);
          const std::string used = std::string(algorithm_name(st.used)) + (st.ntt_engine ? std::string(":") + st.ntt_engine : "");
          std::printf("%10zu %8s %16s %3u %11.6f %11.6f %7.3f %9.2f %6.2f %9zu %4u %8.2e\n", digits, rname,
                      used.c_str(), threads, t, *t_gmp, t / *t_gmp, 2.0 * static_cast<double>(digits) / t / 1e6,
                      (peak + operand_bytes) / operand_bytes, st.transform_length, st.coefficient_digits,
                      st.max_roundoff);
          std::fflush(stdout);
        }
      }
      mpz_clears(x, y, z, nullptr);
    }
  }
  bool ok = true;
  if (scaling) {
    if (env_engine)
      setenv("BIGMUL_NTT_ENGINE", env_engine->c_str(), 1);
    else
      unsetenv("BIGMUL_NTT_ENGINE");
    if (scaling_threads.empty()) scaling_threads.assign(thread_counts.begin(), thread_counts.end());
    char self[PATH_MAX];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
      std::fprintf(stderr, "bench_mul: cannot find its own path for the child processes\n");
      return 1;
    }
    self[len] = 0;
    std::printf("# scaling: binary operands, each row a fresh process; warm = median of >= %d products after the "
                "first; c/w usr = the cold product's user CPU time over a warm one's, sys_s = its system CPU time "
                "(first-touch page faults); heap MB = a product's peak heap over operands and result\n", warm_runs);
    std::printf("%11s %3s %11s %11s %6s %7s %8s %11s %11s %6s %11s %7s\n", "digits", "thr", "cold_s", "warm_s", "c/w",
                "c/w usr", "sys_s", "heap_MB", "rss_MB", "heap/io", "gmp_s", "ratio");
    for (std::size_t digits : scaling_digits)
      for (std::size_t threads : scaling_threads)
        ok = scaling_row(h, self, digits, static_cast<unsigned>(threads), warm_runs, gmp_max_digits) && ok;
  }
  return h.write() && ok ? 0 : 1;
}
