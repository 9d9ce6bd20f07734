// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/verify.hpp"

#include "bigmul/error.hpp"
#include "bigmul/gmp_guard.hpp"

namespace bigmul::cli {

void to_mpz(mpz_t out, const integer& x) {
  if (x.is_zero()) {
    mpz_set_ui(out, 0);
    return;
  }
  if (x.get_radix() == radix::binary) {
    const auto mag = x.magnitude();
    static_assert(sizeof(limb_t) == 8);
    mpz_import(out, mag.size(), -1, sizeof(limb_t), 0, 0, mag.data());
    if (x.is_negative()) mpz_neg(out, out);
    return;
  }
  const std::string text = x.to_string(10);
  if (mpz_set_str(out, text.c_str(), 10) != 0)
    throw error(error::kind::internal, "verify: GMP could not read the decimal text of an operand");
}

bool matches_gmp(const integer& a, const integer& b, const integer& product, std::string& detail) {
  // GMP runs with allocation functions that throw bigmul::error (resource)
  // instead of aborting: --verify under a memory limit exits 1 "out of memory".
  // The guard comes first so that the numbers are released (or, after a
  // failed allocation, deliberately leaked) while it is still in place.
  const gmp_guard guard;
  guarded_mpz ga, gb, expected, got;
  to_mpz(ga, a);
  to_mpz(gb, b);
  mpz_mul(expected, ga, gb);
  to_mpz(got, product);
  if (mpz_cmp(expected, got) == 0) return true;
  guarded_mpz diff;
  mpz_sub(diff, got, expected);
  detail = "product differs from GMP's mpz_mul: GMP has " + std::to_string(mpz_sizeinbase(expected, 10)) +
           " digits, bigmul " + std::to_string(mpz_sizeinbase(got, 10)) + " digits; bigmul - GMP has about " +
           std::to_string(mpz_sizeinbase(diff, 10)) + " digits" + (mpz_sgn(diff.get()) < 0 ? " and is negative" : "");
  return false;
}

}  // namespace bigmul::cli
