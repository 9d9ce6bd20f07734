// SPDX-License-Identifier: LGPL-3.0-or-later
// The GMP bridge: bigmul::integer <-> mpz_t, and a drop-in mpz_mul that hands
// large products to bigmul (small ones stay with GMP). Link GMP too
// (GMP::gmp, or -lgmp).
#include <bigmul/bigmul.hpp>
#include <gmp.h>

#include <cstdio>
#include <cstring>

int main() try {
  mpz_t a, b, r, ref;
  mpz_inits(a, b, r, ref, nullptr);
  mpz_ui_pow_ui(a, 3, 200000);  // 95425 digits
  mpz_ui_pow_ui(b, 7, 150000);  // 126765 digits
  bigmul::mpz_mul(r, a, b);     // through bigmul::mul: above bigmul::gmp_crossover_limbs()
  ::mpz_mul(ref, a, b);         // GMP's own
  char* text = mpz_get_str(nullptr, 10, r);
  const std::size_t digits = std::strlen(text);
  void (*free_text)(void*, std::size_t);
  mp_get_memory_functions(nullptr, nullptr, &free_text);
  free_text(text, digits + 1);
  std::printf("3^200000 * 7^150000: %zu digits, equal to GMP's: %s\n", digits, mpz_cmp(r, ref) == 0 ? "yes" : "NO");

  // integer -> mpz and back; mpz_view reads an integer's limbs without a copy.
  const bigmul::integer x = bigmul::integer::from_string("-0x123456789abcdef0123456789abcdef");
  bigmul::to_mpz(r, x);
  gmp_printf("to_mpz: %Zx\n", r);
  const bigmul::integer x2 = x * x;
  const bigmul::mpz_view v(x2);  // x2 must outlive the view
  gmp_printf("x^2 via mpz_view: %Zd\n", v.get());
  const bigmul::integer back = bigmul::from_mpz(ref);
  std::printf("from_mpz: %zu limbs, radix %s\n", back.size(), back.get_radix() == bigmul::radix::binary ? "binary" : "decimal");
  const bool ok = mpz_cmp(r, ref) != 0 && bigmul::from_mpz(ref) == back;
  mpz_clears(a, b, r, ref, nullptr);
  return ok ? 0 : 1;
} catch (const bigmul::error& e) {
  std::fprintf(stderr, "gmp_bridge: %s\n", e.what());
  return 1;
}
