// SPDX-License-Identifier: LGPL-3.0-or-later
// The one benchmark harness: every bench program (CPU and CUDA) parses the
// same options, times the same way and writes the same Google Benchmark-
// compatible JSON: a "context" block (machine, commit, date, GMP and bigmul
// versions, threads, build type, NTT engine, GPU where there is one) and a
// "benchmarks" array of rows ("name", "run_type", "iterations", "real_time",
// "cpu_time", "time_unit" and our counters: "ratio_vs_<baseline>" against a
// baseline timed in the same process, "digits", "threads", ...).
// bench/common/check_schema.py checks a file against it.
//
// Options every program takes (its own ones are left in args()):
//   --json FILE        where the JSON goes (each program has a default)
//   --repetitions N    timed runs per measurement, at least (median reported)
//   --min-time S       seconds per measurement, at least
//   --filter REGEX     only rows whose name matches (std::regex, search)
#pragma once

#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <optional>
#include <random>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::bench {

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// A timed measurement: medians of the per-run wall and process-CPU times.
struct measurement {
  double real_s = 0, cpu_s = 0;
  std::size_t iterations = 0;
};

// How long a measurement runs: at least min_runs runs and min_time seconds,
// at most max_runs runs. --repetitions and --min-time override a program's
// defaults.
struct timing {
  double min_time = 0.3;
  int min_runs = 3;
  int max_runs = 1000;
};

template <class F>
measurement measure(F&& f, timing t) {
  std::vector<double> real, cpu;
  const double start = now_seconds();
  while (static_cast<int>(real.size()) < t.max_runs &&
         (static_cast<int>(real.size()) < t.min_runs || now_seconds() - start < t.min_time)) {
    const double c0 = cpu_seconds(), t0 = now_seconds();
    f();
    real.push_back(now_seconds() - t0);
    cpu.push_back(cpu_seconds() - c0);
  }
  measurement m;
  m.iterations = real.size();
  std::sort(real.begin(), real.end());
  std::sort(cpu.begin(), cpu.end());
  m.real_s = real[real.size() / 2];
  m.cpu_s = cpu[cpu.size() / 2];
  return m;
}

// The median seconds alone (for programs that keep only the time).
template <class F>
double time_median(F&& f, double min_time = 0.3, int min_runs = 3, int max_runs = 1000) {
  return measure(std::forward<F>(f), timing{min_time, min_runs, max_runs}).real_s;
}

// One row of "benchmarks". Counters are numbers, labels strings; both keep
// the order they were added in.
struct row {
  std::string name;
  measurement m;
  std::vector<std::pair<std::string, double>> counters;
  std::vector<std::pair<std::string, std::string>> labels;
  row& counter(const std::string& k, double v) {
    counters.emplace_back(k, v);
    return *this;
  }
  row& label(const std::string& k, const std::string& v) {
    labels.emplace_back(k, v);
    return *this;
  }
  // Our time against a baseline's from the same process: the baseline's
  // seconds as "<who>_seconds" and "ratio_vs_<who>" = ours / theirs (below 1:
  // we are faster).
  row& baseline(const std::string& who, double their_seconds) {
    counter(who + "_seconds", their_seconds);
    return counter("ratio_vs_" + who, m.real_s / their_seconds);
  }
};

class harness {
 public:
  // Parses the shared options out of argv; `default_json` is where the JSON
  // goes without --json ("" = nowhere).
  harness(std::string program, int argc, char** argv, std::string default_json);

  const std::string& program() const { return program_; }
  // The program's own arguments, in order (the shared ones removed).
  const std::vector<std::string>& args() const { return args_; }
  // Helpers for "--name value" among args(): the value, or `def`.
  std::optional<std::string> value(const std::string& name) const;
  double number(const std::string& name, double def) const;
  std::string text(const std::string& name, const std::string& def) const;
  bool flag(const std::string& name) const;

  bool selected(const std::string& row_name) const;
  timing timing_for(timing defaults) const;
  template <class F>
  measurement time(F&& f, timing defaults = {}) const {
    return measure(std::forward<F>(f), timing_for(defaults));
  }
  std::optional<int> repetitions() const { return repetitions_; }
  std::optional<double> min_time() const { return min_time_; }
  const std::string& json_path() const { return json_; }

  // Context entries beyond the common ones (e.g. "gpu_name"); a key set twice keeps the last value.
  void context(const std::string& key, const std::string& value);
  void context(const std::string& key, double value);

  row& add(const std::string& name, const measurement& m);
  // Writes the JSON (if a path is set); false (after a message) when it cannot.
  bool write() const;
  // The common context as JSON members ("key": value, ...), also used by the
  // Google Benchmark adapter.
  std::vector<std::pair<std::string, std::string>> common_context() const;

 private:
  std::string program_, json_;
  std::vector<std::string> args_;
  std::optional<int> repetitions_;
  std::optional<double> min_time_;
  std::optional<std::regex> filter_;
  std::string filter_text_;
  std::vector<std::pair<std::string, std::string>> extra_;  // value already JSON
  std::vector<row> rows_;
};

std::string json_quote(const std::string& s);

// Random operands.
// n random limbs in radix rx with a nonzero top limb.
inline std::vector<limb_t> random_limbs(std::size_t n, radix rx, std::mt19937_64& g) {
  std::vector<limb_t> v(n);
  for (auto& x : v) x = rx == radix::binary ? g() : g() % decimal_limb_base;
  if (n && v.back() == 0) v.back() = 1;
  return v;
}
inline std::vector<limb_t> random_limbs(std::size_t n, std::mt19937_64& g) { return random_limbs(n, radix::binary, g); }

// Limbs holding a random `digits`-digit decimal number (decimal radix).
inline std::vector<limb_t> random_decimal_digits(std::size_t digits, std::mt19937_64& g) {
  const std::size_t n = (digits + 18) / 19;
  std::vector<limb_t> v = random_limbs(n, radix::decimal, g);
  const unsigned top_digits = static_cast<unsigned>(digits - 19 * (n - 1));
  limb_t p = 1;
  for (unsigned i = 0; i < top_digits; ++i) p *= 10;
  v.back() = p / 10 + g() % (p - p / 10);  // exactly top_digits digits
  return v;
}

// Binary limbs holding about `digits` decimal digits.
std::size_t limbs_for_digits(double digits);

void limbs_to_mpz(mpz_t out, const limb_t* p, std::size_t n, radix rx);

// Context pieces (also printed in the programs' headers).
std::string machine_description();  // CPU model, hardware threads
std::string cpu_model();            // /proc/cpuinfo's model name
std::string git_commit();           // HEAD of the source tree now ("(modified)" if dirty)
std::string today();                // YYYY-MM-DD, UTC
std::string now_iso8601();          // YYYY-MM-DDTHH:MM:SSZ

// A tuner's log: say() prints to stdout and, once open_log() has opened a
// file, to that file too, so the table and the measurements behind it are
// written by the same run.
bool open_log(const std::string& path);
void say(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace bigmul::bench
