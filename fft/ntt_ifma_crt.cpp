// SPDX-License-Identifier: LGPL-3.0-or-later
// Garner's mixed-radix digits for the IFMA engine's four primes
// (fft/ntt_ifma.hpp), 8 coefficients a vector; the scalar fallback is
// fft/ntt_crt.hpp's. And the three-prime decimal digits
// (fft/ntt_decimal_digits.hpp), the same way.
#include <algorithm>

#include "fft/ntt_crt.hpp"
#include "fft/ntt_decimal_digits.hpp"
#include "fft/ntt_ifma.hpp"
#include "fft/ntt_ifma_arith.hpp"

namespace bigmul::fft {
namespace {

using namespace ifma;

#if defined(BIGMUL_HAVE_IFMA_CODE)

// Garner digits of 8 coefficients a step (the first count - count % 8): each
// digit step t = (t - v_j) p_j^{-1} mod p_k is a 52-bit Shoup product.
struct garner52 {
  u64 p[4];
  u64 inv[4][4], inv_q[4][4];  // p_j^{-1} mod p_k and floor(. 2^52 / p_k)
};

const garner_constants<4>& scalar_garner();
const garner52& garner_ifma() {
  static const garner52 G = [] {
    garner52 g{};
    for (unsigned k = 0; k < 4; ++k) g.p[k] = ntt52_primes[k].p;
    for (unsigned k = 0; k < 4; ++k)
      for (unsigned j = 0; j < k; ++j) {
        g.inv[k][j] = scalar_garner().inv[k][j];
        g.inv_q[k][j] = shoup52_companion(g.inv[k][j], g.p[k]);
      }
    return g;
  }();
  return G;
}

BIGMUL_IFMA void mixed_radix_run(const garner52& G, const u64* const res[], std::size_t i, std::size_t count,
                                 u64* v, unsigned used) {
  vconst c[4] = {make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2]), make_vconst(G.p[3])};
  for (std::size_t q = 0; q + 8 <= count; q += 8) {
    __m512i d[4];
    for (unsigned k = 0; k < used; ++k) {
      const __m512i pk = c[k].p;
      __m512i r = load(res[k] + i + q);
      r = _mm512_min_epu64(r, _mm512_sub_epi64(r, pk));  // [0, 2p) -> [0, p)
      for (unsigned j = 0; j < k; ++j) {
        const __m512i vj = _mm512_min_epu64(d[j], _mm512_sub_epi64(d[j], pk));  // v_j < 2 p_k -> [0, p_k)
        const __m512i diff = _mm512_add_epi64(_mm512_sub_epi64(r, vj), pk);   // (0, 2 p_k)
        r = shoup_lazy(diff, _mm512_set1_epi64(ll(G.inv[k][j])), _mm512_set1_epi64(ll(G.inv_q[k][j])), c[k]);
        r = _mm512_min_epu64(r, _mm512_sub_epi64(r, pk));
      }
      d[k] = r;
      store(v + k * count + q, r);
    }
  }
}
#endif  // BIGMUL_HAVE_IFMA_CODE

constexpr u64 decimal_base = 10000000000000000000ull;  // M = 10^19
constexpr u64 five19 = 19073486328125ull;              // F = 5^19
constexpr u64 low19 = (u64{1} << 19) - 1;

// p0 p1 = A1 M + A0 (fft/ntt_decimal_digits.hpp).
struct decimal_constants {
  u64 p0, a0, a1;
  decimal_constants() {
    const u128 pp = static_cast<u128>(ntt52_primes[0].p) * ntt52_primes[1].p;
    p0 = ntt52_primes[0].p;
    a0 = static_cast<u64>(pp % decimal_base);
    a1 = static_cast<u64>(pp / decimal_base);
  }
};
const decimal_constants& decimal_k() {
  static const decimal_constants k;
  return k;
}

#if defined(BIGMUL_HAVE_IFMA_CODE)

// 8 lanes of floor(U / F) and U mod F for U = u1 2^52 + u0 (u0 < 2^52,
// u1 < 2^44, so q < 2^51), without AVX-512 DQ (the engine needs only F and
// IFMA): integers below 2^52 move to and from doubles through the exponent
// of 2^52 (exact). qd = fl(fl(u1 2^52 + u0) (1/F)) is within 3 2^-53
// relative of U / F < 2^50.9, so within 0.7 of it, and q1 = trunc(qd) is
// q - 1, q or q + 1. r1 = U - q1 F (wrapping 64-bit) is then exact and in
// [-F, 2F): one correction each way.
struct div_f_consts {
  __m512d inv_f, two52d;
  __m512i exp52, f_int, one;
};
BIGMUL_IFMA inline __m512d u52_to_pd(__m512i x, const div_f_consts& K) {  // x < 2^52
  return _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(x, K.exp52)), K.two52d);
}
BIGMUL_IFMA inline __m512i pd_to_u52(__m512d x, const div_f_consts& K) {  // integer in [0, 2^52)
  return _mm512_xor_si512(_mm512_castpd_si512(_mm512_add_pd(x, K.two52d)), K.exp52);
}
BIGMUL_IFMA inline void div_f(__m512i u1, __m512i u0, const div_f_consts& K, __m512i& q, __m512i& r) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512d ud = _mm512_fmadd_pd(u52_to_pd(u1, K), K.two52d, u52_to_pd(u0, K));
  q = pd_to_u52(_mm512_roundscale_pd(_mm512_mul_pd(ud, K.inv_f), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC), K);
  const __m512i lo = _mm512_madd52lo_epu64(zero, q, K.f_int), hi = _mm512_madd52hi_epu64(zero, q, K.f_int);
  r = _mm512_add_epi64(_mm512_sub_epi64(u0, lo), _mm512_slli_epi64(_mm512_sub_epi64(u1, hi), 52));
  const __mmask8 neg = _mm512_cmp_epi64_mask(r, zero, _MM_CMPINT_LT);
  r = _mm512_mask_add_epi64(r, neg, r, K.f_int);
  q = _mm512_mask_sub_epi64(q, neg, q, K.one);
  const __mmask8 over = _mm512_cmp_epi64_mask(r, K.f_int, _MM_CMPINT_NLT);
  r = _mm512_mask_sub_epi64(r, over, r, K.f_int);
  q = _mm512_mask_add_epi64(q, over, q, K.one);
}

// [0, 2p) -> [0, p).
BIGMUL_IFMA inline __m512i to_p(__m512i x, const vconst& ck) { return _mm512_min_epu64(x, _mm512_sub_epi64(x, ck.p)); }
// Garner's step t = (t - v) inv mod p_k for v < 2 p_k, t < p_k: into [0, p_k).
BIGMUL_IFMA inline __m512i garner_step(__m512i t, __m512i v, __m512i inv, __m512i invq, const vconst& ck) {
  const __m512i diff = _mm512_add_epi64(_mm512_sub_epi64(t, to_p(v, ck)), ck.p);
  return to_p(shoup_lazy(diff, inv, invq, ck), ck);
}

// Garner's digits v0, v1, v2 (each in [0, p_k)) of 8 coefficients' residues
// in [0, 2p_k) at res[k] + at, three primes.
struct garner3_vec {
  vconst c[3];
  __m512i inv10, inv10q, inv20, inv20q, inv21, inv21q;
};
BIGMUL_IFMA inline garner3_vec make_garner3(const garner52& G) {
  return {{make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2])},
          _mm512_set1_epi64(ll(G.inv[1][0])), _mm512_set1_epi64(ll(G.inv_q[1][0])),
          _mm512_set1_epi64(ll(G.inv[2][0])), _mm512_set1_epi64(ll(G.inv_q[2][0])),
          _mm512_set1_epi64(ll(G.inv[2][1])), _mm512_set1_epi64(ll(G.inv_q[2][1]))};
}
// Garner streams the residue arrays from memory once; its arithmetic
// leaves too few loads in flight for the hardware prefetcher alone, hence
// the prefetch 2 KiB ahead (the arrays are only read).
BIGMUL_IFMA inline void garner3_digits(const garner3_vec& K, const u64* const res[], std::size_t at, __m512i& v0,
                                       __m512i& v1, __m512i& v2) {
  for (unsigned k = 0; k < 3; ++k) _mm_prefetch(reinterpret_cast<const char*>(res[k] + at + 256), _MM_HINT_T0);
  v0 = to_p(load(res[0] + at), K.c[0]);
  v1 = garner_step(to_p(load(res[1] + at), K.c[1]), v0, K.inv10, K.inv10q, K.c[1]);
  v2 = garner_step(garner_step(to_p(load(res[2] + at), K.c[2]), v0, K.inv20, K.inv20q, K.c[2]), v1, K.inv21,
                   K.inv21q, K.c[2]);
}

// Garner (three primes) and the decimal split of 8 coefficients a step
// (the first count - count % 8); the products in 52-bit limbs:
//   S = s0 + s1 2^52 + s2 2^104, T = t0 + t1 2^52.
BIGMUL_IFMA void decimal_digits_run(const garner52& G, const decimal_constants& D, const u64* const res[],
                                    std::size_t i, std::size_t count, u64* d) {
  const garner3_vec GK = make_garner3(G);
  const __m512i zero = _mm512_setzero_si512(), m52 = _mm512_set1_epi64(ll(mask52)),
                m19 = _mm512_set1_epi64(ll(low19));
  const __m512i p0 = _mm512_set1_epi64(ll(D.p0)), a0l = _mm512_set1_epi64(ll(D.a0 & mask52)),
                a0h = _mm512_set1_epi64(ll(D.a0 >> 52)), a1 = _mm512_set1_epi64(ll(D.a1));
  const div_f_consts K{_mm512_set1_pd(1.0 / static_cast<double>(five19)), _mm512_set1_pd(4503599627370496.0),
                       _mm512_set1_epi64(0x4330000000000000ll), _mm512_set1_epi64(ll(five19)), _mm512_set1_epi64(1)};
  // Two passes over blocks of 64: Garner's digits stored, then the split
  // (one loop doing both is bound by its dependency chain).
  constexpr std::size_t block = 64;
  alignas(64) u64 gv[3][block];
  for (std::size_t b0 = 0; b0 + 8 <= count; b0 += block) {
    const std::size_t bend = std::min(count - count % 8, b0 + block);
    for (std::size_t q = b0; q < bend; q += 8) {
      __m512i v0, v1, v2;
      garner3_digits(GK, res, i + q, v0, v1, v2);
      store(gv[0] + (q - b0), v0);
      store(gv[1] + (q - b0), v1);
      store(gv[2] + (q - b0), v2);
    }
    for (std::size_t q = b0; q < bend; q += 8) {
      const __m512i v0 = load(gv[0] + (q - b0)), v1 = load(gv[1] + (q - b0)), v2 = load(gv[2] + (q - b0));
      // S = v0 + p0 v1 + A0 v2, A0 = a0h 2^52 + a0l.
      __m512i s0 = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(v0, p0, v1), a0l, v2);
      __m512i s1 = _mm512_madd52lo_epu64(_mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, p0, v1), a0l, v2), a0h, v2);
      __m512i s2 = _mm512_madd52hi_epu64(zero, a0h, v2);
      s1 = _mm512_add_epi64(s1, _mm512_srli_epi64(s0, 52));
      s0 = _mm512_and_si512(s0, m52);
      s2 = _mm512_add_epi64(s2, _mm512_srli_epi64(s1, 52));
      s1 = _mm512_and_si512(s1, m52);
      // U = S >> 19 = u1 2^52 + u0.
      const __m512i u0 = _mm512_or_si512(_mm512_srli_epi64(s0, 19), _mm512_slli_epi64(_mm512_and_si512(s1, m19), 33));
      const __m512i u1 = _mm512_or_si512(_mm512_srli_epi64(s1, 19), _mm512_slli_epi64(s2, 33));
      __m512i qs, rs;
      div_f(u1, u0, K, qs, rs);
      store(d + q, _mm512_or_si512(_mm512_slli_epi64(rs, 19), _mm512_and_si512(s0, m19)));
      // T = qs + A1 v2.
      __m512i t0 = _mm512_madd52lo_epu64(qs, a1, v2);
      __m512i t1 = _mm512_madd52hi_epu64(zero, a1, v2);
      t1 = _mm512_add_epi64(t1, _mm512_srli_epi64(t0, 52));
      t0 = _mm512_and_si512(t0, m52);
      const __m512i w0 = _mm512_or_si512(_mm512_srli_epi64(t0, 19), _mm512_slli_epi64(_mm512_and_si512(t1, m19), 33));
      const __m512i w1 = _mm512_srli_epi64(t1, 19);
      __m512i qt, rt;
      div_f(w1, w0, K, qt, rt);
      store(d + count + q, _mm512_or_si512(_mm512_slli_epi64(rt, 19), _mm512_and_si512(t0, m19)));
      store(d + 2 * count + q, qt);
    }
  }
}

// Garner and Horner of 8 coefficients a step (the first count - count % 8), in
// 52-bit limbs: y = v1 + p1 v2 = y0 + y1 2^52, x = v0 + p0 y = x0 + x1 2^52
// + x2 2^104 (each limb normalized below 2^52 but the top), then regrouped
// into 64-bit limbs.
BIGMUL_IFMA void crt3_limbs_run(const garner52& G, const u64* const res[], std::size_t i, std::size_t count, u64* x) {
  const garner3_vec GK = make_garner3(G);
  const __m512i zero = _mm512_setzero_si512(), m52 = _mm512_set1_epi64(ll(mask52));
  const __m512i p0 = _mm512_set1_epi64(ll(G.p[0])), p1 = _mm512_set1_epi64(ll(G.p[1]));
  for (std::size_t q = 0; q + 8 <= count; q += 8) {
    __m512i v0, v1, v2;
    garner3_digits(GK, res, i + q, v0, v1, v2);
    // y = v1 + p1 v2 < 2^101.
    const __m512i ylo = _mm512_madd52lo_epu64(v1, p1, v2);  // < 2^53
    const __m512i y0 = _mm512_and_si512(ylo, m52);
    const __m512i y1 = _mm512_add_epi64(_mm512_madd52hi_epu64(zero, p1, v2), _mm512_srli_epi64(ylo, 52));
    // x = v0 + p0 y0 + p0 y1 2^52 < 2^151.
    const __m512i t0 = _mm512_madd52lo_epu64(v0, p0, y0);
    __m512i t1 = _mm512_madd52lo_epu64(_mm512_madd52hi_epu64(_mm512_srli_epi64(t0, 52), p0, y0), p0, y1);
    const __m512i x0 = _mm512_and_si512(t0, m52);
    __m512i t2 = _mm512_madd52hi_epu64(_mm512_srli_epi64(t1, 52), p0, y1);
    t1 = _mm512_and_si512(t1, m52);
    // 52-bit limbs x0, t1, t2 -> 64-bit limbs.
    store(x + q, _mm512_or_si512(x0, _mm512_slli_epi64(t1, 52)));
    store(x + count + q, _mm512_or_si512(_mm512_srli_epi64(t1, 12), _mm512_slli_epi64(t2, 40)));
    store(x + 2 * count + q, _mm512_srli_epi64(t2, 24));
  }
}
#endif  // BIGMUL_HAVE_IFMA_CODE

const garner_constants<4>& scalar_garner() {
  static const garner_constants<4> g(ntt52_primes);
  return g;
}

// The vector runs take the first count - count % 8 coefficients of a group
// (its stride stays count); the scalar code the rest, or all of it without IFMA.
std::size_t vector_part(std::size_t count) {
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (ntt52_supported()) return count - count % 8;
#endif
  (void)count;
  return 0;
}
}  // namespace

void ntt52_crt3_limbs(const u64* const res[], std::size_t i, std::size_t count, u64* x) {
  const std::size_t from = vector_part(count);
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (from != 0) crt3_limbs_run(garner_ifma(), res, i, count, x);
#endif
  const garner_constants<4>& G = scalar_garner();
  const u64 p0 = ntt52_primes[0].p, p1 = ntt52_primes[1].p;
  for (std::size_t q = from; q < count; ++q) {
    const u64 r[4] = {res[0][i + q], res[1][i + q], res[2][i + q], 0};
    u64 v[4] = {};
    G.digits(r, v, 3);
    garner3_horner(v[0], v[1], v[2], p0, p1, x[q], x[count + q], x[2 * count + q]);
  }
}

void ntt52_decimal_split(u64 v0, u64 v1, u64 v2, u64 d[3]) {
  const decimal_constants& D = decimal_k();
  const u128 S = static_cast<u128>(v1) * D.p0 + static_cast<u128>(v2) * D.a0 + v0;
  const u128 T = static_cast<u128>(v2) * D.a1 + static_cast<u64>(S / decimal_base);
  d[0] = static_cast<u64>(S % decimal_base);
  d[1] = static_cast<u64>(T % decimal_base);
  d[2] = static_cast<u64>(T / decimal_base);
}

void ntt52_decimal_digits(const u64* const res[], std::size_t i, std::size_t count, u64* d) {
  const std::size_t from = vector_part(count);
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (from != 0) decimal_digits_run(garner_ifma(), decimal_k(), res, i, count, d);
#endif
  const garner_constants<4>& G = scalar_garner();
  for (std::size_t c = from; c < count; ++c) {
    const u64 r[4] = {res[0][i + c], res[1][i + c], res[2][i + c], 0};
    u64 v[4] = {}, x[3];
    G.digits(r, v, 3);
    ntt52_decimal_split(v[0], v[1], v[2], x);
    d[c] = x[0];
    d[count + c] = x[1];
    d[2 * count + c] = x[2];
  }
}

void ntt52_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
  const std::size_t from = vector_part(count);
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (from != 0) mixed_radix_run(garner_ifma(), res, i, count, v, used);
#endif
  scalar_garner().digits(res, i, count, v, used, from);
}

}  // namespace bigmul::fft
