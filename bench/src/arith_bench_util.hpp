// Timing, random operands and JSON output for the arithmetic benchmarks.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::bench_arith {

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Median of repeated runs: at least min_runs, until min_total seconds have passed.
template <class F>
double time_median(F&& f, double min_total = 0.3, int min_runs = 3, int max_runs = 200) {
  std::vector<double> t;
  const double start = now();
  while (static_cast<int>(t.size()) < max_runs && (static_cast<int>(t.size()) < min_runs || now() - start < min_total)) {
    const double t0 = now();
    f();
    t.push_back(now() - t0);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Binary limbs holding about `digits` decimal digits.
inline std::size_t limbs_for_digits(double digits) {
  return static_cast<std::size_t>(std::ceil(digits * std::log2(10.0) / 64.0));
}

inline std::vector<limb_t> random_limbs(std::size_t n, std::mt19937_64& g) {
  std::vector<limb_t> v(n);
  for (auto& x : v) x = g();
  if (n && v.back() == 0) v.back() = 1;
  return v;
}

// "--name value" from argv, or the default.
inline double arg_number(int argc, char** argv, const char* name, double def) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return std::atof(argv[i + 1]);
  return def;
}
inline std::string arg_string(int argc, char** argv, const char* name, const std::string& def) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  return def;
}

// Collects JSON rows {"a": 1, ...} and writes them as one array.
class json_rows {
 public:
  void begin() { cur_ = "{"; }
  void field(const char* k, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    add(k, buf);
  }
  void field(const char* k, const std::string& v) { add(k, "\"" + v + "\""); }
  void end() { rows_.push_back(cur_ + "}"); }
  bool write(const std::string& path, const std::string& header) const {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    std::fprintf(f, "{%s, \"rows\": [\n", header.c_str());
    for (std::size_t i = 0; i < rows_.size(); ++i) std::fprintf(f, "  %s%s\n", rows_[i].c_str(), i + 1 < rows_.size() ? "," : "");
    std::fprintf(f, "]}\n");
    std::fclose(f);
    return true;
  }

 private:
  void add(const char* k, const std::string& v) {
    if (cur_.size() > 1) cur_ += ", ";
    cur_ += "\"" + std::string(k) + "\": " + v;
  }
  std::string cur_;
  std::vector<std::string> rows_;
};

}  // namespace bigmul::bench_arith
