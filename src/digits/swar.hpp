// SPDX-License-Identifier: LGPL-3.0-or-later
// SWAR (SIMD within a register) kernels for digit text: 8 characters in one
// 64-bit word, loaded little-endian so that byte 0 is the most significant
// digit. Plain 64-bit integer arithmetic: the same code on every x86-64 (and
// any 64-bit processor), no runtime dispatch (internal).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace bigmul::digits::swar {

inline constexpr std::uint64_t ones = 0x0101010101010101ull;
inline constexpr std::uint64_t highs = 0x8080808080808080ull;

inline std::uint64_t load8(const char* p) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  return x;
}

inline void store8(char* p, std::uint64_t x) {
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  std::memcpy(p, &x, 8);
}

// Bytes of x in [lo, hi] (lo <= hi < 0x80) get 0x80, the others 0; exact per
// byte when no byte of x has its top bit set (the sums then stay inside their
// byte). Callers reject top-bit bytes separately.
inline std::uint64_t in_range(std::uint64_t x, unsigned lo, unsigned hi) {
  const std::uint64_t ge = x + ones * (0x80 - lo);        // top bit: x >= lo
  const std::uint64_t gt = x + ones * (0x80 - hi - 1);    // top bit: x > hi
  return ge & ~gt & highs;
}

// True when all 8 bytes are '0'..'9'.
inline bool all_decimal(std::uint64_t x) {
  return (x & highs) == 0 && in_range(x, '0', '9') == highs;
}

// The value of 8 decimal digits (all_decimal(x)): pairs, then quads, then the
// two quads, each step one multiply-add on every lane at once.
inline std::uint32_t decimal8(std::uint64_t x) {
  x -= ones * '0';
  x = (x * 10) + (x >> 8);  // byte 2i: 10 d[2i] + d[2i+1]
  x = (((x & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
       (((x >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
      32;
  return static_cast<std::uint32_t>(x);
}

// 8 hex digits: sets `value` and returns true, or returns false when a byte
// is not 0-9, a-f, A-F.
inline bool hex8(std::uint64_t x, std::uint32_t& value) {
  const std::uint64_t digit = in_range(x, '0', '9');
  const std::uint64_t alpha = in_range(x | (ones * 0x20), 'a', 'f');
  if ((x & highs) != 0 || (digit | alpha) != highs) return false;
  // Nibble values: '0'..'9' and 'a'/'A'..'f'/'F' have them in the low 4 bits, letters + 9.
  std::uint64_t v = (x & (ones * 0x0F)) + (alpha >> 7) * 9;
  v = ((v << 4) + (v >> 8)) & 0x00FF00FF00FF00FFull;  // byte pairs, first digit high
  v = ((v << 8) + (v >> 16)) & 0x0000FFFF0000FFFFull;
  v = (v << 16) + (v >> 32);
  value = static_cast<std::uint32_t>(v);
  return true;
}

// The 8 lowercase hex digits of v, most significant first.
inline std::uint64_t hex_chars8(std::uint32_t v) {
  std::uint64_t x = v;
  // Spread the nibbles over the bytes, lowest nibble in byte 0...
  x = (x | (x << 16)) & 0x0000FFFF0000FFFFull;
  x = (x | (x << 8)) & 0x00FF00FF00FF00FFull;
  x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0Full;
  // ...to ASCII ('a' - '0' - 10 = 39 more for nibbles >= 10)...
  const std::uint64_t letters = ((x + ones * 6) >> 4) & ones;
  x += ones * '0' + letters * 39;
  // ...and reversed, most significant digit first.
  return __builtin_bswap64(x);
}

// The 8 decimal digits of v < 10^8, most significant first: two 4-digit
// halves in 32-bit lanes, each split into 2-digit 16-bit lanes, each split
// into 2 digits, by multiply-shift divisions exact on these ranges.
inline std::uint64_t decimal_chars8(std::uint32_t v) {
  const std::uint64_t hi = v / 10000, lo = v % 10000;
  std::uint64_t x = hi | (lo << 32);
  const std::uint64_t h100 = ((x * 10486) >> 20) & 0x0000007F0000007Full;  // x / 100 for x < 10^4
  x = h100 | ((x - h100 * 100) << 16);
  const std::uint64_t h10 = ((x * 103) >> 10) & 0x000F000F000F000Full;  // x / 10 for x < 100
  x = h10 | ((x - h10 * 10) << 8);
  return x + ones * '0';
}

}  // namespace bigmul::digits::swar
