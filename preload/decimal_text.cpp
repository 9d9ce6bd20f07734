// SPDX-License-Identifier: LGPL-3.0-or-later
#include "preload/decimal_text.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "bigmul/arith.hpp"
#include "src/digits/digits.hpp"

namespace bigmul::preload {

std::size_t get_str10(unsigned char* str, const limb_t* up, std::size_t un) {
  const std::vector<limb_t> dec = binary_to_decimal(up, un);
  const std::size_t n = digits::printed_size(dec.data(), dec.size(), 10);
  char* out = reinterpret_cast<char*>(str);
  digits::print(dec.data(), dec.size(), 10, out);
  for (std::size_t i = 0; i < n; ++i) str[i] = static_cast<unsigned char>(str[i] - '0');
  return n;
}

std::size_t set_str10(limb_t* rp, const unsigned char* str, std::size_t len) {
  // digits::parse reads ASCII; a value > 9 becomes a byte that is not a digit, which it reports.
  std::unique_ptr<char[]> text(new char[len]);
  for (std::size_t i = 0; i < len; ++i) text[i] = static_cast<char>(str[i] + '0');
  std::vector<limb_t> dec(digits::limbs_for(len, 10));
  if (digits::parse({text.get(), len}, 10, dec.data()) != digits::no_error)
    throw std::invalid_argument("mpn_set_str: a digit value above 9");
  text.reset();
  while (!dec.empty() && dec.back() == 0) dec.pop_back();
  const std::vector<limb_t> bin = decimal_to_binary(dec.data(), dec.size());
  std::memcpy(rp, bin.data(), bin.size() * sizeof(limb_t));
  return bin.size();
}

}  // namespace bigmul::preload
