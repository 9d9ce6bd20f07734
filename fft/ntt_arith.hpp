// SPDX-License-Identifier: LGPL-3.0-or-later
// Arithmetic modulo the portable engine's NTT primes (fft/ntt.hpp) and the
// CRT constants of fft/ntt_crt.hpp; everything per element is BIGMUL_HD so a
// CUDA NTT could share it (there is none yet).
//
// The portable engine's primes: p < 2^62 leaves room for Harvey's lazy
// butterflies (values kept in [0, 2p), sums in [0, 4p) < 2^64), and
// 3 * 2^32 | p - 1 gives cyclic transforms of every length 2^k and 3 * 2^k up
// to 3 * 2^32. Their product (~2^186) exceeds every convolution coefficient of
// 64-bit limbs, min(an, bn) (2^64 - 1)^2 < 2^162, so three residues determine
// each coefficient exactly (Chinese remaindering, mul/ntt_mul.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "bigmul/hd.hpp"

namespace bigmul::fft {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

struct ntt_prime {
  u64 p;          // the prime, c * 2^32 + 1 with 3 | c
  u64 generator;  // a generator of (Z/p)^*
};

inline constexpr unsigned ntt_prime_count = 3;
inline constexpr ntt_prime ntt_primes[ntt_prime_count] = {
    {0x3fffffb400000001ull, 19},  // 4611685692009873409
    {0x3fffff5d00000001ull, 5},   // 4611685318347718657
    {0x3fffff3000000001ull, 5},   // 4611685125074190337
};
// Transform lengths: m = 2^k or 3 * 2^k with m <= ntt_max_length.
inline constexpr u64 ntt_max_length = u64{3} << 32;

// The vector engines' primes (AVX-512 IFMA, fft/ntt_ifma.hpp; AVX2 + FMA,
// fft/ntt_avx2.hpp): p < 2^50, so that lazy values (< 4p) fit 52-bit
// integer lanes and doubles hold every product's halves exactly; also
// 3 * 2^32 | p - 1. Four of them (~2^200) cover every coefficient.
inline constexpr unsigned ntt52_prime_count = 4;
inline constexpr ntt_prime ntt52_primes[ntt52_prime_count] = {
    {0x3fff300000001ull, 5},   // 1125844072267777
    {0x3ffed00000001ull, 7},   // 1125818302464001
    {0x3ffc000000001ull, 11},  // 1125625028935681
    {0x3ff4b00000001ull, 29},  // 1125122517762049
};

BIGMUL_HD u64 mulhi64(u64 a, u64 b) { return static_cast<u64>((static_cast<u128>(a) * b) >> 64); }

// Shoup's multiplication [SHOUP] by a fixed w < p with w_shoup = floor(w * 2^64 / p):
// for any x < 2^64 the result is congruent to x * w and lies in [0, 2p).
BIGMUL_HD u64 mul_shoup_lazy(u64 x, u64 w, u64 w_shoup, u64 p) {
  const u64 q = mulhi64(x, w_shoup);
  return x * w - q * p;  // exact mod 2^64: the true value is < 2p
}
BIGMUL_HD u64 mul_shoup(u64 x, u64 w, u64 w_shoup, u64 p) {
  const u64 r = mul_shoup_lazy(x, w, w_shoup, p);
  return r >= p ? r - p : r;
}

// x in [0, 4p) -> [0, 2p); x in [0, 2p) -> [0, p).
BIGMUL_HD u64 reduce_4p_to_2p(u64 x, u64 p) { return x >= 2 * p ? x - 2 * p : x; }
BIGMUL_HD u64 reduce_2p_to_p(u64 x, u64 p) { return x >= p ? x - p : x; }

// Any 64-bit value -> [0, 2p) (2^64 < 6p).
BIGMUL_HD u64 reduce_u64_to_2p(u64 x, u64 p) {
  x = x >= 2 * p ? x - 2 * p : x;
  return x >= 2 * p ? x - 2 * p : x;
}

// Montgomery reduction with R = 2^64: for t < p * 2^64, returns t / R mod p in
// [0, 2p). p_neg_inv = -p^{-1} mod 2^64.
BIGMUL_HD u64 montgomery_reduce_lazy(u128 t, u64 p, u64 p_neg_inv) {
  const u64 m = static_cast<u64>(t) * p_neg_inv;
  const u128 s = t + static_cast<u128>(m) * p;  // low 64 bits are zero
  // s < p*2^64 + 2^64*p, so s >> 64 < 2p. The addition cannot wrap: t < 2^126.
  return static_cast<u64>(s >> 64);
}

// Harvey's radix-2 butterflies [HARVEY14] on values in [0, 2p); outputs stay in [0, 2p).
// Decimation in frequency (Gentleman-Sande), forward: (x, y) -> (x + y, (x - y) w).
BIGMUL_HD void butterfly_dif(u64& x, u64& y, u64 w, u64 w_shoup, u64 p) {
  const u64 two_p = 2 * p;
  const u64 s = x + y;
  const u64 d = x - y + two_p;  // (0, 4p)
  x = s >= two_p ? s - two_p : s;
  y = mul_shoup_lazy(d, w, w_shoup, p);
}
// Decimation in time (Cooley-Tukey), inverse, with the twiddle given negated
// (w = -w_true): (x, y) -> (x + y w_true, x - y w_true) = (x - y w, x + y w).
// The inverse twiddle w^-j equals -w^(m/2 - j), so the inverse transform
// reads the forward table backwards and needs no table of its own.
BIGMUL_HD void butterfly_dit_negated(u64& x, u64& y, u64 w_neg, u64 w_neg_shoup, u64 p) {
  const u64 two_p = 2 * p;
  const u64 t = mul_shoup_lazy(y, w_neg, w_neg_shoup, p);  // [0, 2p)
  const u64 a = x - t + two_p;  // (0, 4p)
  const u64 b = x + t;          // [0, 4p)
  x = a >= two_p ? a - two_p : a;
  y = b >= two_p ? b - two_p : b;
}

// Fully reduced sums and differences of values in [0, p), and a Montgomery
// product a b / 2^64 mod p in [0, p) for a < 2p, b < p.
BIGMUL_HD u64 add_mod(u64 a, u64 b, u64 p) {
  const u64 s = a + b;
  return s >= p ? s - p : s;
}
BIGMUL_HD u64 sub_mod(u64 a, u64 b, u64 p) { return a >= b ? a - b : a + p - b; }
BIGMUL_HD u64 mont_mul(u64 a, u64 b, u64 p, u64 p_neg_inv) {
  return reduce_2p_to_p(montgomery_reduce_lazy(static_cast<u128>(a) * b, p, p_neg_inv), p);
}

// Modular helpers for table setup (host, not on hot paths).
inline u64 mul_mod(u64 a, u64 b, u64 p) { return static_cast<u64>(static_cast<u128>(a) * b % p); }
inline u64 pow_mod(u64 a, u64 e, u64 p) {
  u64 r = 1 % p;
  a %= p;
  while (e) {
    if (e & 1) r = mul_mod(r, a, p);
    a = mul_mod(a, a, p);
    e >>= 1;
  }
  return r;
}
inline u64 inv_mod(u64 a, u64 p) { return pow_mod(a, p - 2, p); }
// floor((hi 2^64 + lo) / d) for hi < d: one divq on x86-64 (a 128-bit
// division by a 64-bit divisor otherwise goes through __udivti3).
inline u64 div_128_by_64(u64 hi, u64 lo, u64 d) {
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
  u64 q, r;
  asm("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d));
  (void)r;
  return q;
#else
  return static_cast<u64>(((static_cast<u128>(hi) << 64) | lo) / d);
#endif
}
// Shoup companions for w < p: floor(w 2^64 / p), and floor(w 2^52 / p) for
// the 52-bit lanes of the IFMA engine (p < 2^50).
inline u64 shoup_companion(u64 w, u64 p) { return div_128_by_64(w, 0, p); }
inline u64 shoup52_companion(u64 w, u64 p) { return div_128_by_64(w >> 12, w << 52, p); }
// -p^{-1} mod 2^64 for odd p (Newton iteration on the 2-adic inverse).
constexpr u64 neg_inverse_mod_2_64(u64 p) {
  u64 x = p;  // correct to 3 bits for odd p
  for (int i = 0; i < 5; ++i) x *= 2 - p * x;
  return ~x + 1;
}

}  // namespace bigmul::fft
