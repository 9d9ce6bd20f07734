// Division (2n by n digits) and radix conversion (binary <-> decimal) of
// bigmul against GMP, for 10^3 .. 10^7 digits, both measured in this run.
//   bench_arith [--max-digits 1e7] [--div-max-digits 1e6] [--out arith.json]
#include <gmp.h>

#include <cstdio>
#include <string>
#include <vector>

#include "arith_bench_util.hpp"
#include "bigmul/arith.hpp"
#include "prim/parallel.hpp"

using namespace bigmul;
using namespace bigmul::bench_arith;

namespace {

void to_mpz(mpz_t z, const std::vector<limb_t>& v) {
  mpz_import(z, v.size(), -1, sizeof(limb_t), 0, 0, v.data());
}

}  // namespace

int main(int argc, char** argv) {
  const double max_digits = arg_number(argc, argv, "--max-digits", 1e7);
  const double div_max_digits = arg_number(argc, argv, "--div-max-digits", 1e6);
  const std::string out = arg_string(argc, argv, "--out", "bench_arith.json");
  const unsigned threads = prim::default_threads();
  std::mt19937_64 g(12345);
  json_rows rows;
  std::printf("threads: %u (bigmul::mul default)\n", threads);
  std::printf("%-10s %-12s %12s %12s %8s\n", "digits", "operation", "bigmul s", "gmp s", "ratio");

  for (double digits = 1e3; digits <= max_digits * 1.0001; digits *= 10) {
    // Division: 2n-digit by n-digit.
    if (digits <= div_max_digits * 1.0001) {
      const std::size_t dn = limbs_for_digits(digits), an = limbs_for_digits(2 * digits);
      const auto a = random_limbs(an, g), d = random_limbs(dn, g);
      std::vector<limb_t> q(an - dn + 1), r(dn);
      const double t_big = time_median([&] { div_qr(q.data(), r.data(), a.data(), an, d.data(), dn); });
      mpz_t za, zd, zq, zr;
      mpz_inits(za, zd, zq, zr, nullptr);
      to_mpz(za, a);
      to_mpz(zd, d);
      const double t_gmp = time_median([&] { mpz_tdiv_qr(zq, zr, za, zd); });
      mpz_clears(za, zd, zq, zr, nullptr);
      std::printf("%-10.0e %-12s %12.6f %12.6f %8.2f\n", digits, "div_2n_n", t_big, t_gmp, t_big / t_gmp);
      rows.begin();
      rows.field("op", std::string("div_2n_by_n"));
      rows.field("digits", digits);
      rows.field("bigmul_s", t_big);
      rows.field("gmp_s", t_gmp);
      rows.field("ratio", t_big / t_gmp);
      rows.end();
    }
    // Radix conversion of an n-digit binary number to decimal (to_string)
    // and back (from_string), with the power table warm (first call timed apart).
    const std::size_t n = limbs_for_digits(digits);
    const auto x = random_limbs(n, g);
    const integer xi(std::span<const limb_t>(x), false, radix::binary);
    const double t0 = now();
    std::string s = convert_radix(xi, radix::decimal).to_string(10);
    const double t_first = now() - t0;
    const double t_to = time_median([&] { s = convert_radix(xi, radix::decimal).to_string(10); }, 0.3, 3, 20);
    mpz_t zx;
    mpz_init(zx);
    to_mpz(zx, x);
    std::string gs;
    const double t_gto = time_median([&] {
      char* p = mpz_get_str(nullptr, 10, zx);
      gs = p;
      void (*free_fn)(void*, size_t);
      mp_get_memory_functions(nullptr, nullptr, &free_fn);
      free_fn(p, gs.size() + 1);
    }, 0.3, 3, 20);
    if (s != gs) {
      std::fprintf(stderr, "MISMATCH in to_string at %g digits\n", digits);
      return 1;
    }
    std::printf("%-10.0e %-12s %12.6f %12.6f %8.2f   (first call %.6f s)\n", digits, "to_string", t_to, t_gto,
                t_to / t_gto, t_first);
    rows.begin();
    rows.field("op", std::string("to_string_10"));
    rows.field("digits", digits);
    rows.field("bigmul_s", t_to);
    rows.field("bigmul_first_call_s", t_first);
    rows.field("gmp_s", t_gto);
    rows.field("ratio", t_to / t_gto);
    rows.end();
    // Decimal -> binary: parse in linear time, then convert.
    const integer dec = integer::from_string(s);
    integer back;
    const double t_from = time_median([&] { back = convert_radix(dec, radix::binary); }, 0.3, 3, 20);
    const double t_gfrom = time_median([&] { mpz_set_str(zx, gs.c_str(), 10); }, 0.3, 3, 20);
    if (!(back == xi)) {
      std::fprintf(stderr, "MISMATCH in from_string at %g digits\n", digits);
      return 1;
    }
    std::printf("%-10.0e %-12s %12.6f %12.6f %8.2f\n", digits, "dec_to_bin", t_from, t_gfrom, t_from / t_gfrom);
    rows.begin();
    rows.field("op", std::string("decimal_to_binary"));
    rows.field("digits", digits);
    rows.field("bigmul_s", t_from);
    rows.field("gmp_s", t_gfrom);
    rows.field("ratio", t_from / t_gfrom);
    rows.end();
    mpz_clear(zx);
  }
  const std::string header = "\"benchmark\": \"bench_arith\", \"threads\": " + std::to_string(threads) +
                             ", \"gmp\": \"" + gmp_version + "\"";
  if (!rows.write(out, header)) {
    std::fprintf(stderr, "cannot write %s\n", out.c_str());
    return 1;
  }
  std::printf("wrote %s\n", out.c_str());
  return 0;
}
