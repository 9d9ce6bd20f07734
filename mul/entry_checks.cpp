// SPDX-License-Identifier: LGPL-3.0-or-later
// The decimal-limb check of the public entry points (mul/entry_checks.hpp).
#include "mul/entry_checks.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "prim/cpu_features.hpp"

namespace bigmul::detail {
namespace {

// Decimal limbs are checked 64 at a time, 4 limbs a compare with AVX2 (a
// branch a limb is a visible part of a 10^4-digit decimal product); the exact limb
// is looked up only in a block that has one.
constexpr std::size_t check_block = 64;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// x >= 10^19 as a signed compare of x ^ 2^63 with (10^19 - 1) ^ 2^63.
__attribute__((target("avx2"))) bool block_has_non_decimal_avx2(const limb_t* p) {
  const __m256i sign = _mm256_set1_epi64x(static_cast<long long>(limb_t{1} << 63));
  const __m256i most = _mm256_set1_epi64x(static_cast<long long>((decimal_limb_base - 1) ^ (limb_t{1} << 63)));
  __m256i bad = _mm256_setzero_si256();
  for (std::size_t i = 0; i < check_block; i += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    bad = _mm256_or_si256(bad, _mm256_cmpgt_epi64(_mm256_xor_si256(x, sign), most));
  }
  return _mm256_testz_si256(bad, bad) == 0;
}
#define BIGMUL_CHECK_DECIMAL_AVX2 1
#endif

}  // namespace

void check_decimal(const limb_t* p, std::size_t n, const char* who, const char* which) {
  std::size_t i = 0;
#if defined(BIGMUL_CHECK_DECIMAL_AVX2)
  if (prim::cpu_has_avx2_fma())
    for (; i + check_block <= n; i += check_block)
      if (block_has_non_decimal_avx2(p + i)) break;
#endif
  for (; i < n; ++i)  // from a block that has one (the exact limb), the tail, or all without AVX2
    if (p[i] >= decimal_limb_base)
      throw error(error::kind::invalid_argument, std::string(who) + ": operand " + which + " limb " +
                                                     std::to_string(i) + " is not a decimal limb (>= 10^19)");
}

}  // namespace bigmul::detail
