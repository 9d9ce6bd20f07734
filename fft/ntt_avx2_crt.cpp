// Garner's mixed-radix digits for the AVX2 engine's four primes
// (fft/ntt_avx2.hpp), 4 coefficients a vector; the scalar fallback is
// fft/ntt_crt.hpp's. And the three-prime decimal digits
// (fft/ntt_decimal_digits.hpp) the same way, 4 a vector.
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_avx2_arith.hpp"
#include "fft/ntt_crt.hpp"
#include "fft/ntt_decimal_digits.hpp"

namespace bigmul::fft {
namespace {

using namespace avx2;

#if defined(BIGMUL_HAVE_AVX2_CODE)

// Garner digits of 4 coefficients a step (count a multiple of 4): each step
// t = (t - v_j) p_j^{-1} mod p_k is a Shoup product of |t - v_j| < 3 p_k.
struct garner_avx2 {
  u64 p[4];
  double inv[4][4], inv_p[4][4];  // p_j^{-1} mod p_k (signed) and / p_k
};

BIGMUL_AVX2 void mixed_radix_run(const garner_avx2& G, const u64* const res[], std::size_t i, std::size_t count,
                                 u64* v, unsigned used) {
  const vconst c[4] = {make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2]), make_vconst(G.p[3])};
  const __m256d zero = _mm256_setzero_pd(), two52v = _mm256_set1_pd(two52);
  for (std::size_t q = 0; q < count; q += 4) {
    __m256d d[4];
    for (unsigned k = 0; k < used; ++k) {
      __m256d r = load_u64(res[k] + i + q, c[k]);  // [-p, p)
      for (unsigned j = 0; j < k; ++j)
        r = mulmod_shoup(_mm256_sub_pd(r, d[j]), _mm256_set1_pd(G.inv[k][j]), _mm256_set1_pd(G.inv_p[k][j]), c[k]);
      // (-p, p) -> [0, p): the digit.
      r = _mm256_add_pd(r, _mm256_and_pd(_mm256_cmp_pd(r, zero, _CMP_LT_OQ), c[k].p));
      d[k] = r;
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(v + k * count + q),
                          _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(r, two52v)), c[k].exp52));
    }
  }
}

// The decimal split (fft/ntt_decimal_digits.hpp's math: M = 10^19 = 2^19 F,
// F = 5^19, p0 p1 = A1 M + A0) without 64-bit multiplies or IFMA. A
// quotient below 2^51 is found in double and fixed by a remainder that is
// exact, either in double (small) or modulo 2^64 in integer lanes (the low
// 64 bits of a product from three 32 x 32 multiplies). Bounds, per lane,
// with v0 < p0, v1 < p1, v2 < p2 (all < 2^50), A0 < 2^63.12, A1 < 2^37:
//  S = v0 + p0 v1 + A0 v2 < 2^113.2. S mod 2^64 exactly (integers). Sd =
//   fl(fl(A0) v2 + fl(p0 v1 + v0)) 2^-64 (two FMAs on constants scaled by
//   2^-64, exact): |Sd - S 2^-64| <= 2^-4 (rounding near 2^50) + 2^10 2^50
//   2^-64 (fl(A0)) + 2^-17 < 2^-2.9. With h the top 32 bits of S mod 2^64,
//   x = fl(Sd - h 2^-32) is S_hi + (low 32 bits) 2^-64 within 2^-2.9 +
//   2^-3 (its rounding below 2^50): S_hi = floor(S / 2^64) = round(x)
//   (< 2^50, read from the bits of x + 1.5 2^52).
//  U = floor(S / 2^19) = u1 2^52 + u0 (u1 = S_hi >> 7 < 2^43, u0 < 2^52).
//   q = trunc(fl(fl(u1 2^52 + u0) fl(1/F))): three roundings, relative
//   3 2^-53 of U / F < 2^50.9, so within 0.7: floor(U / F) - 1 .. + 1.
//   r = U - q F in double: h = fl(q F), l = q F - h (FMA, exact, |l| <=
//   2^42 as h < 2^96); u1 2^52 - h = r - u0 + l has magnitude < 2^53 and is
//   exact, then + u0 and - l stay exact integers below 2^53: r exact, in
//   [-F, 2F); one correction each way gives qs = floor(U / F) < 2^51 and
//   rs = U mod F, so d0 = rs 2^19 + (S mod 2^19).
//  T = qs + A1 v2 < 2^88. T mod 2^64 exactly (integers). Td = fl(A1 v2 +
//   qs) (one FMA, A1 exact) is within 2^34; e = fl(Td fl(1/M) - 2^-25)
//   (one FMA) is within 2^-28 (fl(1/M), T / M < 2^25) + 2^-29.1 (Td) +
//   2^-28 (its rounding) < 2^-26.4 of T / M - 2^-25, so in (T / M - 1,
//   T / M): qt~ = trunc(e) is floor(T / M) or one less, r = T - qt~ M lies
//   in [0, M + 2^39) (< 2^64, exact from r mod 2^64), and one correction
//   (unsigned r >= M) gives d1 = r, d2 = qt < 2^25.
struct decimal_avx2 {
  double p0, a0, a1;  // p0 and A1 exact; A0 rounded (within 2^10)
  u64 p0i, a0i, a1i;
};

// Low 64 bits of a b, b = bh 2^32 + bl (bl, bh broadcast in the lanes' low halves).
BIGMUL_AVX2 inline __m256i mullo64(__m256i a, __m256i bl, __m256i bh) {
  const __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), bl), _mm256_mul_epu32(a, bh));
  return _mm256_add_epi64(_mm256_mul_epu32(a, bl), _mm256_slli_epi64(cross, 32));
}
BIGMUL_AVX2 inline __m256i low32(std::uint64_t b) {
  return _mm256_set1_epi64x(static_cast<long long>(b & 0xffffffffu));
}
BIGMUL_AVX2 inline __m256i high32(std::uint64_t b) { return _mm256_set1_epi64x(static_cast<long long>(b >> 32)); }
// Integers below 2^52 between the lanes' u64 and double forms (exact, via the exponent of 2^52).
BIGMUL_AVX2 inline __m256d u52_to_pd(__m256i x, __m256i exp52, __m256d two52v) {
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, exp52)), two52v);
}
BIGMUL_AVX2 inline __m256i pd_to_u52(__m256d x, __m256i exp52, __m256d two52v) {
  return _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(x, two52v)), exp52);
}
// (-p, p) -> [0, p).
BIGMUL_AVX2 inline __m256d to_nonnegative(__m256d r, const vconst& c) {
  return _mm256_add_pd(r, _mm256_and_pd(_mm256_cmp_pd(r, _mm256_setzero_pd(), _CMP_LT_OQ), c.p));
}

// Coefficients [i, i + count) with count a multiple of 4; d's stride is `stride`.
BIGMUL_AVX2 void decimal_digits_run(const garner_avx2& G, const decimal_avx2& D, const u64* const res[],
                                    std::size_t i, std::size_t count, u64* d, std::size_t stride) {
  constexpr u64 M = 10000000000000000000ull, F = 19073486328125ull;
  const vconst c[3] = {make_vconst(G.p[0]), make_vconst(G.p[1]), make_vconst(G.p[2])};
  const __m256d two52v = _mm256_set1_pd(two52), magic = _mm256_set1_pd(magic_round),
                two_m32 = _mm256_set1_pd(0x1p-32), two_m64 = _mm256_set1_pd(0x1p-64),
                bias = _mm256_set1_pd(0x1p-25),
                fd = _mm256_set1_pd(static_cast<double>(F)), inv_f = _mm256_set1_pd(1.0 / static_cast<double>(F)),
                inv_m = _mm256_set1_pd(1.0 / static_cast<double>(M)), one = _mm256_set1_pd(1.0),
                zero = _mm256_setzero_pd(), p0d = _mm256_set1_pd(D.p0 * 0x1p-64),
                a0d = _mm256_set1_pd(D.a0 * 0x1p-64), a1d = _mm256_set1_pd(D.a1);
  const __m256d inv10 = _mm256_set1_pd(G.inv[1][0]), inv10p = _mm256_set1_pd(G.inv_p[1][0]),
                inv20 = _mm256_set1_pd(G.inv[2][0]), inv20p = _mm256_set1_pd(G.inv_p[2][0]),
                inv21 = _mm256_set1_pd(G.inv[2][1]), inv21p = _mm256_set1_pd(G.inv_p[2][1]);
  const __m256i exp52 = _mm256_set1_epi64x(0x4330000000000000ll),
                magic_bits = _mm256_set1_epi64x(0x4338000000000000ll), m52 = _mm256_set1_epi64x((1ll << 52) - 1),
                m19 = _mm256_set1_epi64x((1ll << 19) - 1),
                p0l = low32(D.p0i), p0h = high32(D.p0i), a0l = low32(D.a0i), a0h = high32(D.a0i),
                a1l = low32(D.a1i), a1h = high32(D.a1i), ml = low32(M), mh = high32(M),
                mv = _mm256_set1_epi64x(static_cast<long long>(M)), sign = _mm256_set1_epi64x(1ll << 63),
                m_top = _mm256_set1_epi64x(static_cast<long long>((M - 1) ^ (u64{1} << 63)));
  for (std::size_t q = 0; q < count; q += 4) {
    // Garner's digits (as ntt_avx2_mixed_radix_digits): |t - v_j| < p_k + p_j < 2^52.
    const __m256d v0 = to_nonnegative(load_u64(res[0] + i + q, c[0]), c[0]);
    const __m256d t1 = mulmod_shoup(_mm256_sub_pd(load_u64(res[1] + i + q, c[1]), v0), inv10, inv10p, c[1]);
    const __m256d v1 = to_nonnegative(t1, c[1]);
    const __m256d t2 = mulmod_shoup(_mm256_sub_pd(load_u64(res[2] + i + q, c[2]), v0), inv20, inv20p, c[2]);
    const __m256d v2 = to_nonnegative(mulmod_shoup(_mm256_sub_pd(t2, v1), inv21, inv21p, c[2]), c[2]);
    const __m256i v0i = pd_to_u52(v0, exp52, two52v), v1i = pd_to_u52(v1, exp52, two52v),
                  v2i = pd_to_u52(v2, exp52, two52v);
    // S mod 2^64 and S_hi.
    const __m256i slo = _mm256_add_epi64(_mm256_add_epi64(v0i, mullo64(v1i, p0l, p0h)), mullo64(v2i, a0l, a0h));
    const __m256d sd = _mm256_fmadd_pd(a0d, v2, _mm256_fmadd_pd(p0d, v1, _mm256_mul_pd(v0, two_m64)));  // S 2^-64
    const __m256d hi32 = u52_to_pd(_mm256_srli_epi64(slo, 32), exp52, two52v);
    // x + 1.5 2^52 holds round(x) in its low bits (x < 2^51).
    const __m256i shii = _mm256_sub_epi64(
        _mm256_castpd_si256(_mm256_add_pd(_mm256_fnmadd_pd(hi32, two_m32, sd), magic)), magic_bits);
    // U = S >> 19 = u1 2^52 + u0; qs, rs = U divmod F.
    const __m256i u0i = _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(slo, 19), _mm256_slli_epi64(shii, 45)), m52);
    const __m256d u0 = u52_to_pd(u0i, exp52, two52v);
    const __m256d u1 = _mm256_mul_pd(u52_to_pd(_mm256_srli_epi64(shii, 7), exp52, two52v), two52v);  // u1 2^52
    __m256d qs = _mm256_round_pd(_mm256_mul_pd(_mm256_add_pd(u1, u0), inv_f), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256d h = _mm256_mul_pd(qs, fd), l = _mm256_fmsub_pd(qs, fd, h);
    __m256d rs = _mm256_sub_pd(_mm256_add_pd(_mm256_sub_pd(u1, h), u0), l);
    const __m256d neg = _mm256_cmp_pd(rs, zero, _CMP_LT_OQ);
    rs = _mm256_add_pd(rs, _mm256_and_pd(neg, fd));
    qs = _mm256_sub_pd(qs, _mm256_and_pd(neg, one));
    const __m256d over = _mm256_cmp_pd(rs, fd, _CMP_GE_OQ);
    rs = _mm256_sub_pd(rs, _mm256_and_pd(over, fd));
    qs = _mm256_add_pd(qs, _mm256_and_pd(over, one));
    const __m256i d0 = _mm256_or_si256(_mm256_slli_epi64(pd_to_u52(rs, exp52, two52v), 19), _mm256_and_si256(slo, m19));
    // T = qs + A1 v2; qt, d1 = T divmod M.
    const __m256i qsi = pd_to_u52(qs, exp52, two52v);
    const __m256i tlo = _mm256_add_epi64(qsi, mullo64(v2i, a1l, a1h));
    const __m256d e = _mm256_round_pd(_mm256_fmsub_pd(_mm256_fmadd_pd(a1d, v2, qs), inv_m, bias),
                                      _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    __m256i qt = pd_to_u52(e, exp52, two52v);
    const __m256i qm = _mm256_add_epi64(_mm256_mul_epu32(qt, ml), _mm256_slli_epi64(_mm256_mul_epu32(qt, mh), 32));
    __m256i r = _mm256_sub_epi64(tlo, qm);
    const __m256i rover = _mm256_cmpgt_epi64(_mm256_xor_si256(r, sign), m_top);  // unsigned r >= M: all ones
    r = _mm256_sub_epi64(r, _mm256_and_si256(rover, mv));
    qt = _mm256_sub_epi64(qt, rover);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + q), d0);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + stride + q), r);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 2 * stride + q), qt);
  }
}
#endif  // BIGMUL_HAVE_AVX2_CODE

const garner_constants<4>& scalar_garner() {
  static const garner_constants<4> g(ntt52_primes);
  return g;
}

#if defined(BIGMUL_HAVE_AVX2_CODE)
const garner_avx2& garner_vector() {
  static const garner_avx2 G = [] {
    garner_avx2 g{};
    for (unsigned k = 0; k < 4; ++k) g.p[k] = ntt52_primes[k].p;
    for (unsigned k = 0; k < 4; ++k)
      for (unsigned j = 0; j < k; ++j) {
        g.inv[k][j] = signed_rep(scalar_garner().inv[k][j], g.p[k]);
        g.inv_p[k][j] = g.inv[k][j] / static_cast<double>(g.p[k]);
      }
    return g;
  }();
  return G;
}
const decimal_avx2& decimal_vector() {
  static const decimal_avx2 D = [] {
    constexpr u64 M = 10000000000000000000ull;
    const u128 pp = static_cast<u128>(ntt52_primes[0].p) * ntt52_primes[1].p;
    decimal_avx2 k{};
    k.p0i = ntt52_primes[0].p;
    k.a0i = static_cast<u64>(pp % M);
    k.a1i = static_cast<u64>(pp / M);
    k.p0 = static_cast<double>(k.p0i);
    k.a0 = static_cast<double>(k.a0i);
    k.a1 = static_cast<double>(k.a1i);
    return k;
  }();
  return D;
}
#endif

}  // namespace

void ntt_avx2_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (count % 4 == 0 && ntt_avx2_supported()) return mixed_radix_run(garner_vector(), res, i, count, v, used);
#endif
  scalar_garner().digits(res, i, count, v, used);
}

void ntt_avx2_decimal_digits(const u64* const res[], std::size_t i, std::size_t count, u64* d) {
  std::size_t done = 0;
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (ntt_avx2_supported()) {
    done = count & ~std::size_t{3};
    if (done) decimal_digits_run(garner_vector(), decimal_vector(), res, i, done, d, count);
  }
#endif
  // The tail (count mod 4) and processors without AVX2: the scalar reference.
  for (std::size_t c = done; c < count; ++c) {
    const u64 r[4] = {res[0][i + c], res[1][i + c], res[2][i + c], 0};
    u64 v[4] = {}, x[3];
    scalar_garner().digits(r, v, 3);
    ntt52_decimal_split(v[0], v[1], v[2], x);
    d[c] = x[0];
    d[count + c] = x[1];
    d[2 * count + c] = x[2];
  }
}

}  // namespace bigmul::fft
