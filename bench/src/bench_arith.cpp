// SPDX-License-Identifier: LGPL-3.0-or-later
// Division (2n by n digits) and radix conversion (binary <-> decimal) of
// bigmul against GMP, for 10^3 .. 10^7 digits, both measured in this run.
// Rows <operation>/<digits>, ratio_vs_gmp.
//   bench_arith [--max-digits 1e7] [--div-max-digits 1e6] [--json bench_arith.json]
//               [--repetitions N] [--min-time S] [--filter REGEX]
#include <gmp.h>

#include <cstdio>
#include <string>
#include <vector>

#include "harness.hpp"
#include "bigmul/arith.hpp"
#include "prim/parallel.hpp"

using namespace bigmul;
using namespace bigmul::bench;

namespace {

void to_mpz(mpz_t z, const std::vector<limb_t>& v) {
  mpz_import(z, v.size(), -1, sizeof(limb_t), 0, 0, v.data());
}

}  // namespace

int main(int argc, char** argv) {
  harness h("bench_arith", argc, argv, "bench_arith.json");
  const double max_digits = h.number("--max-digits", 1e7);
  const double div_max_digits = h.number("--div-max-digits", 1e6);
  const unsigned threads = prim::default_threads();
  h.context("ratio", "real_time / gmp_seconds (GMP, same process, same operands)");
  std::mt19937_64 g(12345);
  const auto add = [&](const std::string& op, double digits, const measurement& m, double gmp) -> row& {
    return h.add(op + "/" + std::to_string(static_cast<long long>(digits)), m)
        .counter("digits", digits)
        .counter("threads", threads)
        .baseline("gmp", gmp);
  };
  std::printf("threads: %u (bigmul::mul default)\n", threads);
  std::printf("%-10s %-12s %12s %12s %8s\n", "digits", "operation", "bigmul s", "gmp s", "ratio");

  for (double digits = 1e3; digits <= max_digits * 1.0001; digits *= 10) {
    // Division: 2n-digit by n-digit.
    const std::string tag = "/" + std::to_string(static_cast<long long>(digits));
    if (digits <= div_max_digits * 1.0001 && h.selected("div_2n_by_n" + tag)) {
      const std::size_t dn = limbs_for_digits(digits), an = limbs_for_digits(2 * digits);
      const auto a = random_limbs(an, g), d = random_limbs(dn, g);
      std::vector<limb_t> q(an - dn + 1), r(dn);
      const measurement m_big = h.time([&] { div_qr(q.data(), r.data(), a.data(), an, d.data(), dn); });
      const double t_big = m_big.real_s;
      mpz_t za, zd, zq, zr;
      mpz_inits(za, zd, zq, zr, nullptr);
      to_mpz(za, a);
      to_mpz(zd, d);
      const double t_gmp = h.time([&] { mpz_tdiv_qr(zq, zr, za, zd); }).real_s;
      mpz_clears(za, zd, zq, zr, nullptr);
      std::printf("%-10.0e %-12s %12.6f %12.6f %8.2f\n", digits, "div_2n_n", t_big, t_gmp, t_big / t_gmp);
      add("div_2n_by_n", digits, m_big, t_gmp);
    }
    // Radix conversion of an n-digit binary number to decimal (to_string)
    // and back (from_string), with the power table warm (first call timed apart).
    if (!h.selected("to_string_10" + tag) && !h.selected("decimal_to_binary" + tag)) continue;
    const std::size_t n = limbs_for_digits(digits);
    const auto x = random_limbs(n, g);
    const integer xi(std::span<const limb_t>(x), false, radix::binary);
    const double t0 = now_seconds();
    std::string s = convert_radix(xi, radix::decimal).to_string(10);
    const double t_first = now_seconds() - t0;
    const measurement m_to = h.time([&] { s = convert_radix(xi, radix::decimal).to_string(10); }, {0.3, 3, 20});
    const double t_to = m_to.real_s;
    mpz_t zx;
    mpz_init(zx);
    to_mpz(zx, x);
    std::string gs;
    const double t_gto = h.time([&] {
      char* p = mpz_get_str(nullptr, 10, zx);
      gs = p;
      void (*free_fn)(void*, size_t);
      mp_get_memory_functions(nullptr, nullptr, &free_fn);
      free_fn(p, gs.size() + 1);
    }, {0.3, 3, 20}).real_s;
    if (s != gs) {
      std::fprintf(stderr, "MISMATCH in to_string at %g digits\n", digits);
      return 1;
    }
    std::printf("%-10.0e %-12s %12.6f %12.6f %8.2f   (first call %.6f s)\n", digits, "to_string", t_to, t_gto,
                t_to / t_gto, t_first);
    if (h.selected("to_string_10" + tag)) add("to_string_10", digits, m_to, t_gto).counter("first_call_seconds", t_first);
    // Decimal -> binary: parse in linear time, then convert.
    const integer dec = integer::from_string(s);
    integer back;
    const measurement m_from = h.time([&] { back = convert_radix(dec, radix::binary); }, {0.3, 3, 20});
    const double t_from = m_from.real_s;
    const double t_gfrom = h.time([&] { mpz_set_str(zx, gs.c_str(), 10); }, {0.3, 3, 20}).real_s;
    if (!(back == xi)) {
      std::fprintf(stderr, "MISMATCH in from_string at %g digits\n", digits);
      return 1;
    }
    std::printf("%-10.0e %-12s %12.6f %12.6f %8.2f\n", digits, "dec_to_bin", t_from, t_gfrom, t_from / t_gfrom);
    if (h.selected("decimal_to_binary" + tag)) add("decimal_to_binary", digits, m_from, t_gfrom);
    mpz_clear(zx);
  }
  return h.write() ? 0 : 1;
}
