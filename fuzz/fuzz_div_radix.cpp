// SPDX-License-Identifier: LGPL-3.0-or-later
// Division and radix conversion (and the integer operators over them):
// divmod and the limb-level div_qr (every algorithm) against mpz_tdiv_qr,
// convert_radix / binary_to_decimal / decimal_to_binary / to_string against
// GMP's values and mpz_get_str, +, -, shifts and comparisons, on operands of
// both radices, both signs, random / all-maximum / power-of-the-base shapes.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/error.hpp"
#include "bigmul/integer.hpp"
#include "gmp_reference.hpp"

namespace {

using namespace bigmul;
using fuzz::check;

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

integer make(FuzzedDataProvider& in) {
  const radix rx = in.ConsumeBool() ? radix::decimal : radix::binary;
  const limb_t top = rx == radix::binary ? ~limb_t{0} : decimal_limb_base - 1;
  std::size_t n;
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: n = in.ConsumeIntegralInRange<std::size_t>(0, 2500); break;  // Newton division, subquadratic conversion
    case 1: case 2: n = in.ConsumeIntegralInRange<std::size_t>(0, 300); break;
    default: n = in.ConsumeIntegralInRange<std::size_t>(0, 40); break;
  }
  std::vector<limb_t> m(n);
  std::uint64_t seed = in.ConsumeIntegral<std::uint64_t>();
  const auto clamp = [&](limb_t x) { return rx == radix::binary ? x : x % decimal_limb_base; };
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: for (auto& x : m) x = clamp(splitmix(seed)); break;
    case 1: for (auto& x : m) x = top; break;                      // B^n - 1
    case 2: if (n) m.back() = 1; break;                            // B^(n-1)
    case 3: for (auto& x : m) x = splitmix(seed) % 2 ? top : 0; break;
    default: for (auto& x : m) x = clamp(in.ConsumeIntegral<limb_t>()); break;
  }
  return integer(m, in.ConsumeBool(), rx);
}

void expect_equal(const integer& x, mpz_srcptr want, const std::string& what) {
  fuzz::mpz got;
  fuzz::set_integer(got, x);
  check(mpz_cmp(got, want) == 0, what + " differs from GMP");
  if (x.get_radix() == radix::decimal)
    for (const limb_t l : x.magnitude()) check(l < decimal_limb_base, what + ": limb not decimal");
  check(x.is_zero() || x.magnitude().back() != 0, what + ": high zero limb");
  check(!(x.is_zero() && x.is_negative()), what + ": negative zero");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const integer a = make(in), b = make(in);
  fuzz::mpz ga, gb, q, r, t;
  fuzz::set_integer(ga, a);
  fuzz::set_integer(gb, b);

  // Truncating division, any radices.
  if (b.is_zero()) {
    try {
      (void)(a / b);
      fuzz::fail("division by zero returned");
    } catch (const error& e) {
      check(e.code() == error::kind::domain, std::string("division by zero: wrong kind: ") + e.what());
    }
  } else {
    const auto [qq, rr] = divmod(a, b);
    mpz_tdiv_qr(q, r, ga, gb);
    expect_equal(qq, q, "divmod quotient");
    expect_equal(rr, r, "divmod remainder");
  }

  // Limb level division with each algorithm (binary magnitudes).
  {
    const integer x = convert_radix(a, radix::binary), d = convert_radix(b, radix::binary);
    const auto xm = x.magnitude(), dm = d.magnitude();
    if (!dm.empty() && xm.size() >= dm.size()) {
      const auto algo = static_cast<div_algorithm>(in.ConsumeIntegralInRange<int>(0, 3));  // 3: outside the enum
      std::vector<limb_t> qv(xm.size() - dm.size() + 1), rv(dm.size());
      try {
        div_qr(qv.data(), rv.data(), xm.data(), xm.size(), dm.data(), dm.size(), algo);
        check(static_cast<int>(algo) <= 2, "div_qr accepted a div_algorithm outside the enum");
      } catch (const error& e) {
        check(static_cast<int>(algo) > 2 && e.code() == error::kind::invalid_argument,
              std::string("div_qr: unexpected error: ") + e.what());
        return 0;
      }
      fuzz::mpz gx, gd, gq, gr;
      fuzz::set_limbs(gx, xm.data(), xm.size(), radix::binary);
      fuzz::set_limbs(gd, dm.data(), dm.size(), radix::binary);
      mpz_tdiv_qr(gq, gr, gx, gd);
      fuzz::set_limbs(q, qv.data(), qv.size(), radix::binary);
      fuzz::set_limbs(r, rv.data(), rv.size(), radix::binary);
      check(mpz_cmp(q, gq) == 0 && mpz_cmp(r, gr) == 0,
            "div_qr (algorithm " + std::to_string(static_cast<int>(algo)) + ", " + std::to_string(xm.size()) + " / " +
                std::to_string(dm.size()) + " limbs) differs from mpz_tdiv_qr");
    }
  }

  // Radix conversion both ways, and the printed forms.
  const integer ad = convert_radix(a, radix::decimal), ab = convert_radix(a, radix::binary);
  expect_equal(ad, ga, "convert_radix to decimal");
  expect_equal(ab, ga, "convert_radix to binary");
  check(ad.get_radix() == radix::decimal && ab.get_radix() == radix::binary, "convert_radix: wrong radix");
  check(ad == ab && a == ad, "operator== across radices");
  {
    char* dec = mpz_get_str(nullptr, 10, ga);
    check(a.to_string(10) == dec, "to_string(10) differs from mpz_get_str");
    free(dec);
  }

  // Sums, differences, comparisons across radices.
  mpz_add(t, ga, gb);
  expect_equal(a + b, t, "a + b");
  mpz_sub(t, ga, gb);
  expect_equal(a - b, t, "a - b");
  const int c = mpz_cmp(ga, gb);
  const auto ord = a <=> b;
  check((c < 0) == (ord < 0) && (c == 0) == (ord == 0), "operator<=> differs from mpz_cmp");

  // Shifts (floor semantics for >>, like mpz_fdiv_q_2exp).
  const std::size_t k = in.ConsumeIntegralInRange<std::size_t>(0, 300);
  mpz_mul_2exp(t, ga, k);
  expect_equal(a << k, t, "a << k");
  mpz_fdiv_q_2exp(t, ga, k);
  expect_equal(a >> k, t, "a >> k");
  return 0;
}
