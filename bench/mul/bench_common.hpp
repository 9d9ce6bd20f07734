// Helpers shared by the multiplication benchmarks: timing, heap accounting,
// random operands, GMP operands, JSON escaping.
#pragma once

#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::bench {

// Heap bytes in use and the peak since reset_peak(), counted by the global
// operator new/delete replacements in bench_common.cpp.
std::size_t heap_in_use();
std::size_t heap_peak();
void reset_peak();

inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Median-of-runs timer: repeats f until `min_total` seconds have passed (at
// least `min_runs`, at most `max_runs` times), returns the median run time.
template <class F>
double time_median(F&& f, double min_total = 0.3, int min_runs = 3, int max_runs = 1000) {
  std::vector<double> runs;
  const double start = now_seconds();
  while (static_cast<int>(runs.size()) < max_runs &&
         (static_cast<int>(runs.size()) < min_runs || now_seconds() - start < min_total)) {
    const double t0 = now_seconds();
    f();
    runs.push_back(now_seconds() - t0);
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

// n random limbs in radix rx with a nonzero top limb.
inline std::vector<limb_t> random_limbs(std::size_t n, radix rx, std::mt19937_64& g) {
  std::vector<limb_t> v(n);
  for (auto& x : v) x = rx == radix::binary ? g() : g() % decimal_limb_base;
  if (n && v.back() == 0) v.back() = 1;
  return v;
}

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

void limbs_to_mpz(mpz_t out, const limb_t* p, std::size_t n, radix rx);

std::string machine_description();  // CPU model, cores
std::string git_commit();           // HEAD of the source tree now ("(modified)" if dirty)
std::string today();

// A tuner's log: say() prints to stdout and, once open_log() has opened a
// file, to that file too, so the table and the measurements behind it are
// written by the same run.
bool open_log(const std::string& path);
void say(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace bigmul::bench
