// SPDX-License-Identifier: LGPL-3.0-or-later
// Modular exponentiation by Montgomery's method: a toy RSA key (two Mersenne
// primes), signing in constant time, and a batch of operations at once.
#include <bigmul/bigmul.hpp>

#include <iostream>
#include <vector>

int main() try {
  using bigmul::integer;
  const integer p = (integer(1) << 521) - 1, q = (integer(1) << 607) - 1;  // Mersenne primes
  const integer n = p * q, phi = (p - 1) * (q - 1), e = 65537;
  // d = e^-1 mod phi by the extended Euclidean algorithm on bigmul integers.
  integer r0 = phi, r1 = e, s0 = 0, s1 = 1;
  while (!r1.is_zero()) {
    auto [qt, rem] = bigmul::divmod(r0, r1);
    r0 = r1, r1 = rem;
    integer s2 = s0 - qt * s1;
    s0 = s1, s1 = s2;
  }
  const integer d = s0.is_negative() ? s0 + phi : s0;
  std::cout << "n has " << bigmul::bit_length(n) << " bits, e*d mod phi = " << (e * d % phi).to_string() << "\n";

  const bigmul::montgomery_context ctx(n);            // reusable for every operation modulo n
  const integer m = integer::from_string("123456789123456789123456789");
  const integer sig = ctx.mod_pow_sec(m, d);          // constant time in the secret exponent
  const integer back = ctx.mod_pow(sig, e);           // public exponent: sliding window
  std::cout << "signature verifies: " << (back == m ? "yes" : "NO") << "\n";

  // A batch: G bases with their exponents, one modulus (AVX-512 IFMA lanes where present).
  std::vector<integer> bases, exps;
  for (int g = 0; g < 16; ++g) {
    bases.push_back(integer(1000 + g));
    exps.push_back(d);
  }
  const std::vector<integer> sigs = ctx.mod_pow_sec(bases, exps);
  bool all = true;
  for (int g = 0; g < 16; ++g) all = all && ctx.mod_pow(sigs[g], e) == bases[g];
  std::cout << "16 batched signatures verify: " << (all ? "yes" : "NO") << "\n";

  // An even modulus is refused, never answered wrongly.
  try {
    bigmul::mod_pow(integer(3), integer(5), integer(100));
  } catch (const bigmul::error& err) {
    std::cout << "even modulus refused\n";
  }
  return back == m && all ? 0 : 1;
} catch (const bigmul::error& e) {
  std::cerr << "modexp: " << e.what() << "\n";
  return 1;
}
