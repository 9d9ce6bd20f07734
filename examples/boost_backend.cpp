// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul as a Boost.Multiprecision backend: bigmul::boost_int is a
// boost::multiprecision::number whose products go through bigmul.
#include <bigmul/boost.hpp>

#include <iostream>

int main() {
  using bigmul::boost_int;
  // 1000! by a product of all factors, then its digit count and trailing zeros.
  boost_int f = 1;
  for (unsigned k = 2; k <= 1000; ++k) f *= k;
  const std::string s = f.str();
  std::size_t zeros = 0;
  while (s[s.size() - 1 - zeros] == '0') ++zeros;
  std::cout << "1000! has " << s.size() << " digits, " << zeros << " trailing zeros, starts " << s.substr(0, 12)
            << "\n";

  // The usual operators, conversions and formatting.
  boost_int x("0x1ffffffffffffffffffffffff");  // 2^97 - 1
  boost_int q = f / (x * x), m = f % x;
  std::cout << "1000! mod (2^97-1) = " << m << "\n";
  std::cout << "hex of 2^97-1: " << std::hex << std::showbase << x << std::dec << "\n";
  std::cout << "bits of 1000!/(2^97-1)^2: " << bigmul::bit_length(q.backend().value()) << "\n";
  return (q * x * x + f % (x * x)) == f ? 0 : 1;
}
