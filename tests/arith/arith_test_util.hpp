// SPDX-License-Identifier: LGPL-3.0-or-later
// Helpers shared by the arithmetic tests: integers <-> mpz, operand builders.
#pragma once

#include <gmpxx.h>

#include <random>
#include <vector>

#include "bigmul/arith.hpp"
#include "test_support.hpp"

namespace bigmul::test {

inline mpz_class to_mpz_class(const integer& x) {
  mpz_class z;
  const auto m = x.magnitude();
  to_mpz(z.get_mpz_t(), m.data(), m.size(), x.get_radix());
  if (x.is_negative()) z = -z;
  return z;
}

inline mpz_class limbs_to_mpz(const std::vector<limb_t>& v, radix rx = radix::binary) {
  mpz_class z;
  to_mpz(z.get_mpz_t(), v.data(), v.size(), rx);
  return z;
}

// n limbs of the given kind (binary), top limb nonzero.
inline std::vector<limb_t> operand(operand_kind kind, std::size_t n, std::mt19937_64& g) {
  return make_operand(kind, n, radix::binary, g);
}

inline integer make_integer(const std::vector<limb_t>& mag, bool negative, radix rx) {
  return integer(std::span<const limb_t>(mag), negative, rx);
}

}  // namespace bigmul::test
