// SPDX-License-Identifier: LGPL-3.0-or-later
// Digit text <-> limbs: each full limb is 16 hex or 19 decimal characters,
// parsed and printed 8 at a time by SWAR; the partial top limb goes digit by
// digit. A bad byte only leaves the fast path: the scalar loop then finds the
// exact offset, so validation costs one mask test per 8 bytes.
#include "src/digits/digits.hpp"

#include <algorithm>
#include <vector>

#include "prim/parallel.hpp"
#include "src/digits/decimal_avx512.hpp"
#include "src/digits/hex_avx512.hpp"
#include "src/digits/swar.hpp"

namespace bigmul::digits {
namespace {

// Limbs per parallel chunk: below this a text is parsed on one thread (a task
// costs microseconds; 2^14 limbs are ~300 KB of text).
constexpr std::size_t grain_limbs = std::size_t{1} << 14;

constexpr limb_t pow10_8 = 100000000ull;
constexpr limb_t pow10_16 = pow10_8 * pow10_8;

int digit_value(unsigned char c, unsigned base) {
  if (c >= '0' && c <= '9') return c - '0';
  if (base == 16) {
    const unsigned char l = c | 0x20;
    if (l >= 'a' && l <= 'f') return l - 'a' + 10;
  }
  return -1;
}

// Digit by digit; returns the offset of the first bad byte or no_error.
std::size_t parse_scalar(const char* p, std::size_t n, unsigned base, limb_t& value) {
  limb_t v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int d = digit_value(static_cast<unsigned char>(p[i]), base);
    if (d < 0) return i;
    v = v * base + static_cast<limb_t>(d);
  }
  value = v;
  return no_error;
}

// One full limb: 16 hex or 19 decimal characters at p.
bool parse_full(const char* p, unsigned base, limb_t& value) {
  if (base == 16) {
    std::uint32_t hi, lo;
    if (!swar::hex8(swar::load8(p), hi) || !swar::hex8(swar::load8(p + 8), lo)) return false;
    value = (limb_t{hi} << 32) | lo;
    return true;
  }
  // 3 + 8 + 8 digits.
  const unsigned d0 = static_cast<unsigned char>(p[0]) - '0', d1 = static_cast<unsigned char>(p[1]) - '0',
                 d2 = static_cast<unsigned char>(p[2]) - '0';
  const std::uint64_t x = swar::load8(p + 3), y = swar::load8(p + 11);
  if ((d0 | d1 | d2) > 9 || !swar::all_decimal(x) || !swar::all_decimal(y)) return false;
  value = (d0 * 100 + d1 * 10 + d2) * pow10_16 + limb_t{swar::decimal8(x)} * pow10_8 + swar::decimal8(y);
  return true;
}

// Limbs [l0, l1) of a text of `n` digits; limb l holds the digits ending
// per_limb * l from the end. Returns the lowest bad offset among them.
std::size_t parse_range(std::string_view text, unsigned base, limb_t* out, std::size_t l0, std::size_t l1) {
  const std::size_t n = text.size(), k = per_limb(base);
  std::size_t bad = no_error;
#if defined(BIGMUL_DIGITS_HEX_AVX512)
  // Full hex limbs four at a time; a group holding a bad byte is left to
  // the loop below, which finds its offset.
  if (base == 16 && hex_avx512::supported()) {
    const std::size_t full = std::min(l1, n / 16);
    for (; l0 + 4 <= full; l0 += 4)
      if (!hex_avx512::parse4(text.data() + n - 16 * (l0 + 4), out + l0)) break;
  }
#endif
#if defined(BIGMUL_DIGITS_DECIMAL_AVX512)
  // Full decimal limbs two at a time, likewise.
  if (base == 10 && decimal_avx512::supported()) {
    const std::size_t full = std::min(l1, n / 19);
    for (; l0 + 2 <= full; l0 += 2)
      if (!decimal_avx512::parse2(text.data() + n - 19 * (l0 + 2), out + l0)) break;
  }
#endif
  for (std::size_t l = l0; l < l1; ++l) {
    const std::size_t hi = n - k * l;
    const std::size_t lo = hi >= k ? hi - k : 0;
    if (hi - lo == k && parse_full(text.data() + lo, base, out[l])) continue;
    // The partial top limb, or a limb holding a bad byte: digit by digit.
    const std::size_t at = parse_scalar(text.data() + lo, hi - lo, base, out[l]);
    if (at != no_error) bad = std::min(bad, lo + at);  // limbs run toward lower offsets: keep the lowest
  }
  return bad;
}

void print_top(limb_t v, unsigned base, char* out, std::size_t width) {
  for (std::size_t i = width; i-- > 0; v /= base) out[i] = "0123456789abcdef"[v % base];
}

std::size_t top_width(limb_t v, unsigned base) {
  std::size_t w = 0;
  for (; v; v /= base) ++w;
  return std::max<std::size_t>(w, 1);
}

// Limb v as exactly per_limb(base) characters, leading zeros included.
void print_full(limb_t v, unsigned base, char* out) {
  if (base == 16) {
    swar::store8(out, swar::hex_chars8(static_cast<std::uint32_t>(v >> 32)));
    swar::store8(out + 8, swar::hex_chars8(static_cast<std::uint32_t>(v)));
    return;
  }
  const limb_t head = v / pow10_16, rest = v % pow10_16;
  out[0] = static_cast<char>('0' + head / 100);
  out[1] = static_cast<char>('0' + head / 10 % 10);
  out[2] = static_cast<char>('0' + head % 10);
  swar::store8(out + 3, swar::decimal_chars8(static_cast<std::uint32_t>(rest / pow10_8)));
  swar::store8(out + 11, swar::decimal_chars8(static_cast<std::uint32_t>(rest % pow10_8)));
}

}  // namespace

std::size_t parse(std::string_view text, unsigned base, limb_t* out, unsigned threads) {
  const std::size_t nlimbs = limbs_for(text.size(), base);
  const std::size_t chunks = prim::chunk_count(nlimbs, grain_limbs, threads);
  if (chunks <= 1) return parse_range(text, base, out, 0, nlimbs);
  std::vector<std::size_t> bad(chunks, no_error);
  prim::parallel_for(chunks, threads, [&](std::size_t c) {
    bad[c] = parse_range(text, base, out, nlimbs * c / chunks, nlimbs * (c + 1) / chunks);
  });
  return *std::min_element(bad.begin(), bad.end());
}

std::size_t printed_size(const limb_t* a, std::size_t n, unsigned base) {
  if (n == 0) return 1;
  return top_width(a[n - 1], base) + per_limb(base) * (n - 1);
}

void print(const limb_t* a, std::size_t n, unsigned base, char* out, unsigned threads) {
  if (n == 0) {
    out[0] = '0';
    return;
  }
  const std::size_t top = top_width(a[n - 1], base), k = per_limb(base);
  print_top(a[n - 1], base, out, top);
  char* rest = out + top;
  // Character block i holds limb n - 2 - i.
  prim::parallel_chunks(n - 1, grain_limbs, threads, [&](std::size_t b, std::size_t e) {
#if defined(BIGMUL_DIGITS_HEX_AVX512)
    if (base == 16 && hex_avx512::supported())  // blocks i .. i + 3: limbs n - 2 - i down to n - 5 - i
      for (; b + 4 <= e; b += 4) hex_avx512::print4(a + n - 5 - b, rest + 16 * b);
#endif
#if defined(BIGMUL_DIGITS_DECIMAL_AVX512)
    if (base == 10 && decimal_avx512::print_supported())  // blocks i .. i + 7: limbs n - 2 - i down to n - 9 - i
      for (; b + 8 <= e; b += 8) decimal_avx512::print8(a + n - 9 - b, rest + 19 * b);
#endif
    for (std::size_t i = b; i < e; ++i) print_full(a[n - 2 - i], base, rest + k * i);
  });
}

}  // namespace bigmul::digits
