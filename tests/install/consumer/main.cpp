// SPDX-License-Identifier: LGPL-3.0-or-later
// Uses the installed headers and libraries: multiply, divide, print.
#include <bigmul/arith.hpp>
#include <bigmul/bigmul.hpp>
#include <cstdio>

// The standard comes from the package (bigmul::bigmul's cxx_std_20), not
// from this project, which sets none.
static_assert(__cplusplus >= 202002L, "bigmul::bigmul did not bring C++20");

int main() {
  const bigmul::integer a = bigmul::integer::from_string("123456789012345678901234567890");
  const bigmul::integer b = bigmul::integer::from_string("-987654321098765432109876543210");
  const bigmul::integer p = a * b;
  const bool product_ok = p.to_string() == "-121932631137021795226185032733622923332237463801111263526900";
  const bool quotient_ok = (p / b) == a && (p % b).is_zero();
  std::printf("%s %s\n", BIGMUL_VERSION_STRING, product_ok && quotient_ok ? "ok" : "wrong");
  return product_ok && quotient_ok ? 0 : 1;
}
