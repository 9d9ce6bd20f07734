// SPDX-License-Identifier: LGPL-3.0-or-later
// Limb-level products with GMP's mpn contract: r[0 .. an+bn) = a * b, an >= bn >= 1,
// r not overlapping the operands, limbs least significant first.
#include <bigmul/bigmul.hpp>

#include <cstdio>
#include <vector>

int main() try {
  // Binary radix: base 2^64. (2^256 - 1)^2 = 2^512 - 2^257 + 1.
  const std::vector<bigmul::limb_t> a(4, ~bigmul::limb_t{0});
  std::vector<bigmul::limb_t> r(8);
  bigmul::mul(r.data(), a.data(), a.size(), a.data(), a.size());
  std::printf("(2^256-1)^2 limbs, low first:");
  for (bigmul::limb_t v : r) std::printf(" %016llx", static_cast<unsigned long long>(v));
  std::printf("\n");

  // Decimal radix: base 10^19, so a product prints without conversion.
  // (10^19 - 1) * (10^19 - 1) = 99999999999999999980000000000000000001.
  const bigmul::limb_t nines = bigmul::decimal_limb_base - 1;
  bigmul::limb_t d[2];
  bigmul::mul(d, &nines, 1, &nines, 1, bigmul::radix::decimal);
  std::printf("decimal limbs: %llu %019llu\n", static_cast<unsigned long long>(d[1]),
              static_cast<unsigned long long>(d[0]));

  // A large product with options and statistics: 100000 limbs (~1.9 million digits).
  const std::size_t n = 100000;
  std::vector<bigmul::limb_t> x(n), y(n), z(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = 0x9e3779b97f4a7c15ull * (i + 1);
    y[i] = ~x[i];
  }
  bigmul::mul_stats st;
  bigmul::mul_options opt;
  opt.modular_check = true;  // verify modulo 2^61 - 1 (an error, never a wrong result)
  opt.stats = &st;
  bigmul::mul(z.data(), x.data(), n, y.data(), n, bigmul::radix::binary, opt);
  std::printf("100000 x 100000 limbs: modular check %s, transform used: %s\n", st.modular_check ? "passed" : "not run",
              st.transform_length ? "yes" : "no");

  // The same product forced through Toom-3, compared limb by limb.
  std::vector<bigmul::limb_t> t(2 * n);
  bigmul::mul_options toom;
  toom.algo = bigmul::algorithm::toom3;
  bigmul::mul(t.data(), x.data(), n, y.data(), n, bigmul::radix::binary, toom);
  std::printf("toom3 gives the same product: %s\n", t == z ? "yes" : "NO");

  // Misuse is an exception with a message, never a wrong answer.
  try {
    bigmul::mul(r.data(), a.data(), 1, a.data(), 2);  // an < bn
  } catch (const bigmul::error& e) {
    std::printf("refused: %s\n", e.what());
  }
  return t == z ? 0 : 1;
} catch (const bigmul::error& e) {
  std::fprintf(stderr, "limb_mul: %s\n", e.what());
  return 1;
}
