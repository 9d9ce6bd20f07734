// Decimal digits -> limbs on AVX-512BW + VBMI: see decimal_avx512.hpp.
#include "src/digits/decimal_avx512.hpp"

#if defined(BIGMUL_DIGITS_DECIMAL_AVX512)
#include <immintrin.h>

#include <cstdint>

#define BIGMUL_DEC_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi")))

namespace bigmul::digits::decimal_avx512 {

bool supported() {
  static const bool ok = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi");
  }();
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

}  // namespace bigmul::digits::decimal_avx512

#endif
