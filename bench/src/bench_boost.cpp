// SPDX-License-Identifier: LGPL-3.0-or-later
// Multiplication through Boost.Multiprecision: bigmul::boost_int against
// cpp_int and mpz_int on the same values, 1024 bits .. 10^6 digits.
// Rows boost_int/<digits>; ratio_vs_cpp_int and ratio_vs_mpz_int (our time
// over theirs: below 1 is faster; the text table prints their inverses).
//   bench_boost [--max-digits 1e6] [--json bench_boost.json] [--repetitions N]
//               [--min-time S] [--filter REGEX]
#include <boost/multiprecision/cpp_int.hpp>
#include <boost/multiprecision/gmp.hpp>
#include <cstdio>
#include <string>

#include "harness.hpp"
#include "bigmul/boost.hpp"
#include "prim/parallel.hpp"

using namespace bigmul::bench;
using boost::multiprecision::cpp_int;
using boost::multiprecision::mpz_int;

int main(int argc, char** argv) {
  harness h("bench_boost", argc, argv, "bench_boost.json");
  const double max_digits = h.number("--max-digits", 1e6);
  std::mt19937_64 g(777);
  std::printf("threads: %u (bigmul::mul default)\n", bigmul::prim::default_threads());
  std::printf("%-10s %12s %12s %12s %10s %10s\n", "digits", "boost_int s", "cpp_int s", "mpz_int s", "cpp/ours",
              "mpz/ours");
  std::vector<double> sizes{1024 * 0.30103};  // 1024 bits
  for (double d = 1e3; d <= max_digits * 1.0001; d *= 10) sizes.push_back(d);
  for (double digits : sizes) {
    const std::size_t n = limbs_for_digits(digits);
    const auto a = random_limbs(n, g), b = random_limbs(n, g);
    char name[64];
    std::snprintf(name, sizeof name, "boost_int/%.4g", digits);
    if (!h.selected(name)) continue;
    // The same values in all three types, through hex strings.
    std::string ha = "0x", hb = "0x";
    static const char* hex = "0123456789abcdef";
    for (std::size_t i = n; i-- > 0;)
      for (int k = 15; k >= 0; --k) {
        ha += hex[(a[i] >> (4 * k)) & 15];
        hb += hex[(b[i] >> (4 * k)) & 15];
      }
    const bigmul::boost_int x(ha), y(hb);
    const cpp_int cx(ha), cy(hb);
    const mpz_int mx(ha), my(hb);
    bigmul::boost_int z;
    cpp_int cz;
    mpz_int mz;
    const measurement m_ours = h.time([&] { z = x * y; });
    const double t_ours = m_ours.real_s;
    const double t_cpp = h.time([&] { cz = cx * cy; }, {0.3, 1, 200}).real_s;
    const double t_mpz = h.time([&] { mz = mx * my; }).real_s;
    if (z.str(0, std::ios_base::hex) != mz.str(0, std::ios_base::hex) || cz.str(0, std::ios_base::hex) != mz.str(0, std::ios_base::hex)) {
      std::fprintf(stderr, "MISMATCH at %g digits\n", digits);
      return 1;
    }
    std::printf("%-10.4g %12.6f %12.6f %12.6f %10.2f %10.2f\n", digits, t_ours, t_cpp, t_mpz, t_cpp / t_ours,
                t_mpz / t_ours);
    h.add(name, m_ours)
        .counter("digits", digits)
        .counter("limbs", static_cast<double>(n))
        .counter("threads", bigmul::prim::default_threads())
        .baseline("cpp_int", t_cpp)
        .baseline("mpz_int", t_mpz)
        .counter("speedup_vs_cpp_int", t_cpp / t_ours)
        .counter("speedup_vs_mpz_int", t_mpz / t_ours);
  }
  return h.write() ? 0 : 1;
}
