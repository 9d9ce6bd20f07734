// SPDX-License-Identifier: LGPL-3.0-or-later
// Hex digits <-> limbs on AVX-512BW: see hex_avx512.hpp.
#include "src/digits/hex_avx512.hpp"

#if defined(BIGMUL_DIGITS_HEX_AVX512)
#include <immintrin.h>

#define BIGMUL_HEX_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx2")))

namespace bigmul::digits::hex_avx512 {

bool supported() {
  static const bool ok = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl");
  }();
  return ok;
}

namespace {

// Reverses the bytes of each 64-bit lane (pshufb works inside 128-bit lanes).
BIGMUL_HEX_TARGET inline __m256i reverse_bytes_in_qwords(__m256i x) {
  const __m256i m = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,  //
                                     7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  return _mm256_shuffle_epi8(x, m);
}

}  // namespace

BIGMUL_HEX_TARGET bool parse4(const char* p, limb_t* out) {
  const __m512i c = _mm512_loadu_si512(p);
  // '0'-'9' -> 0-9; 'a'-'f' and 'A'-'F' -> 10-15 (| 0x20 folds the case).
  const __m512i d = _mm512_sub_epi8(c, _mm512_set1_epi8('0'));
  const __m512i l = _mm512_sub_epi8(_mm512_or_si512(c, _mm512_set1_epi8(0x20)), _mm512_set1_epi8('a'));
  const __mmask64 digit = _mm512_cmplt_epu8_mask(d, _mm512_set1_epi8(10));
  const __mmask64 letter = _mm512_cmplt_epu8_mask(l, _mm512_set1_epi8(6));
  if (~(digit | letter) != 0) return false;
  const __m512i v = _mm512_mask_blend_epi8(digit, _mm512_add_epi8(l, _mm512_set1_epi8(10)), d);
  // Character pairs to bytes: 16 * first + second, then the words to bytes.
  const __m512i pairs = _mm512_maddubs_epi16(v, _mm512_set1_epi16(0x0110));
  // (maskz with all lanes: GCC 12 warns on the plain form's undefined source)
  const __m256i bytes = _mm512_maskz_cvtepi16_epi8(~__mmask32{0}, pairs);  // 32 bytes, most significant first
  // Each limb's 8 bytes to little-endian, and the limbs to ascending order.
  const __m256i limbs = _mm256_permute4x64_epi64(reverse_bytes_in_qwords(bytes), 0x1B);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), limbs);
  return true;
}

BIGMUL_HEX_TARGET void print4(const limb_t* a, char* out) {
  const __m256i limbs = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a));
  // a[3] first, each limb's bytes most significant first.
  const __m256i bytes = reverse_bytes_in_qwords(_mm256_permute4x64_epi64(limbs, 0x1B));
  const __m512i w = _mm512_cvtepu8_epi16(bytes);
  // Each byte's two nibbles as a 16-bit word: high nibble in the low byte (printed first).
  const __m512i nibbles =
      _mm512_or_si512(_mm512_srli_epi16(w, 4), _mm512_slli_epi16(_mm512_and_si512(w, _mm512_set1_epi16(0x0F)), 8));
  alignas(64) static constexpr char table[64] = {
      '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f',  // pshufb looks up
      '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f',  // inside each
      '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f',  // 128-bit lane
      '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  _mm512_storeu_si512(out, _mm512_shuffle_epi8(_mm512_load_si512(table), nibbles));
}

}  // namespace bigmul::digits::hex_avx512

#endif
