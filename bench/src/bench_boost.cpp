// Multiplication through Boost.Multiprecision: bigmul::boost_int against
// cpp_int and mpz_int on the same values, 1024 bits .. 10^6 digits.
//   bench_boost [--max-digits 1e6] [--out boost.json]
#include <boost/multiprecision/cpp_int.hpp>
#include <boost/multiprecision/gmp.hpp>
#include <cstdio>
#include <string>

#include "arith_bench_util.hpp"
#include "bigmul/boost.hpp"
#include "prim/parallel.hpp"

using namespace bigmul::bench_arith;
using boost::multiprecision::cpp_int;
using boost::multiprecision::mpz_int;

int main(int argc, char** argv) {
  const double max_digits = arg_number(argc, argv, "--max-digits", 1e6);
  const std::string out = arg_string(argc, argv, "--out", "bench_boost.json");
  std::mt19937_64 g(777);
  json_rows rows;
  std::printf("threads: %u (bigmul::mul default)\n", bigmul::prim::default_threads());
  std::printf("%-10s %12s %12s %12s %10s %10s\n", "digits", "boost_int s", "cpp_int s", "mpz_int s", "cpp/ours",
              "mpz/ours");
  std::vector<double> sizes{1024 * 0.30103};  // 1024 bits
  for (double d = 1e3; d <= max_digits * 1.0001; d *= 10) sizes.push_back(d);
  for (double digits : sizes) {
    const std::size_t n = limbs_for_digits(digits);
    const auto a = random_limbs(n, g), b = random_limbs(n, g);
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
    const double t_ours = time_median([&] { z = x * y; });
    const double t_cpp = time_median([&] { cz = cx * cy; }, 0.3, 1, 200);
    const double t_mpz = time_median([&] { mz = mx * my; });
    if (z.str(0, std::ios_base::hex) != mz.str(0, std::ios_base::hex) || cz.str(0, std::ios_base::hex) != mz.str(0, std::ios_base::hex)) {
      std::fprintf(stderr, "MISMATCH at %g digits\n", digits);
      return 1;
    }
    std::printf("%-10.4g %12.6f %12.6f %12.6f %10.2f %10.2f\n", digits, t_ours, t_cpp, t_mpz, t_cpp / t_ours,
                t_mpz / t_ours);
    rows.begin();
    rows.field("digits", digits);
    rows.field("limbs", static_cast<double>(n));
    rows.field("boost_int_s", t_ours);
    rows.field("cpp_int_s", t_cpp);
    rows.field("mpz_int_s", t_mpz);
    rows.field("speedup_vs_cpp_int", t_cpp / t_ours);
    rows.field("speedup_vs_mpz_int", t_mpz / t_ours);
    rows.end();
  }
  const std::string header = "\"benchmark\": \"bench_boost\", \"threads\": " + std::to_string(bigmul::prim::default_threads());
  if (!rows.write(out, header)) return 1;
  std::printf("wrote %s\n", out.c_str());
  return 0;
}
