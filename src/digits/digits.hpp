// SPDX-License-Identifier: LGPL-3.0-or-later
// Digit text <-> limbs in the number's own radix, at memory speed: decimal
// text <-> radix::decimal limbs (19 digits a limb), hex text <-> radix::binary
// limbs (16 digits a limb). 8 characters at a time (swar.hpp), validation
// included, long texts split over the library's threads. Used by
// bigmul::integer (parsing and printing) and by the command line (internal).
#pragma once

#include <cstddef>
#include <string_view>

#include "bigmul/config.hpp"

namespace bigmul::digits {

inline constexpr std::size_t no_error = static_cast<std::size_t>(-1);

// Digits per limb: 19 for base 10, 16 for base 16.
constexpr unsigned per_limb(unsigned base) { return base == 10 ? decimal_limb_digits : 16; }

// Limbs that `ndigits` digits fill.
constexpr std::size_t limbs_for(std::size_t ndigits, unsigned base) {
  return (ndigits + per_limb(base) - 1) / per_limb(base);
}

// Parses `text` (digits only, most significant first; base 10 or 16, hex
// letters in either case) into out[0..limbs_for(text.size(), base)), least
// significant limb first (high zero limbs are kept). Returns no_error, or the
// offset in `text` of the first byte that is not a digit (out is then
// unspecified). `threads` as in prim (0: the library's default).
std::size_t parse(std::string_view text, unsigned base, limb_t* out, unsigned threads = 0);

// The number of characters print() writes for a[0..n) (no high zero limbs;
// n == 0 prints "0").
std::size_t printed_size(const limb_t* a, std::size_t n, unsigned base);

// Writes the digits of a[0..n) (base 10: decimal limbs; base 16: binary limbs,
// lowercase) to out[0..printed_size(a, n, base)), no leading zeros.
void print(const limb_t* a, std::size_t n, unsigned base, char* out, unsigned threads = 0);

}  // namespace bigmul::digits
