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

// r[0 .. n) += a[0 .. n) * b; returns the carry limb. n % 4 limbs one at a
// time, then four a pass.
limb_t addmul_1_adx(limb_t* r, const limb_t* a, std::size_t n, limb_t b) {
  limb_t c = 0, lo, hi;
  std::size_t rem = n % 4;
  const std::size_t quads = n / 4;
  asm volatile(
      "xor %k[lo], %k[lo]\n\t"  // CF = OF = 0
      "jrcxz 3f\n\t"
      "1:\n\t" BIGMUL_ADX_LIMB(0)
      "lea 8(%[a]), %[a]\n\t"
      "lea 8(%[r]), %[r]\n\t"
      "lea -1(%%rcx), %%rcx\n\t"
      "jrcxz 3f\n\t"
      "jmp 1b\n\t"
      "3:\n\t"
      "mov %[quads], %%rcx\n\t"
      "jrcxz 5f\n\t"
      "4:\n\t" BIGMUL_ADX_LIMB(0) BIGMUL_ADX_LIMB(8) BIGMUL_ADX_LIMB(16) BIGMUL_ADX_LIMB(24)
      "lea 32(%[a]), %[a]\n\t"
      "lea 32(%[r]), %[r]\n\t"
      "lea -1(%%rcx), %%rcx\n\t"
      "jrcxz 5f\n\t"
      "jmp 4b\n\t"
      "5:\n\t"
      "mov $0, %k[lo]\n\t"  // the carry limb: c + CF + OF (fits: r + a b < 2^(64 (n + 1)))
      "adcx %[lo], %[c]\n\t"
      "adox %[lo], %[c]\n\t"
      : [a] "+&r"(a), [r] "+&r"(r), "+c"(rem), [c] "+&r"(c), [lo] "=&r"(lo), [hi] "=&r"(hi)
      : [quads] "r"(quads), "d"(b)
      : "cc", "memory");
  return c;
}

#undef BIGMUL_ADX_LIMB

#else

limb_t addmul_1_adx(limb_t*, const limb_t*, std::size_t, limb_t) {
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
  std::memset(r, 0, an * sizeof(limb_t));
  for (std::size_t j = 0; j < bn; ++j) r[an + j] = addmul_1_adx(r + j, a, an, b[j]);
#else
  (void)r, (void)a, (void)an, (void)b, (void)bn;
  throw error(error::kind::internal, "bigmul: the MULX/ADX basecase is not compiled into this build");
#endif
}

}  // namespace bigmul::detail
