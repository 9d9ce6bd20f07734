// SPDX-License-Identifier: LGPL-3.0-or-later
// The integer type: literals in, arithmetic, text out. Build against an
// installed bigmul with `find_package(bigmul CONFIG REQUIRED)` and
// `target_link_libraries(app PRIVATE bigmul::bigmul)`, or
// `c++ -std=c++20 app.cpp $(pkg-config --cflags --libs bigmul)`.
#include <bigmul/bigmul.hpp>

#include <iostream>

int main() try {
  // Decimal literals give decimal-radix integers (base 10^19 limbs), hex
  // literals binary ones (base 2^64): each reads and prints in linear time.
  const bigmul::integer a = bigmul::integer::from_string("123456789012345678901234567890");
  const bigmul::integer b = bigmul::integer::from_string("-0xffffffffffffffffffff");
  std::cout << "a * b   = " << (a * b).to_string() << "\n";  // mixed radices: b is converted first
  std::cout << "a + b   = " << (a + b).to_string() << "\n";
  std::cout << "a / 7   = " << (a / 7).to_string() << ", a % 7 = " << (a % 7).to_string() << "\n";
  std::cout << "b << 4  = " << (b << 4).to_string(16) << "\n";

  // 2^4423 - 1 (a Mersenne prime, 1332 digits): shifts and subtraction.
  const bigmul::integer m = (bigmul::integer(1) << 4423) - 1;
  const std::string digits = m.to_string();
  std::cout << "2^4423-1 has " << digits.size() << " digits: " << digits.substr(0, 10) << "..."
            << digits.substr(digits.size() - 10) << "\n";

  // Squaring in place is safe (mul takes aliases); options pick an algorithm.
  bigmul::integer x = bigmul::integer::from_string(std::string(5000, '9'));  // 10^5000 - 1
  bigmul::mul_options opt;
  opt.modular_check = true;  // also verify the product modulo 2^61 - 1
  bigmul::mul(x, x, x, opt);
  const std::string sq = x.to_string();
  std::cout << "(10^5000-1)^2 has " << sq.size() << " digits, " << sq.substr(0, 6) << "..." << sq.substr(sq.size() - 6)
            << "\n";

  // Errors are bigmul::error; a bad literal names the byte offset.
  try {
    (void)bigmul::integer::from_string("12x4");
  } catch (const bigmul::parse_error& e) {
    std::cout << "parse error at byte " << e.offset() << "\n";
  }
  return 0;
} catch (const bigmul::error& e) {
  std::cerr << "integer_basics: " << e.what() << "\n";
  return 1;
}
