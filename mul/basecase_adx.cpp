// SPDX-License-Identifier: LGPL-3.0-or-later
// MULX + ADCX/ADOX schoolbook rows: see mul/basecase_adx.hpp.
#include "mul/basecase_adx.hpp"

#include <cstring>

#include "bigmul/error.hpp"
#include "prim/cpu_features.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BIGMUL_HAVE_ADX_CODE 1
#endif

namespace bigmul::detail {

#if defined(BIGMUL_HAVE_ADX_CODE)

// One limb: hi:lo = a[k] * b (rdx); lo += r[k] + CF (adcx); lo += c + OF
// (adox); r[k] = lo; c = hi. lea and jrcxz leave both flags alone, so the
// chains run through the whole row.
#define BIGMUL_ADX_LIMB(k)                  \
  "mulx " #k "(%[a]), %[lo], %[hi]\n\t"     \
  "adcx " #k "(%[r]), %[lo]\n\t"            \
  "adox %[c], %[lo]\n\t"                    \
  "mov %[lo], " #k "(%[r])\n\t"             \
  "mov %[hi], %[c]\n\t"
// One limb of a first row (nothing to read from r, one chain): lo += c + CF.
#define BIGMUL_MULX_LIMB(k)                 \
  "mulx " #k "(%[a]), %[lo], %[hi]\n\t"     \
  "adcx %[c], %[lo]\n\t"                    \
  "mov %[lo], " #k "(%[r])\n\t"             \
  "mov %[hi], %[c]\n\t"

// The n % 4 leading limbs of a row, straight-line (a loop of single limbs
// costs a visible part of a 9-15-limb product), then the pointers past them.
#define BIGMUL_ADX_ADVANCE(bytes) "lea " #bytes "(%[a]), %[a]\n\t" "lea " #bytes "(%[r]), %[r]\n\t"
#define BIGMUL_PRO_0(L) ""
#define BIGMUL_PRO_1(L) L(0) BIGMUL_ADX_ADVANCE(8)
#define BIGMUL_PRO_2(L) L(0) L(8) BIGMUL_ADX_ADVANCE(16)
#define BIGMUL_PRO_3(L) L(0) L(8) L(16) BIGMUL_ADX_ADVANCE(24)

// A whole row: the leading limbs, then four limbs a pass (rcx passes); the
// carry limb is c plus both flags (fits: r + a b < 2^(64 (n + 1))).
#define BIGMUL_ADX_ROW(PRO, L)                                                               \
  asm volatile("xor %k[lo], %k[lo]\n\t" PRO(L)                                                \
               "jrcxz 5f\n\t"                                                                 \
               "4:\n\t" L(0) L(8) L(16) L(24)                                                 \
               BIGMUL_ADX_ADVANCE(32)                                                         \
               "lea -1(%%rcx), %%rcx\n\t"                                                     \
               "jrcxz 5f\n\t"                                                                 \
               "jmp 4b\n\t"                                                                   \
               "5:\n\t"                                                                       \
               "mov $0, %k[lo]\n\t"                                                           \
               "adcx %[lo], %[c]\n\t"                                                         \
               "adox %[lo], %[c]\n\t"                                                         \
               : [a] "+&r"(a), [r] "+&r"(r), "+c"(quads), [c] "+&r"(c), [lo] "=&r"(lo), [hi] "=&r"(hi) \
               : "d"(b)                                                                       \
               : "cc", "memory")

namespace {

// r[0 .. n) += a * b (ADD) or r[0 .. n) = a * b, n = 4 quads + REM; returns the carry limb.
template <int REM, bool ADD>
[[gnu::always_inline]] inline limb_t row(limb_t* r, const limb_t* a, std::size_t quads, limb_t b) {
  limb_t c = 0, lo, hi;
  if constexpr (ADD) {
    if constexpr (REM == 0) BIGMUL_ADX_ROW(BIGMUL_PRO_0, BIGMUL_ADX_LIMB);
    if constexpr (REM == 1) BIGMUL_ADX_ROW(BIGMUL_PRO_1, BIGMUL_ADX_LIMB);
    if constexpr (REM == 2) BIGMUL_ADX_ROW(BIGMUL_PRO_2, BIGMUL_ADX_LIMB);
    if constexpr (REM == 3) BIGMUL_ADX_ROW(BIGMUL_PRO_3, BIGMUL_ADX_LIMB);
  } else {
    if constexpr (REM == 0) BIGMUL_ADX_ROW(BIGMUL_PRO_0, BIGMUL_MULX_LIMB);
    if constexpr (REM == 1) BIGMUL_ADX_ROW(BIGMUL_PRO_1, BIGMUL_MULX_LIMB);
    if constexpr (REM == 2) BIGMUL_ADX_ROW(BIGMUL_PRO_2, BIGMUL_MULX_LIMB);
    if constexpr (REM == 3) BIGMUL_ADX_ROW(BIGMUL_PRO_3, BIGMUL_MULX_LIMB);
  }
  return c;
}

// The product, rows specialised for an % 4: the first row writes, the
// others add.
template <int REM>
void rows(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn) {
  const std::size_t quads = an / 4;
  r[an] = row<REM, false>(r, a, quads, b[0]);
  for (std::size_t j = 1; j < bn; ++j) r[an + j] = row<REM, true>(r + j, a, quads, b[j]);
}

}  // namespace

#undef BIGMUL_ADX_ROW
#undef BIGMUL_PRO_0
#undef BIGMUL_PRO_1
#undef BIGMUL_PRO_2
#undef BIGMUL_PRO_3
#undef BIGMUL_ADX_ADVANCE
#undef BIGMUL_MULX_LIMB
#undef BIGMUL_ADX_LIMB

limb_t addmul_1_adx(limb_t* r, const limb_t* a, std::size_t n, limb_t b) {
  switch (n % 4) {
    case 0: return row<0, true>(r, a, n / 4, b);
    case 1: return row<1, true>(r, a, n / 4, b);
    case 2: return row<2, true>(r, a, n / 4, b);
    default: return row<3, true>(r, a, n / 4, b);
  }
}

limb_t mul_1_adx(limb_t* r, const limb_t* a, std::size_t n, limb_t b) {
  switch (n % 4) {
    case 0: return row<0, false>(r, a, n / 4, b);
    case 1: return row<1, false>(r, a, n / 4, b);
    case 2: return row<2, false>(r, a, n / 4, b);
    default: return row<3, false>(r, a, n / 4, b);
  }
}

#else

limb_t addmul_1_adx(limb_t*, const limb_t*, std::size_t, limb_t) {
  throw error(error::kind::internal, "bigmul: the MULX/ADX rows are not compiled into this build");
}
limb_t mul_1_adx(limb_t*, const limb_t*, std::size_t, limb_t) {
  throw error(error::kind::internal, "bigmul: the MULX/ADX rows are not compiled into this build");
}

#endif  // BIGMUL_HAVE_ADX_CODE

bool basecase_adx_supported() {
#if defined(BIGMUL_HAVE_ADX_CODE)
  return prim::cpu_has_bmi2_adx();
#else
  return false;
#endif
}

void mul_basecase_adx(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn) {
#if defined(BIGMUL_HAVE_ADX_CODE)
  switch (an % 4) {
    case 0: return rows<0>(r, a, an, b, bn);
    case 1: return rows<1>(r, a, an, b, bn);
    case 2: return rows<2>(r, a, an, b, bn);
    default: return rows<3>(r, a, an, b, bn);
  }
#else
  (void)r, (void)a, (void)an, (void)b, (void)bn;
  throw error(error::kind::internal, "bigmul: the MULX/ADX basecase is not compiled into this build");
#endif
}

}  // namespace bigmul::detail
