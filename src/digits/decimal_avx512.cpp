// SPDX-License-Identifier: LGPL-3.0-or-later
// Decimal digits <-> limbs on AVX-512BW + VBMI: see decimal_avx512.hpp.
#include "src/digits/decimal_avx512.hpp"

#if defined(BIGMUL_DIGITS_DECIMAL_AVX512)
#include <immintrin.h>

#include <cstdint>

#define BIGMUL_DEC_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi")))
#define BIGMUL_DEC_PRINT_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512dq")))

namespace bigmul::digits::decimal_avx512 {

bool supported() {
  static const bool ok = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi");
  }();
  return ok;
}

bool print_supported() {
  static const bool ok = supported() && __builtin_cpu_supports("avx512dq");
  return ok;
}

namespace {

// The two limbs' digits placed in two 32-byte slots, each 13 zero bytes then
// the limb's 19 digits: slot 0 (bytes 0-31) the low limb (characters
// 19-37), slot 1 the high one (characters 0-18). Zero bytes come from the
// mask, their index is unused.
struct layout {
  alignas(64) std::uint8_t index[64];
  __mmask64 digits;
};

constexpr layout make_layout() {
  layout l{};
  l.digits = 0;
  for (unsigned b = 0; b < 64; ++b) {
    const unsigned in_slot = b % 32;
    if (in_slot < 13) continue;
    l.index[b] = static_cast<std::uint8_t>((b < 32 ? 19 : 0) + in_slot - 13);
    l.digits |= __mmask64{1} << b;
  }
  return l;
}

constexpr layout slots = make_layout();
constexpr __mmask64 first38 = (__mmask64{1} << 38) - 1;

}  // namespace

BIGMUL_DEC_TARGET bool parse2(const char* p, limb_t* out) {
  const __m512i c = _mm512_maskz_loadu_epi8(first38, p);  // masked: no read past p[37]
  const __m512i d = _mm512_sub_epi8(c, _mm512_set1_epi8('0'));
  if ((_mm512_cmplt_epu8_mask(d, _mm512_set1_epi8(10)) & first38) != first38) return false;
  const __m512i x =
      _mm512_maskz_permutexvar_epi8(slots.digits, _mm512_load_si512(slots.index), d);
  // Digit pairs, then groups of 4, then of 8 (one per 64-bit lane, most significant first in each slot).
  const __m512i two = _mm512_maddubs_epi16(x, _mm512_set1_epi16(0x010A));
  const __m512i four = _mm512_madd_epi16(two, _mm512_set1_epi32(0x00010064));
  // (maskz with all lanes: GCC 12 warns on the plain forms' undefined source)
  const __m512i eight = _mm512_add_epi64(_mm512_maskz_mul_epu32(0xFF, four, _mm512_set1_epi64(10000)),
                                         _mm512_maskz_srli_epi64(0xFF, four, 32));
  alignas(64) std::uint64_t g[8];
  _mm512_store_si512(g, eight);
  // Lane 0 of each slot holds its zero bytes; lane 1 the top 3 digits.
  constexpr std::uint64_t e8 = 100000000;
  out[0] = (g[1] * e8 + g[2]) * e8 + g[3];
  out[1] = (g[5] * e8 + g[6]) * e8 + g[7];
  return true;
}

namespace {

// print8's output: character 19 k + m (limb a[7 - k], lane 7 - k) is the
// head's character m (byte 5 + m of H's lane: the head < 1000 printed as 8
// characters) for m < 3, else character m - 3 of the limb's 16 lower digits
// (bytes of A's lane, then of B's). Per 64-byte chunk c: the indices into
// (A, B) for permutex2var, into H for the masked permutexvar, the mask.
struct print_layout {
  alignas(64) std::uint8_t ab[3][64];
  alignas(64) std::uint8_t h[3][64];
  __mmask64 from_h[3];
};

constexpr print_layout make_print_layout() {
  print_layout l{};
  for (unsigned c = 0; c < 3; ++c) {
    l.from_h[c] = 0;
    for (unsigned j = 0; j < 64 && 64 * c + j < 152; ++j) {
      const unsigned pos = 64 * c + j, lane = 7 - pos / 19, m = pos % 19;
      if (m < 3) {
        l.h[c][j] = static_cast<std::uint8_t>(8 * lane + 5 + m);
        l.from_h[c] |= __mmask64{1} << j;
      } else {
        l.ab[c][j] = static_cast<std::uint8_t>((m < 11 ? 0 : 64) + 8 * lane + (m < 11 ? m - 3 : m - 11));
      }
    }
  }
  return l;
}

constexpr print_layout print_slots = make_print_layout();

// x / d and the remainder r (d = 10^16 with x < 10^19, or d = 10^8 with
// x < 10^16) from a double estimate with 1/d rounded up (inv_d >= 1/d,
// within an ulp). Every multiple j d <= x is a double (j 5^k < 2^53 for
// d = 10^k) and rounding is monotone, so the estimate is never below the
// quotient; its relative error (a few ulp) keeps it below the quotient + 1
// as x / d < 10^8. One step down settles it.
BIGMUL_DEC_PRINT_TARGET inline __m512i split(__m512i x, std::uint64_t d, double inv_d, __m512i& r) {
  const __m512i dv = _mm512_set1_epi64(static_cast<long long>(d));
  __m512i q = _mm512_cvttpd_epu64(_mm512_mul_pd(_mm512_cvtepu64_pd(x), _mm512_set1_pd(inv_d)));
  r = _mm512_sub_epi64(x, _mm512_mullo_epi64(q, dv));
  const __mmask8 over = _mm512_cmplt_epi64_mask(r, _mm512_setzero_si512());  // q one too big: r in [-d, 0)
  q = _mm512_mask_sub_epi64(q, over, q, _mm512_set1_epi64(1));
  r = _mm512_mask_add_epi64(r, over, r, dv);
  return q;
}
// 1/10^16 rounded up (the nearest double, 1e-16, is below it); 1e-8 is above 1/10^8.
constexpr double inv_1e16_up = 0x1.cd2b297d889bdp-54, inv_1e8_up = 1e-8;

// Each 64-bit lane x < 10^8 as 8 characters, most significant first in
// memory: the SWAR steps of swar::decimal_chars8 on 32- and 16-bit lanes.
BIGMUL_DEC_PRINT_TARGET inline __m512i chars8(__m512i x) {
  // (maskz with all lanes: GCC 12 warns on the plain shifts' and mul_epu32's undefined source)
  const __m512i hi =
      _mm512_maskz_srli_epi64(0xFF, _mm512_maskz_mul_epu32(0xFF, x, _mm512_set1_epi64(3518437209)), 45);  // x / 10^4
  const __m512i lo = _mm512_sub_epi64(x, _mm512_mullo_epi32(hi, _mm512_set1_epi64(10000)));
  __m512i y = _mm512_or_si512(hi, _mm512_maskz_slli_epi64(0xFF, lo, 32));  // then / 100 below 10^4
  const __m512i h100 = _mm512_maskz_srli_epi32(0xFFFF, _mm512_mullo_epi32(y, _mm512_set1_epi32(10486)), 20);
  y = _mm512_or_si512(
      h100, _mm512_maskz_slli_epi32(0xFFFF, _mm512_sub_epi32(y, _mm512_mullo_epi32(h100, _mm512_set1_epi32(100))), 16));
  const __m512i h10 = _mm512_srli_epi16(_mm512_mullo_epi16(y, _mm512_set1_epi16(103)), 10);  // / 10 below 100
  y = _mm512_or_si512(h10, _mm512_slli_epi16(_mm512_sub_epi16(y, _mm512_mullo_epi16(h10, _mm512_set1_epi16(10))), 8));
  return _mm512_add_epi8(y, _mm512_set1_epi8('0'));
}

}  // namespace

BIGMUL_DEC_PRINT_TARGET void print8(const limb_t* a, char* out) {
  const __m512i v = _mm512_loadu_si512(a);
  __m512i rest, lo;
  const __m512i head = split(v, 10000000000000000ull, inv_1e16_up, rest);  // < 1000
  const __m512i hi = split(rest, 100000000ull, inv_1e8_up, lo);             // rest < 10^16
  const __m512i H = chars8(head), A = chars8(hi), B = chars8(lo);
  for (unsigned c = 0; c < 3; ++c) {
    __m512i chunk = _mm512_permutex2var_epi8(A, _mm512_load_si512(print_slots.ab[c]), B);
    chunk = _mm512_mask_permutexvar_epi8(chunk, print_slots.from_h[c], _mm512_load_si512(print_slots.h[c]), H);
    if (c < 2)
      _mm512_storeu_si512(out + 64 * c, chunk);
    else
      _mm512_mask_storeu_epi8(out + 128, (__mmask64{1} << 24) - 1, chunk);
  }
}

}  // namespace bigmul::digits::decimal_avx512

#endif
