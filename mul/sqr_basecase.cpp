// SPDX-License-Identifier: LGPL-3.0-or-later
// Schoolbook squaring: see mul/sqr_basecase.hpp.
#include "mul/sqr_basecase.hpp"

#include <utility>

#include "mul/basecase_adx.hpp"
#include "mul/basecase_mac.hpp"
#include "mul/limb_ops.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BIGMUL_SQR_X86 1
#endif

namespace bigmul::detail {
namespace {

// Lengths squared by rows (sqr_rows) rather than columns.
constexpr int sqr_rows_max = 4;

// (c2 : c1 : c0) += 2 (d2 : d1 : d0): a column's off-diagonal sum, doubled.
[[gnu::always_inline]] inline void add_twice(limb_t& c0, limb_t& c1, limb_t& c2, limb_t d0, limb_t d1, limb_t d2) {
#if defined(BIGMUL_SQR_X86)
  asm("add %[d0], %[d0]\n\t"
      "adc %[d1], %[d1]\n\t"
      "adc %[d2], %[d2]\n\t"
      "add %[d0], %[c0]\n\t"
      "adc %[d1], %[c1]\n\t"
      "adc %[d2], %[c2]"
      : [c0] "+r"(c0), [c1] "+r"(c1), [c2] "+r"(c2), [d0] "+r"(d0), [d1] "+r"(d1), [d2] "+r"(d2)
      :
      : "cc");
#else
  d2 = (d2 << 1) | (d1 >> 63);
  d1 = (d1 << 1) | (d0 >> 63);
  d0 <<= 1;
  comba_add(c0, c1, c2, d0);
  c1 += d1;
  c2 += d2 + (c1 < d1);
#endif
}

// (c2 : c1 : c0) += 2 x y.
[[gnu::always_inline]] inline void comba_mac2(limb_t& c0, limb_t& c1, limb_t& c2, limb_t x, limb_t y) {
  const u128 p = static_cast<u128>(x) * y;
#if defined(BIGMUL_SQR_X86)
  asm("add %[pl], %[c0]\n\t"
      "adc %[ph], %[c1]\n\t"
      "adc $0, %[c2]\n\t"
      "add %[pl], %[c0]\n\t"
      "adc %[ph], %[c1]\n\t"
      "adc $0, %[c2]"
      : [c0] "+r"(c0), [c1] "+r"(c1), [c2] "+r"(c2)
      : [pl] "r"(static_cast<limb_t>(p)), [ph] "r"(static_cast<limb_t>(p >> 64))
      : "cc");
#else
  comba_mac(c0, c1, c2, x, y);
  comba_mac(c0, c1, c2, x, y);
#endif
}

// Column K's off-diagonal terms a[I] a[K-I], I < K - I, from I up.
template <int K, int I>
[[gnu::always_inline]] inline void off_diagonal(const limb_t* a, limb_t& d0, limb_t& d1, limb_t& d2) {
  if constexpr (2 * I < K) {
    comba_mac(d0, d1, d2, a[I], a[K - I]);
    off_diagonal<K, I + 1>(a, d0, d1, d2);
  }
}

// Columns K .. 2N-2, each stored once; the last carry is the top limb.
template <int N, int K>
[[gnu::always_inline]] inline void sqr_columns(limb_t* r, const limb_t* a, limb_t c0, limb_t c1) {
  if constexpr (K + 1 < 2 * N) {
    limb_t c2 = 0;
    constexpr int i0 = K + 1 > N ? K + 1 - N : 0;
    if constexpr (2 * i0 + 2 == K || 2 * i0 + 1 == K) {
      // One off-diagonal term: added twice (cheaper than a separate sum and its doubling).
      comba_mac2(c0, c1, c2, a[i0], a[K - i0]);
    } else if constexpr (2 * i0 < K) {
      limb_t d0 = 0, d1 = 0, d2 = 0;
      off_diagonal<K, i0>(a, d0, d1, d2);
      add_twice(c0, c1, c2, d0, d1, d2);
    }
    if constexpr (K % 2 == 0) comba_mac(c0, c1, c2, a[K / 2], a[K / 2]);
    r[K] = c0;
    sqr_columns<N, K + 1>(r, a, c1, c2);
  } else {
    r[K] = c0;  // the square fits: what is left of the carry is one limb
    (void)c1;
  }
}

// The tiniest squares by rows: the off-diagonal triangle row by row (each
// row's multiply-adds independent of the others' until its carry), then the
// doubling and the diagonal in one pass. The column kernels' single
// 192-bit accumulator is one long chain of dependent adds, which at 2-4
// limbs costs more than the multiplications.
template <int N>
[[gnu::always_inline]] inline void sqr_rows(limb_t* r, const limb_t* a) {
  limb_t t[2 * N];
  t[0] = 0;
  t[2 * N - 1] = 0;
  {
    limb_t c = 0;
    for (int j = 1; j < N; ++j) {
      const u128 p = static_cast<u128>(a[0]) * a[j] + c;
      t[j] = static_cast<limb_t>(p);
      c = static_cast<limb_t>(p >> 64);
    }
    t[N] = c;
  }
  for (int i = 1; i + 1 < N; ++i) {
    limb_t c = 0;
    for (int j = i + 1; j < N; ++j) {
      const u128 p = static_cast<u128>(a[i]) * a[j] + t[i + j] + c;
      t[i + j] = static_cast<limb_t>(p);
      c = static_cast<limb_t>(p >> 64);
    }
    t[i + N] = c;
  }
  limb_t bit = 0, carry = 0;  // the bit shifted out of the previous limb pair, the carry of the sum
  for (int i = 0; i < N; ++i) {
    const limb_t d0 = (t[2 * i] << 1) | bit, d1 = (t[2 * i + 1] << 1) | (t[2 * i] >> 63);
    bit = t[2 * i + 1] >> 63;
    const u128 sq = static_cast<u128>(a[i]) * a[i];
    const u128 s = ((static_cast<u128>(d1) << 64) | d0) + carry;
    const u128 u = s + sq;
    carry = (s < carry) + (u < sq);  // (d1 : d0) + carry overflows only when it is 2^128 - 1
    r[2 * i] = static_cast<limb_t>(u);
    r[2 * i + 1] = static_cast<limb_t>(u >> 64);
  }
}

#if defined(BIGMUL_SQR_X86)
// 3 and 4 limbs on MULX/ADCX/ADOX (processors with BMI2 + ADX): the triangle's
// rows in one or two carry chains, then the doubling (ADCX) and the diagonal
// (ADOX) as in double_add_diagonal, all in registers; the compiled rows spend
// their time moving operands to and from mul's fixed registers.
[[gnu::noinline]] void sqr3_adx(limb_t* r, const limb_t* a) {
  limb_t t1, t2, t3, t4, h, z;
  asm volatile(
      "mov (%[a]), %%rdx\n\t"
      "mulx 8(%[a]), %[t1], %[h]\n\t"   // a0 a1
      "mulx 16(%[a]), %[t2], %[t3]\n\t"  // a0 a2
      "add %[h], %[t2]\n\t"
      "adc $0, %[t3]\n\t"
      "mov 8(%[a]), %%rdx\n\t"
      "mulx 16(%[a]), %[h], %[t4]\n\t"   // a1 a2
      "add %[h], %[t3]\n\t"
      "adc $0, %[t4]\n\t"
      // 2 t + diagonal: t0 = t5 = 0.
      "xor %k[z], %k[z]\n\t"
      "mov (%[a]), %%rdx\n\t"
      "mulx %%rdx, %%rdx, %[h]\n\t"
      "mov %%rdx, (%[r])\n\t"
      "adcx %[t1], %[t1]\n\t"
      "adox %[h], %[t1]\n\t"
      "mov %[t1], 8(%[r])\n\t"
      "mov 8(%[a]), %%rdx\n\t"
      "mulx %%rdx, %%rdx, %[h]\n\t"
      "adcx %[t2], %[t2]\n\t"
      "adox %%rdx, %[t2]\n\t"
      "adcx %[t3], %[t3]\n\t"
      "adox %[h], %[t3]\n\t"
      "mov %[t2], 16(%[r])\n\t"
      "mov %[t3], 24(%[r])\n\t"
      "mov 16(%[a]), %%rdx\n\t"
      "mulx %%rdx, %%rdx, %[h]\n\t"
      "adcx %[t4], %[t4]\n\t"
      "adox %%rdx, %[t4]\n\t"
      "adcx %[z], %[h]\n\t"
      "adox %[z], %[h]\n\t"
      "mov %[t4], 32(%[r])\n\t"
      "mov %[h], 40(%[r])\n\t"
      : [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [h] "=&r"(h), [z] "=&r"(z)
      : [a] "r"(a), [r] "r"(r)
      : "rdx", "cc", "memory");
}
// Six temporaries, so that with rdx, a and r it fits the nine registers a
// call may clobber: holding more would push callee-saved registers, a
// visible cost at this size.
// t1 and t2 are final after the first row: they wait in r[1], r[2].
[[gnu::noinline]] void sqr4_adx(limb_t* r, const limb_t* a) {
  limb_t t3, t4, t5, t6, x, y;
  asm volatile(
      "mov (%[a]), %%rdx\n\t"
      "mulx 8(%[a]), %[x], %[y]\n\t"     // a0 a1: t1 = x, y at 2
      "mulx 16(%[a]), %[t5], %[t3]\n\t"  // a0 a2: t5 holds t2
      "mulx 24(%[a]), %[t6], %[t4]\n\t"  // a0 a3: t6 at 3
      "add %[y], %[t5]\n\t"
      "adc %[t6], %[t3]\n\t"
      "adc $0, %[t4]\n\t"
      "mov %[x], 8(%[r])\n\t"
      "mov %[t5], 16(%[r])\n\t"
      // Row 1, a1 (a2 + a3 B) at 3 .. 5, summed apart first: (x, t6, t5).
      "mov 8(%[a]), %%rdx\n\t"
      "mulx 16(%[a]), %[x], %[y]\n\t"
      "mulx 24(%[a]), %[t6], %[t5]\n\t"
      "add %[y], %[t6]\n\t"
      "adc $0, %[t5]\n\t"
      "add %[x], %[t3]\n\t"
      "adc %[t6], %[t4]\n\t"
      "adc $0, %[t5]\n\t"  // rows 0 and 1 sum below B^6: no carry out
      "mov 16(%[a]), %%rdx\n\t"
      "mulx 24(%[a]), %[x], %[t6]\n\t"   // a2 a3 at 5
      "add %[x], %[t5]\n\t"
      "adc $0, %[t6]\n\t"
      // 2 t + diagonal: t0 = t7 = 0; xor clears both flags, mov keeps them.
      "xor %k[x], %k[x]\n\t"
      "mov (%[a]), %%rdx\n\t"
      "mulx %%rdx, %%rdx, %[y]\n\t"
      "mov %%rdx, (%[r])\n\t"
      "mov 8(%[r]), %[x]\n\t"
      "adcx %[x], %[x]\n\t"
      "adox %[y], %[x]\n\t"
      "mov %[x], 8(%[r])\n\t"
      "mov 8(%[a]), %%rdx\n\t"
      "mulx %%rdx, %%rdx, %[y]\n\t"
      "mov 16(%[r]), %[x]\n\t"
      "adcx %[x], %[x]\n\t"
      "adox %%rdx, %[x]\n\t"
      "mov %[x], 16(%[r])\n\t"
      "adcx %[t3], %[t3]\n\t"
      "adox %[y], %[t3]\n\t"
      "mov %[t3], 24(%[r])\n\t"
      "mov 16(%[a]), %%rdx\n\t"
      "mulx %%rdx, %%rdx, %[y]\n\t"
      "adcx %[t4], %[t4]\n\t"
      "adox %%rdx, %[t4]\n\t"
      "adcx %[t5], %[t5]\n\t"
      "adox %[y], %[t5]\n\t"
      "mov %[t4], 32(%[r])\n\t"
      "mov %[t5], 40(%[r])\n\t"
      "mov 24(%[a]), %%rdx\n\t"
      "mulx %%rdx, %%rdx, %[y]\n\t"
      "adcx %[t6], %[t6]\n\t"
      "adox %%rdx, %[t6]\n\t"
      "mov $0, %k[x]\n\t"
      "adcx %[x], %[y]\n\t"
      "adox %[x], %[y]\n\t"
      "mov %[t6], 48(%[r])\n\t"
      "mov %[y], 56(%[r])\n\t"
      : [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5), [t6] "=&r"(t6), [x] "=&r"(x), [y] "=&r"(y)
      : [a] "r"(a), [r] "r"(r)
      : "rdx", "cc", "memory");
}
#endif

// Probed once at load time (as mul/basecase.cpp does).
const bool have_adx_rows = basecase_adx_supported();

template <int N>
void sqr_kernel(limb_t* r, const limb_t* a) {
#if defined(BIGMUL_SQR_X86)
  if constexpr (N == 3 || N == 4)
    if (have_adx_rows) {
      if constexpr (N == 3) sqr3_adx(r, a);
      else sqr4_adx(r, a);
      return;
    }
#endif
  if constexpr (N >= 2 && N <= sqr_rows_max)
    sqr_rows<N>(r, a);
  else
    sqr_columns<N, 0>(r, a, 0, 0);
}

template <int... I>
constexpr sqr_small_table make_table(std::integer_sequence<int, I...>) {
  sqr_small_table t{};
  ((t.f[I] = I == 0 ? nullptr : &sqr_kernel<(I == 0 ? 1 : I)>), ...);
  return t;
}

#if defined(BIGMUL_SQR_X86)
// r[0 .. 2n) = 2 r + sum a_i^2 B^(2i), n >= 1: limb pair (r[2i], r[2i+1]) is
// doubled in one ADCX chain (the bit shifted out of each limb carries into the
// next) while a_i^2 is added in the ADOX chain; lea and jrcxz leave both
// flags alone. Both chains end clear: the result fits in 2n limbs.
void double_add_diagonal(limb_t* r, const limb_t* a, std::size_t n) {
  limb_t lo, hi, x0, x1;
  asm volatile(
      "xor %k[lo], %k[lo]\n\t"
      "1:\n\t"
      "mov (%[a]), %%rdx\n\t"
      "mulx %%rdx, %[lo], %[hi]\n\t"
      "mov (%[r]), %[x0]\n\t"
      "mov 8(%[r]), %[x1]\n\t"
      "adcx %[x0], %[x0]\n\t"
      "adcx %[x1], %[x1]\n\t"
      "adox %[lo], %[x0]\n\t"
      "adox %[hi], %[x1]\n\t"
      "mov %[x0], (%[r])\n\t"
      "mov %[x1], 8(%[r])\n\t"
      "lea 8(%[a]), %[a]\n\t"
      "lea 16(%[r]), %[r]\n\t"
      "lea -1(%%rcx), %%rcx\n\t"
      "jrcxz 2f\n\t"
      "jmp 1b\n\t"
      "2:\n\t"
      : [a] "+&r"(a), [r] "+&r"(r), "+c"(n), [lo] "=&r"(lo), [hi] "=&r"(hi), [x0] "=&r"(x0), [x1] "=&r"(x1)
      :
      : "rdx", "cc", "memory");
}
#endif

}  // namespace

constinit const sqr_small_table sqr_small_kernels =
    make_table(std::make_integer_sequence<int, static_cast<int>(sqr_basecase_small_max) + 1>{});

void sqr_small_without_adx(limb_t* r, const limb_t* a, std::size_t n) {
  switch (n) {
    case 3: return sqr_rows<3>(r, a);
    case 4: return sqr_rows<4>(r, a);
    default: return sqr_small_kernels.f[n](r, a);
  }
}

void sqr_basecase_comba(limb_t* r, const limb_t* a, std::size_t n) {
  u128 carry = 0;  // the previous column's sum >> 64
  for (std::size_t k = 0; k + 1 < 2 * n; ++k) {
    const std::size_t i0 = k + 1 > n ? k + 1 - n : 0;
    u128 dl = 0;  // off-diagonal sum: dh 2^128 + dl
    limb_t dh = 0;
    for (std::size_t i = i0; 2 * i < k; ++i) {
      const u128 p = static_cast<u128>(a[i]) * a[k - i];
      dl += p;
      dh += dl < p;
    }
    dh = (dh << 1) | static_cast<limb_t>(dl >> 127);
    dl <<= 1;
    u128 low = carry + dl;  // the column sum is high 2^128 + low
    limb_t high = dh + (low < dl);
    if (k % 2 == 0) {
      const u128 p = static_cast<u128>(a[k / 2]) * a[k / 2];
      low += p;
      high += low < p;
    }
    r[k] = static_cast<limb_t>(low);
    carry = (static_cast<u128>(high) << 64) | static_cast<limb_t>(low >> 64);
  }
  r[2 * n - 1] = static_cast<limb_t>(carry);
}

void sqr_basecase_adx(limb_t* r, const limb_t* a, std::size_t n) {
#if defined(BIGMUL_SQR_X86)
  // The triangle sum_{i<j} a_i a_j B^(i+j): row i adds a_i a[i+1 .. n) at
  // limb 2i+1, its carry limb lands at n+i (first written there).
  r[0] = 0;
  r[n] = mul_1_adx(r + 1, a + 1, n - 1, a[0]);
  for (std::size_t i = 1; i + 1 < n; ++i) r[n + i] = addmul_1_adx(r + 2 * i + 1, a + i + 1, n - 1 - i, a[i]);
  r[2 * n - 1] = 0;
  double_add_diagonal(r, a, n);
#else
  sqr_basecase_comba(r, a, n);
#endif
}

void sqr_basecase(limb_t* r, const limb_t* a, std::size_t n) {
  if (n <= sqr_basecase_small_max) {
    sqr_small_kernels.f[n](r, a);
    return;
  }
  if (have_adx_rows) {
    sqr_basecase_adx(r, a, n);
    return;
  }
  sqr_basecase_comba(r, a, n);
}

}  // namespace bigmul::detail
