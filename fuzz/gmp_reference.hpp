// SPDX-License-Identifier: LGPL-3.0-or-later
// GMP as the fuzz targets' oracle: mpz values of bigmul's limb vectors and
// integers, with RAII so that a failed check can report and abort cleanly.
#pragma once

#include <gmp.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bigmul/config.hpp"
#include "bigmul/integer.hpp"

namespace bigmul::fuzz {

struct mpz {
  mpz_t v;
  mpz() { mpz_init(v); }
  ~mpz() { mpz_clear(v); }
  mpz(const mpz&) = delete;
  mpz& operator=(const mpz&) = delete;
  operator mpz_ptr() { return v; }  // NOLINT
};

// |value| of n limbs in radix rx.
inline void set_limbs(mpz_ptr out, const limb_t* p, std::size_t n, radix rx) {
  if (rx == radix::binary) {
    mpz_import(out, n, -1, sizeof(limb_t), 0, 0, p);
    return;
  }
  // Decimal limbs, most significant first (Horner; the targets keep n small).
  mpz_set_ui(out, 0);
  for (std::size_t i = n; i-- > 0;) {
    mpz_mul_ui(out, out, decimal_limb_base);
    mpz_add_ui(out, out, p[i]);
  }
}

inline void set_integer(mpz_ptr out, const integer& x) {
  const auto m = x.magnitude();
  set_limbs(out, m.data(), m.size(), x.get_radix());
  if (x.is_negative()) mpz_neg(out, out);
}

// A failed check: what differs, then abort (libFuzzer saves the input).
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "bigmul fuzz: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

}  // namespace bigmul::fuzz
