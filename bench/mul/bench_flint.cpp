// SPDX-License-Identifier: LGPL-3.0-or-later
// bench_flint: bigmul's product beside GMP's mpn_mul and, when the build
// found FLINT >= 3 (pkg-config "flint"), FLINT's flint_mpn_mul (fft_small),
// on the same random balanced binary operands, in one process: per NTT engine
// this processor runs, per thread count, 10^3 .. 10^9 decimal digits. Each
// (digits, threads) pair runs in a fresh child process (this program again,
// --child), so every library's first product there is cold and its peak heap
// is that product's own: bigmul's counted through operator new, FLINT's
// through its memory functions (flint_malloc and flint_aligned_alloc).
// Ratios are ours / theirs (below 1: bigmul is faster); every product is
// compared with GMP's (or FLINT's above --gmp-max-digits) before it counts.
//
//   bench_flint [--digits 1e3,1e4,...] [--threads 1,2] [--engines ifma,avx2,portable]
//               [--gmp-max-digits N] [--json PATH] [--repetitions N] [--min-time S] [--filter REGEX]
#include <gmp.h>
#if BIGMUL_BENCH_HAVE_FLINT
#include <flint/flint.h>
#include <flint/mpn_extras.h>
#endif

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "harness.hpp"
#include "heap_count.hpp"
#include "bigmul/mul.hpp"
#include "mul/ntt_mul.hpp"

using namespace bigmul;
using namespace bigmul::bench;

namespace {

#if BIGMUL_BENCH_HAVE_FLINT
// FLINT's heap: every block through its memory functions, with its size, so
// that the peak in use during one product can be read.
struct flint_heap {
  std::mutex m;
  std::unordered_map<void*, std::size_t> size;
  std::size_t in_use = 0, peak = 0;
  void* note(void* p, std::size_t n) {
    if (!p) return p;
    std::lock_guard<std::mutex> l(m);
    size[p] = n;
    in_use += n;
    if (in_use > peak) peak = in_use;
    return p;
  }
  void forget(void* p) {
    if (!p) return;
    std::lock_guard<std::mutex> l(m);
    auto it = size.find(p);
    if (it == size.end()) return;
    in_use -= it->second;
    size.erase(it);
  }
} fheap;

void* f_alloc(std::size_t n) { return fheap.note(std::malloc(n), n); }
void* f_calloc(std::size_t k, std::size_t n) { return fheap.note(std::calloc(k, n), k * n); }
void* f_realloc(void* p, std::size_t n) {
  fheap.forget(p);
  return fheap.note(std::realloc(p, n), n);
}
void f_free(void* p) {
  fheap.forget(p);
  std::free(p);
}
void* f_aligned_alloc(std::size_t align, std::size_t n) {
  return fheap.note(std::aligned_alloc(align, (n + align - 1) / align * align), n);
}
void f_aligned_free(void* p) { f_free(p); }
#endif

std::vector<std::size_t> number_list(const std::string& s) {
  std::vector<std::size_t> v;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ',')) v.push_back(static_cast<std::size_t>(std::stod(x)));
  return v;
}

std::string sci(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", x);
  return b;
}

// Timing: at least three products and min_time seconds, one product at the
// sizes where one takes longer than min_time.
timing timing_at(double min_time) { return timing{min_time, 3, 1000}; }

// One (digits, threads) measurement in this fresh process: a "result" line
// per engine, then "gmp" and "flint" lines, for the parent.
int child(std::size_t digits, unsigned threads, const std::vector<std::string>& engines, bool with_gmp,
          double min_time) {
  std::mt19937_64 g(digits ^ 0xf11e);
  const std::size_t n = limbs_for_digits(static_cast<double>(digits));
  const auto a = random_limbs(n, radix::binary, g), b = random_limbs(n, radix::binary, g);
  std::vector<limb_t> want(2 * n), r(2 * n);
  bool have_want = false;
  const auto check = [&](const char* who) {
    if (!have_want) {
      want = r;
      have_want = true;
    } else if (want != r) {
      std::fprintf(stderr, "bench_flint: %s's product differs at %zu digits\n", who, digits);
      std::exit(1);
    }
  };
  if (with_gmp) {  // GMP first: the reference every other product must equal
    const measurement m = measure([&] { mpn_mul(r.data(), a.data(), n, b.data(), n); }, timing_at(min_time));
    check("GMP");
    std::printf("gmp %.9g\n", m.real_s);
  }
#if BIGMUL_BENCH_HAVE_FLINT
  flint_set_num_threads(static_cast<int>(threads));
  const std::size_t before = fheap.in_use;
  fheap.peak = before;
  const double t0 = now_seconds();
  flint_mpn_mul(r.data(), a.data(), n, b.data(), n);
  const double cold = now_seconds() - t0;
  const double flint_peak = static_cast<double>(fheap.peak - before);
  check("FLINT");
  const measurement fm = measure([&] { flint_mpn_mul(r.data(), a.data(), n, b.data(), n); }, timing_at(min_time));
  std::printf("flint %.9g %.9g %.17g\n", fm.real_s, cold, flint_peak);
#endif
  mul_options opt;
  opt.threads = threads;
  for (const std::string& e : engines) {
    setenv("BIGMUL_NTT_ENGINE", e.c_str(), 1);
    release_scratch();  // the previous engine's kept scratch is not this engine's peak
    reset_peak();
    const std::size_t heap_before = heap_in_use();
    const double c0 = now_seconds();
    mul(r.data(), a.data(), n, b.data(), n, radix::binary, opt);
    const double cold_s = now_seconds() - c0;
    const double peak = static_cast<double>(heap_peak() - heap_before);
    check("bigmul");
    const measurement m =
        measure([&] { mul(r.data(), a.data(), n, b.data(), n, radix::binary, opt); }, timing_at(min_time));
    mul_stats st;
    opt.stats = &st;
    mul(r.data(), a.data(), n, b.data(), n, radix::binary, opt);
    opt.stats = nullptr;
    std::printf("bigmul %s %.9g %.9g %.17g %zu %s\n", e.c_str(), m.real_s, cold_s, peak, m.iterations,
                algorithm_name(st.used));
  }
  unsetenv("BIGMUL_NTT_ENGINE");
  return 0;
}

struct child_result {
  double gmp = 0, flint = 0, flint_cold = 0, flint_peak = 0;
  bool has_gmp = false, has_flint = false;
  struct engine_row {
    std::string engine, algorithm;
    double seconds, cold, peak;
    std::size_t runs;
  };
  std::vector<engine_row> rows;
};

bool run_child(const std::string& self, std::size_t digits, unsigned threads, const std::string& engines,
               bool with_gmp, double min_time, child_result& out) {
  const std::string cmd = "'" + self + "' --child " + std::to_string(digits) + " " + std::to_string(threads) + " " +
                          engines + " " + (with_gmp ? "1" : "0") + " " + std::to_string(min_time);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return false;
  char line[512];
  while (std::fgets(line, sizeof line, p)) {
    char e[64], al[64];
    child_result::engine_row row{};
    if (std::sscanf(line, "gmp %lf", &out.gmp) == 1) out.has_gmp = true;
    else if (std::sscanf(line, "flint %lf %lf %lf", &out.flint, &out.flint_cold, &out.flint_peak) == 3)
      out.has_flint = true;
    else if (std::sscanf(line, "bigmul %63s %lf %lf %lf %zu %63s", e, &row.seconds, &row.cold, &row.peak, &row.runs,
                         al) == 6) {
      row.engine = e;
      row.algorithm = al;
      out.rows.push_back(row);
    }
  }
  return pclose(p) == 0 && !out.rows.empty();
}

}  // namespace

int main(int argc, char** argv) {
#if BIGMUL_BENCH_HAVE_FLINT
  __flint_set_all_memory_functions(f_alloc, f_calloc, f_realloc, f_free, f_aligned_alloc, f_aligned_free);
#endif
  if (argc == 7 && std::strcmp(argv[1], "--child") == 0) {
    std::vector<std::string> engines;
    std::stringstream ss(argv[4]);
    for (std::string e; std::getline(ss, e, ',');) engines.push_back(e);
    return child(std::stoull(argv[2]), static_cast<unsigned>(std::stoul(argv[3])), engines,
                 std::strcmp(argv[5], "1") == 0, std::atof(argv[6]));
  }
  harness h("bench_flint", argc, argv, "bench_flint.json");
  std::vector<std::size_t> digits = {1000, 10000, 100000, 1000000, 10000000, 100000000};
  std::vector<std::size_t> threads = {1, std::max(1u, std::thread::hardware_concurrency())};
  std::size_t gmp_max_digits = 100000000;
  std::string engines;
  for (auto e : {detail::ntt_engine::ifma, detail::ntt_engine::avx2, detail::ntt_engine::portable})
    if (detail::ntt_engine_available(e)) engines += std::string(engines.empty() ? "" : ",") + detail::ntt_engine_name(e);
  const auto& args = h.args();
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    if (args[i] == "--digits" && has_value) digits = number_list(args[++i]);
    else if (args[i] == "--threads" && has_value) threads = number_list(args[++i]);
    else if (args[i] == "--engines" && has_value) engines = args[++i];
    else if (args[i] == "--gmp-max-digits" && has_value) gmp_max_digits = static_cast<std::size_t>(std::stod(args[++i]));
    else {
      std::fprintf(stderr, "usage: bench_flint [--digits 1e3,1e4] [--threads 1,2] [--engines ifma,avx2,portable] "
                           "[--gmp-max-digits N] [--json PATH] [--repetitions N] [--min-time S] [--filter REGEX]\n");
      return 2;
    }
  }
#if BIGMUL_BENCH_HAVE_FLINT
  const std::string flint_version = FLINT_VERSION;
#else
  const std::string flint_version = "not built with FLINT";
#endif
  h.context("flint_version", flint_version);
  h.context("ratio", "real_time / <baseline>_seconds: GMP's mpn_mul (1 thread) and FLINT's flint_mpn_mul "
                     "(flint_set_num_threads = the row's threads), same process, same operands");
  h.context("peak_heap_method", "cold product in a fresh process: bigmul's counted operator new, FLINT's "
                                "counted memory functions; bytes over what was in use before the product");
  std::printf("# bigmul bench_flint  %s  commit %s  %s  GMP %s  FLINT %s\n", machine_description().c_str(),
              git_commit().c_str(), today().c_str(), gmp_version, flint_version.c_str());
  std::printf("%11s %3s %-9s %11s %11s %11s %8s %8s %10s %10s %7s\n", "digits", "thr", "engine", "bigmul_s", "flint_s",
              "gmp_s", "/flint", "/gmp", "heap_MB", "flint_MB", "heap/fl");
  const double min_time = h.min_time().value_or(0.3);
  const std::string self = "/proc/self/exe";
  char exe[4096];
  const ssize_t len = readlink(self.c_str(), exe, sizeof exe - 1);
  if (len <= 0) return 1;
  exe[len] = 0;
  bool ok = true;
  for (std::size_t d : digits)
    for (std::size_t t : threads) {
      child_result c;
      if (!run_child(exe, d, static_cast<unsigned>(t), engines, d <= gmp_max_digits, min_time, c)) {
        std::fprintf(stderr, "bench_flint: the child for %zu digits, %zu threads failed\n", d, t);
        ok = false;
        continue;
      }
      for (const auto& e : c.rows) {
        const std::string name = "flint/" + std::to_string(d) + "/threads:" + std::to_string(t) + "/" + e.engine;
        if (!h.selected(name)) continue;
        measurement m;
        m.real_s = e.seconds;
        m.cpu_s = 0;
        m.iterations = e.runs;
        row& w = h.add(name, m);
        w.label("ntt_engine", e.engine).label("algorithm", e.algorithm);
        w.counter("digits", static_cast<double>(d)).counter("threads", static_cast<double>(t));
        w.counter("limbs", static_cast<double>(limbs_for_digits(static_cast<double>(d))));
        w.counter("cold_seconds", e.cold).counter("peak_heap_bytes", e.peak);
        if (c.has_gmp) w.baseline("gmp", c.gmp);
        if (c.has_flint) {
          w.baseline("flint", c.flint).counter("flint_cold_seconds", c.flint_cold);
          w.counter("flint_peak_heap_bytes", c.flint_peak);
        }
        std::printf("%11zu %3zu %-9s %11.4g %11s %11s %8s %8s %10.2f %10s %7s\n", d, t, e.engine.c_str(), e.seconds,
                    c.has_flint ? sci(c.flint).c_str() : "-", c.has_gmp ? sci(c.gmp).c_str() : "-",
                    c.has_flint ? std::to_string(e.seconds / c.flint).substr(0, 6).c_str() : "-",
                    c.has_gmp ? std::to_string(e.seconds / c.gmp).substr(0, 6).c_str() : "-", e.peak / 1e6,
                    c.has_flint ? std::to_string(c.flint_peak / 1e6).substr(0, 8).c_str() : "-",
                    c.has_flint && c.flint_peak > 0 ? std::to_string(e.peak / c.flint_peak).substr(0, 5).c_str() : "-");
        std::fflush(stdout);
      }
    }
  return h.write() && ok ? 0 : 1;
}
