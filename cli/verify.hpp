// SPDX-License-Identifier: LGPL-3.0-or-later
// --verify: the product against GMP's mpz_mul on the same operands.
#pragma once

#include <gmp.h>

#include <string>

#include "bigmul/integer.hpp"

namespace bigmul::cli {

// x as an mpz (out must be initialised; run under a gmp_guard). Binary radix imports the limbs;
// decimal radix goes through the decimal text (GMP's subquadratic reader).
void to_mpz(mpz_t out, const integer& x);

// True when product == a * b by mpz_mul. Otherwise false and `detail` says how
// the two differ.
bool matches_gmp(const integer& a, const integer& b, const integer& product, std::string& detail);

}  // namespace bigmul::cli
