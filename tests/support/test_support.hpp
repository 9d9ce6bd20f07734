// SPDX-License-Identifier: LGPL-3.0-or-later
// Shared test helpers: the seeded random source, GMP as the oracle, and the
// operands that hurt (all-maximum digits, long runs of 0s and 1s, ...).
#pragma once

#include <gmp.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::test {

// The run's seed: BIGMUL_TEST_SEED if set, else a fresh one. Printed at start
// and again after any failure so a failure can be replayed.
std::uint64_t seed();

// A generator seeded from seed() and `salt` (use a distinct salt per test so
// tests do not depend on their order).
std::mt19937_64 rng(std::uint64_t salt);

// True when BIGMUL_TEST_HEAVY=1: the long sweeps run (never in CI).
bool heavy();

// True in the ASan + UBSan build: large sizes shrink there.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

// Kinds of operands.
enum class operand_kind {
  random,       // uniform limbs
  all_max,      // every limb at its maximum (B^n - 1): longest carry chains
  runs,         // long runs of 0 and 1 bits / 0 and 9 digits (like mpz_rrandomb)
  sparse,       // mostly zero limbs, a few nonzero
  one,          // the value 1 (n = 1)
  power,        // B^(n-1): a single 1 at the top
  half_max,     // every decimal limb's balanced split lands at -B/2 (worst FFT magnitudes)
};
const char* operand_kind_name(operand_kind k);

// n limbs of the given kind in radix rx; the top limb is nonzero.
std::vector<limb_t> make_operand(operand_kind kind, std::size_t n, radix rx, std::mt19937_64& g);

// The oracle: limbs (radix rx) -> mpz, and the product via mpz_mul.
void to_mpz(mpz_t out, const limb_t* p, std::size_t n, radix rx);
// Compares r[0..rn) (radix rx) with x; on mismatch returns a description of
// the first differing limb, else "".
std::string compare_with_mpz(const limb_t* r, std::size_t rn, radix rx, const mpz_t x);
// r = a*b by GMP, as rn = an+bn limbs in radix rx.
std::vector<limb_t> gmp_product(const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
                                radix rx);

}  // namespace bigmul::test
