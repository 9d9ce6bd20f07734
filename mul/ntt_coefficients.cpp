// SPDX-License-Identifier: LGPL-3.0-or-later
// Limbs -> b-bit NTT coefficients as residues (see mul/ntt_coefficients.hpp).
#include "mul/ntt_coefficients.hpp"

#include <algorithm>
#include <numeric>

#include "fft/ntt_arith.hpp"
#include "fft/ntt_avx2_arith.hpp"
#include "prim/cpu_features.hpp"
#include "prim/ifma_target.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {
namespace {

// The vector steps' lane patterns (AVX-512 and AVX2 alike): lane l's first
// word as an offset from the step's first, and its shift.
struct lane_at {
  long long word, shift;
};
// Coefficient first + l of a bit-split cut: its first limb from the one
// coefficient `first` starts in, and its bit in that limb.
inline lane_at cut_lane(std::size_t first, unsigned l, unsigned bits) {
  const std::size_t off = (first + l) * bits;
  return {static_cast<long long>((off >> 6) - ((first * bits) >> 6)), static_cast<long long>(off & 63)};
}
// Packed word r + l: the residue it starts in from the one word r starts
// in, and that residue's bit at the word's start.
inline lane_at pack_lane(std::size_t r, unsigned l, unsigned width) {
  const std::size_t k = r + l, c = 64 * k / width;
  return {static_cast<long long>(c - 64 * r / width), static_cast<long long>(64 * k - c * width)};
}

// f(v, l, a) for lane l of step v of a run's pattern (steps of `lanes`
// coefficients): a = cut_lane(lanes v, l, bits).
template <class F>
void for_each_cut_lane(unsigned steps, unsigned lanes, unsigned bits, F f) {
  for (unsigned v = 0; v < steps; ++v)
    for (unsigned l = 0; l < lanes; ++l) f(v, l, cut_lane(std::size_t{lanes} * v, l, bits));
}

// A run's lane patterns for `bits`, built once per thread and kept while
// the thread's runs keep the same coefficient size.
template <class Pattern, Pattern (*Build)(unsigned)>
const Pattern& patterns_for(unsigned bits) {
  thread_local unsigned cached_bits = 0;
  thread_local Pattern P;
  if (cached_bits != bits) {
    P = Build(bits);
    cached_bits = bits;
  }
  return P;
}

#if defined(BIGMUL_HAVE_IFMA_CODE)
// Coefficients j .. j + 8 (j a multiple of 8) in one step: coefficient j + l
// reads limbs i_l = (j + l) bits / 64 and i_l + 1, at most 9 limbs from
// i_0 on (bits < 64), which two loads of 8 and two lane permutes bring
// together. Which lane reads which limb, and its shift, repeat every 64
// coefficients (64 bits is a multiple of the bit offset's period), so eight
// (permute, shift) patterns serve a whole run. Reads src[i_0 .. i_0 + 16):
// ntt_extract_coefficients keeps (j_end - 8) bits / 64 + 16 <= len. The
// prefetch 3 KiB ahead: as extract_run_avx2's below.
struct extract_pattern {
  alignas(64) long long lo[8][8], shift[8][8];
};
extract_pattern extract_patterns(unsigned bits) {
  extract_pattern P{};
  for_each_cut_lane(8, 8, bits, [&](unsigned v, unsigned l, lane_at a) {
    P.lo[v][l] = a.word;
    P.shift[v][l] = a.shift;
  });
  return P;
}
// dst[j - b] for j in [j_begin, j_end) (multiples of 8).
BIGMUL_IFMA void extract_run_ifma(std::uint64_t* dst, const limb_t* src, std::size_t b, std::size_t j_begin,
                                  std::size_t j_end, unsigned bits) {
  const extract_pattern& P = patterns_for<extract_pattern, extract_patterns>(bits);
  const __m512i mask = _mm512_set1_epi64(static_cast<long long>((std::uint64_t{1} << bits) - 1)),
                one = _mm512_set1_epi64(1), s63 = _mm512_set1_epi64(63);
  for (std::size_t j = j_begin; j < j_end; j += 8) {
    const unsigned v = static_cast<unsigned>((j >> 3) & 7);
    const limb_t* at = src + ((j * bits) >> 6);
    _mm_prefetch(reinterpret_cast<const char*>(at + 384), _MM_HINT_T0);
    const __m512i x0 = _mm512_loadu_si512(at), x1 = _mm512_loadu_si512(at + 8);
    const __m512i ilo = _mm512_load_si512(P.lo[v]), sh = _mm512_load_si512(P.shift[v]);
    const __m512i lo = _mm512_permutex2var_epi64(x0, ilo, x1);
    const __m512i hi = _mm512_permutex2var_epi64(x0, _mm512_add_epi64(ilo, one), x1);
    // (hi << 1) << (63 - s): hi << (64 - s), 0 when s == 0.
    const __m512i w = _mm512_or_si512(_mm512_srlv_epi64(lo, sh),
                                      _mm512_sllv_epi64(_mm512_add_epi64(hi, hi), _mm512_sub_epi64(s63, sh)));
    _mm512_storeu_si512(dst + (j - b), _mm512_and_si512(w, mask));
  }
}
#endif

#if defined(BIGMUL_HAVE_AVX2_CODE)
// The same 4 a vector with AVX2 (the AVX2 engine, and processors without
// AVX-512): coefficient j + l (j a multiple of 4, bits < 64) reads limbs i_l
// and i_l + 1 with i_l - i_0 <= (63 + 3 * 63) / 64 = 3, so the four limbs
// from i_0 and the four from i_0 + 1, each permuted by 32-bit pairs, give
// every lane its two; the pattern repeats every 16 steps (64 coefficients).
// Reads src[i_0 .. i_0 + 5): the caller keeps (j_end - 4) bits / 64 + 5 <= len.
// The prefetch 3 KiB ahead: the limbs stream from memory once per prime, and
// the hardware prefetcher alone left this loop waiting on them.
struct extract_pattern4 {
  alignas(32) int pair[16][8];  // limb d of a lane as 32-bit halves 2d, 2d + 1
  alignas(32) long long shift[16][4];
};
extract_pattern4 extract_patterns4(unsigned bits) {
  extract_pattern4 P{};
  for_each_cut_lane(16, 4, bits, [&](unsigned v, unsigned l, lane_at a) {
    P.pair[v][2 * l] = static_cast<int>(2 * a.word);
    P.pair[v][2 * l + 1] = static_cast<int>(2 * a.word + 1);
    P.shift[v][l] = a.shift;
  });
  return P;
}
// dst[j - b] for j in [j_begin, j_end) (multiples of 4).
BIGMUL_AVX2 void extract_run_avx2(std::uint64_t* dst, const limb_t* src, std::size_t b, std::size_t j_begin,
                                  std::size_t j_end, unsigned bits) {
  const extract_pattern4& P = patterns_for<extract_pattern4, extract_patterns4>(bits);
  const __m256i mask = _mm256_set1_epi64x(static_cast<long long>((std::uint64_t{1} << bits) - 1)),
                s63 = _mm256_set1_epi64x(63);
  for (std::size_t j = j_begin; j < j_end; j += 4) {
    const unsigned v = static_cast<unsigned>((j >> 2) & 15);
    const limb_t* at = src + ((j * bits) >> 6);
    _mm_prefetch(reinterpret_cast<const char*>(at + 384), _MM_HINT_T0);
    const __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)),
                  x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + 1));
    const __m256i pair = _mm256_load_si256(reinterpret_cast<const __m256i*>(P.pair[v])),
                  sh = _mm256_load_si256(reinterpret_cast<const __m256i*>(P.shift[v]));
    const __m256i lo = _mm256_permutevar8x32_epi32(x0, pair), hi = _mm256_permutevar8x32_epi32(x1, pair);
    // (hi << 1) << (63 - s): hi << (64 - s), 0 when s == 0.
    const __m256i w = _mm256_or_si256(_mm256_srlv_epi64(lo, sh),
                                      _mm256_sllv_epi64(_mm256_add_epi64(hi, hi), _mm256_sub_epi64(s63, sh)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + (j - b)), _mm256_and_si256(w, mask));
  }
}
#endif

}  // namespace

namespace {

// A prime's constants for the wide cut, kept per thread for the prime last
// used (the fills come 512 coefficients at a time, prime by prime): the
// scalar reduction's, and 2^43 and 2^86 mod p as signed doubles with their
// quotients by p for the vector lanes' Shoup products.
struct wide_constants {
  ntt_wide_modulus m{0};
  double w1 = 0, w1_p = 0, w2 = 0, w2_p = 0;
};
const wide_constants& wide_constants_for(std::uint64_t p) {
  thread_local wide_constants c;
  if (c.m.p != p) {
    c.m = ntt_wide_modulus(p);
    const std::uint64_t r1 = static_cast<std::uint64_t>((fft::u128{1} << 43) % p),
                        r2 = static_cast<std::uint64_t>(static_cast<fft::u128>(r1) * r1 % p);
    const double pd = static_cast<double>(p);
    c.w1 = fft::avx2::signed_rep(r1, p);
    c.w2 = fft::avx2::signed_rep(r2, p);
    c.w1_p = c.w1 / pd;
    c.w2_p = c.w2 / pd;
  }
  return c;
}

#if defined(BIGMUL_HAVE_AVX2_CODE)
// Wide coefficients j .. j + 4 mod p (p < 2^50) in doubles, 4 a vector
// [FFTSMALL]: each coefficient's 128-bit window cut into 43-bit
// pieces c0 + c1 2^43 + c2 2^86 (b <= 127: c2 < 2^41), exact doubles; c1
// (2^43 mod p) and c2 (2^86 mod p) are Shoup products within p/2 + 1 each
// (fft/ntt_avx2_arith.hpp), the sum below 2^51 reduced to [-p/2 - 1, p/2 + 1]
// and moved into [0, p).
// The cut in vector too: lane l (coefficient j + l, j a multiple of 4)
// reads the three limbs from its first, i_l = (j + l) bits / 64, as two
// 128-bit loads, lanes paired into vectors and unpacked into one vector per
// limb of the window. The lanes' limb offsets from i_0 and shifts repeat
// every 16 steps (64 coefficients, wide_patterns4). Why not scalar: a
// variable shift pair per limb, without BMI2's shlx/shrx, is several
// micro-ops on Intel cores, and the scalar cut cost more than the
// arithmetic. The prefetch 1.5 KiB ahead: the limbs stream from memory once
// per prime, and each step's long arithmetic leaves too few loads in flight
// for the hardware prefetcher alone. Reads src[i_l .. i_l + 4): the caller
// keeps j bits / 64 + 4 <= len for every coefficient j.
struct wide_pattern4 {
  alignas(32) long long shift[16][4];
  long long word[16][4];
};
wide_pattern4 wide_patterns4(unsigned bits) {
  wide_pattern4 P{};
  for_each_cut_lane(16, 4, bits, [&](unsigned v, unsigned l, lane_at a) {
    P.word[v][l] = a.word;
    P.shift[v][l] = a.shift;
  });
  return P;
}
// x < 2^52 as doubles (a named function: clang gives a lambda no target).
BIGMUL_AVX2 inline __m256d exact_double(__m256i x, const fft::avx2::vconst& c) {
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, c.exp52)), _mm256_set1_pd(fft::avx2::two52));
}
// Limbs hi[0 .. 2) in the upper 128-bit lane, lo[0 .. 2) in the lower.
BIGMUL_AVX2 inline __m256i pair_load(const limb_t* hi, const limb_t* lo) {
  return _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(hi), reinterpret_cast<const __m128i*>(lo));
}
// dst[j - b] for j in [j_begin, j_end) (multiples of 4).
BIGMUL_AVX2 void wide_residues_avx2(std::uint64_t* dst, const limb_t* src, std::size_t b, std::size_t j_begin,
                                    std::size_t j_end, unsigned bits, const wide_constants& k) {
  using namespace fft::avx2;
  const wide_pattern4& P = patterns_for<wide_pattern4, wide_patterns4>(bits);
  const vconst c = make_vconst(k.m.p);
  const __m256d W1 = _mm256_set1_pd(k.w1), W1p = _mm256_set1_pd(k.w1_p), W2 = _mm256_set1_pd(k.w2),
                W2p = _mm256_set1_pd(k.w2_p), two52v = _mm256_set1_pd(two52), zero = _mm256_setzero_pd();
  const __m256i m43 = _mm256_set1_epi64x((1ll << 43) - 1), s64 = _mm256_set1_epi64x(64),
                hmask = _mm256_set1_epi64x(static_cast<long long>((std::uint64_t{1} << (bits - 64)) - 1));
  for (std::size_t j = j_begin; j < j_end; j += 4) {
    const unsigned v = static_cast<unsigned>((j >> 2) & 15);
    const limb_t* at = src + ((j * bits) >> 6);
    _mm_prefetch(reinterpret_cast<const char*>(at + 192), _MM_HINT_T0);
    const limb_t *a0 = at + P.word[v][0], *a1 = at + P.word[v][1], *a2 = at + P.word[v][2], *a3 = at + P.word[v][3];
    const __m256i p0 = pair_load(a2, a0), p1 = pair_load(a3, a1), q0 = pair_load(a2 + 2, a0 + 2),
                  q1 = pair_load(a3 + 2, a1 + 2);
    const __m256i w0 = _mm256_unpacklo_epi64(p0, p1), w1 = _mm256_unpackhi_epi64(p0, p1),
                  w2 = _mm256_unpacklo_epi64(q0, q1);
    // vpsllvq by 64 gives 0: a shift of 0 needs no case.
    const __m256i s = _mm256_load_si256(reinterpret_cast<const __m256i*>(P.shift[v])), rs = _mm256_sub_epi64(s64, s);
    const __m256i l = _mm256_or_si256(_mm256_srlv_epi64(w0, s), _mm256_sllv_epi64(w1, rs));
    const __m256i h = _mm256_and_si256(_mm256_or_si256(_mm256_srlv_epi64(w1, s), _mm256_sllv_epi64(w2, rs)), hmask);
    const __m256i c0 = _mm256_and_si256(l, m43);
    const __m256i c1 = _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(l, 43), _mm256_slli_epi64(h, 21)), m43);
    const __m256i c2 = _mm256_srli_epi64(h, 22);
    const __m256d t = _mm256_add_pd(_mm256_add_pd(exact_double(c0, c), mulmod_shoup(exact_double(c1, c), W1, W1p, c)),
                                    mulmod_shoup(exact_double(c2, c), W2, W2p, c));
    __m256d r = reduce(t, c);
    r = _mm256_add_pd(r, _mm256_and_pd(_mm256_cmp_pd(r, zero, _CMP_LT_OQ), c.p));  // [0, p)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + (j - b)),
                        _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(r, two52v)), c.exp52));
  }
}
#endif

#if defined(BIGMUL_HAVE_IFMA_CODE)
// The same 8 a vector with AVX-512 (processors with IFMA), the cut in
// vector too: coefficient j + l (j a multiple of 8) reads limbs i_l .. i_l +
// 2 from i_0 = (j bits) / 64, within i_0 + 16 for bits <= 118, which two
// loads of 8 and three lane permutes bring together; which lane reads which
// limb, and its shift, repeat every 8 steps (extract_patterns). Reads
// src[i_0 .. i_0 + 16): the caller keeps (j_end - 8) bits / 64 + 16 <= len.
// The prefetch 1.5 KiB ahead: as wide_residues_avx2's above.
BIGMUL_IFMA inline __m512d exact_double8(__m512i x) {  // x < 2^52
  return _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(x, _mm512_set1_epi64(0x4330000000000000ll))),
                       _mm512_set1_pd(4503599627370496.0));
}
// round(y) for |y| < 2^51 (the magic constant 1.5 2^52).
BIGMUL_IFMA inline __m512d round8(__m512d y) {
  const __m512d magic = _mm512_set1_pd(6755399441055744.0);
  return _mm512_sub_pd(_mm512_add_pd(y, magic), magic);
}
// x w mod p within p/2 + 1 for |x| < 2^52, |w| <= (p - 1)/2, w_p = w / p
// (fft::avx2::mulmod_shoup, 8 lanes).
BIGMUL_IFMA inline __m512d mulmod_shoup8(__m512d x, __m512d w, __m512d w_p, __m512d p) {
  const __m512d h = _mm512_mul_pd(x, w);
  const __m512d q = round8(_mm512_mul_pd(x, w_p));
  const __m512d l = _mm512_fmsub_pd(x, w, h);
  return _mm512_add_pd(_mm512_fnmadd_pd(q, p, h), l);
}
BIGMUL_IFMA void wide_residues_ifma(std::uint64_t* dst, const limb_t* src, std::size_t b, std::size_t j_begin,
                                    std::size_t j_end, unsigned bits, const wide_constants& k) {
  const extract_pattern& P = patterns_for<extract_pattern, extract_patterns>(bits);
  const double pd = static_cast<double>(k.m.p);
  const __m512d W1 = _mm512_set1_pd(k.w1), W1p = _mm512_set1_pd(k.w1_p), W2 = _mm512_set1_pd(k.w2),
                W2p = _mm512_set1_pd(k.w2_p), Pv = _mm512_set1_pd(pd), Pinv = _mm512_set1_pd(1.0 / pd),
                two52v = _mm512_set1_pd(4503599627370496.0);
  const __m512i one = _mm512_set1_epi64(1), s64 = _mm512_set1_epi64(64), m43 = _mm512_set1_epi64((1ll << 43) - 1),
                hmask = _mm512_set1_epi64(static_cast<long long>((std::uint64_t{1} << (bits - 64)) - 1)),
                exp52 = _mm512_set1_epi64(0x4330000000000000ll);
  for (std::size_t j = j_begin; j < j_end; j += 8) {
    const unsigned v = static_cast<unsigned>((j >> 3) & 7);
    const limb_t* at = src + ((j * bits) >> 6);
    _mm_prefetch(reinterpret_cast<const char*>(at + 192), _MM_HINT_T0);
    const __m512i x0 = _mm512_loadu_si512(at), x1 = _mm512_loadu_si512(at + 8);
    const __m512i i0 = _mm512_load_si512(P.lo[v]), s = _mm512_load_si512(P.shift[v]), rs = _mm512_sub_epi64(s64, s);
    const __m512i i1 = _mm512_add_epi64(i0, one), i2 = _mm512_add_epi64(i1, one);
    const __m512i w0 = _mm512_permutex2var_epi64(x0, i0, x1), wv1 = _mm512_permutex2var_epi64(x0, i1, x1),
                  wv2 = _mm512_permutex2var_epi64(x0, i2, x1);
    // vpsllvq by 64 gives 0: s = 0 needs no case.
    const __m512i lo = _mm512_or_si512(_mm512_srlv_epi64(w0, s), _mm512_sllv_epi64(wv1, rs));
    const __m512i hi = _mm512_and_si512(_mm512_or_si512(_mm512_srlv_epi64(wv1, s), _mm512_sllv_epi64(wv2, rs)), hmask);
    const __m512i c0 = _mm512_and_si512(lo, m43);
    const __m512i c1 = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 43), _mm512_slli_epi64(hi, 21)), m43);
    const __m512i c2 = _mm512_srli_epi64(hi, 22);
    const __m512d t = _mm512_add_pd(_mm512_add_pd(exact_double8(c0), mulmod_shoup8(exact_double8(c1), W1, W1p, Pv)),
                                    mulmod_shoup8(exact_double8(c2), W2, W2p, Pv));
    __m512d r = _mm512_fnmadd_pd(round8(_mm512_mul_pd(t, Pinv)), Pv, t);
    r = _mm512_mask_add_pd(r, _mm512_cmp_pd_mask(r, _mm512_setzero_pd(), _CMP_LT_OQ), r, Pv);  // [0, p)
    _mm512_storeu_si512(dst + (j - b), _mm512_xor_si512(_mm512_castpd_si512(_mm512_add_pd(r, two52v)), exp52));
  }
}
#endif

}  // namespace

void ntt_wide_residues_lanes(std::uint64_t* dst, const limb_t* src, std::size_t len, std::size_t b, std::size_t e,
                             unsigned bits, std::uint64_t p, unsigned lanes) {
  const wide_constants& k = wide_constants_for(p);
  const ntt_wide_modulus& m = k.m;
  std::size_t j = b;
  const auto scalar_to = [&](std::size_t end) {
    for (; j < end; ++j) {
      std::uint64_t lo, hi;
      ntt_wide_coefficient_at(src, len, j, bits, lo, hi);
      dst[j - b] = m.reduce(lo, hi);
    }
  };
  const bool vector_prime = p < (std::uint64_t{1} << 50);
#if defined(BIGMUL_HAVE_IFMA_CODE)
  // Whole vectors of 8 from the first multiple of 8, each reading at most 16
  // limbs from its first coefficient's: coefficients below (len - 16) 64 / bits.
  if ((lanes == 0 || lanes == 8) && vector_prime && bits <= 118 && len > 16 && prim::cpu_has_avx512_ifma()) {
    const std::size_t vec_begin = (b + 7) / 8 * 8, vec_end = std::min(e, (len - 16) * 64 / bits) / 8 * 8;
    if (vec_end > vec_begin) {
      scalar_to(vec_begin);
      wide_residues_ifma(dst, src, b, vec_begin, vec_end, bits, k);
      j = vec_end;
    }
  }
#endif
#if defined(BIGMUL_HAVE_AVX2_CODE)
  // Whole vectors of 4 from the first multiple of 4, each lane's four limbs
  // inside src: coefficients below (len - 3) 64 / bits.
  if ((lanes == 0 || lanes == 4) && j == b && vector_prime && len > 3 && prim::cpu_has_avx2_fma()) {
    const std::size_t vec_begin = (b + 3) / 4 * 4, vec_end = std::min(e, (len - 3) * 64 / bits) / 4 * 4;
    if (vec_end > vec_begin) {
      scalar_to(vec_begin);
      wide_residues_avx2(dst, src, b, vec_begin, vec_end, bits, k);
      j = vec_end;
    }
  }
#endif
  scalar_to(e);
}

void ntt_wide_residues(std::uint64_t* dst, const limb_t* src, std::size_t len, std::size_t b, std::size_t e,
                       unsigned bits, std::uint64_t p) {
  ntt_wide_residues_lanes(dst, src, len, b, e, bits, p, 0);
}

void ntt_load_coefficients(std::uint64_t* dst, std::size_t n, const limb_t* src, std::size_t len, std::size_t count,
                           unsigned bits, std::uint64_t p, unsigned threads, unsigned lanes) {
  if (bits > 64) {
    prim::parallel_chunks(n, std::size_t{1} << 13, threads, [&](std::size_t b, std::size_t e) {
      const std::size_t mid = std::min(std::max(b, count), e);
      ntt_wide_residues_lanes(dst + b, src, len, b, mid, bits, p, lanes);
      std::fill(dst + mid, dst + e, std::uint64_t{0});
    });
    return;
  }
  const std::uint64_t one_shoup = fft::shoup_companion(1, p);
  const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  // Coefficients below `safe` have a next limb to read: no bounds checks.
  const std::size_t safe = len >= 2 ? std::min(count, (64 * (len - 1)) / bits) : 0;
  prim::parallel_chunks(n, std::size_t{1} << 13, threads, [&](std::size_t b, std::size_t e) {
    const std::size_t fast_end = std::min(std::max(b, safe), e), mid = std::min(std::max(b, count), e);
    for (std::size_t j = b; j < fast_end; ++j) {
      const std::size_t off = j * bits, i = off >> 6;
      const unsigned s = static_cast<unsigned>(off & 63);
      // (hi << 1) << (63 - s): hi << (64 - s), 0 when s == 0.
      const std::uint64_t v = ((src[i] >> s) | ((src[i + 1] << 1) << (63 - s))) & mask;
      dst[j] = fft::mul_shoup_lazy(v, 1, one_shoup, p);
    }
    for (std::size_t j = fast_end; j < mid; ++j)
      dst[j] = fft::mul_shoup_lazy(ntt_coefficient_at(src, len, j, bits), 1, one_shoup, p);
    for (std::size_t j = mid; j < e; ++j) dst[j] = 0;
  });
}

void ntt_extract_coefficients(std::uint64_t* dst, const limb_t* src, std::size_t len, std::size_t b, std::size_t e,
                              unsigned bits, unsigned lanes) {
  const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::size_t safe = len >= 2 ? (64 * (len - 1)) / bits : 0;  // below it a next limb exists
  const std::size_t fast_end = std::min(std::max(b, safe), e);
  const auto scalar = [&](std::size_t from, std::size_t to) {
    for (std::size_t j = from; j < to; ++j) {
      const std::size_t off = j * bits, i = off >> 6;
      const unsigned s = static_cast<unsigned>(off & 63);
      dst[j - b] = ((src[i] >> s) | ((src[i + 1] << 1) << (63 - s))) & mask;
    }
  };
  std::size_t j = b;
#if defined(BIGMUL_HAVE_IFMA_CODE)
  // Whole vectors of 8 from the first multiple of 8, each reading at most 16
  // limbs from its first coefficient's: coefficients below (len - 16) 64 / bits.
  if ((lanes == 0 || lanes == 8) && bits < 64 && len > 16 && prim::cpu_has_avx512_ifma()) {
    const std::size_t vec_begin = (b + 7) / 8 * 8, vec_end = std::min(fast_end, (len - 16) * 64 / bits) / 8 * 8;
    if (vec_end > vec_begin) {
      scalar(b, vec_begin);
      extract_run_ifma(dst, src, b, vec_begin, vec_end, bits);
      j = vec_end;
    }
  }
#endif
#if defined(BIGMUL_HAVE_AVX2_CODE)
  // Whole vectors of 4 from the first multiple of 4 (none done above), each
  // reading 5 limbs from its first coefficient's: below (len - 5) 64 / bits.
  if (j == b && (lanes == 0 || lanes == 4) && bits < 64 && len > 5 && prim::cpu_has_avx2_fma()) {
    const std::size_t vec_begin = (b + 3) / 4 * 4, vec_end = std::min(fast_end, (len - 5) * 64 / bits) / 4 * 4;
    if (vec_end > vec_begin) {
      scalar(b, vec_begin);
      extract_run_avx2(dst, src, b, vec_begin, vec_end, bits);
      j = vec_end;
    }
  }
#endif
  scalar(j, fast_end);
  for (std::size_t k = fast_end; k < e; ++k) dst[k - b] = ntt_coefficient_at(src, len, k, bits);
}

namespace {

// Words [kb, ke) of the packed stream (word k: bits [64k, 64k + 64)), the
// residues streamed through a 128-bit window from c = floor(64 kb / width)
// (its low s bits belong to word kb - 1), those at or past count taken as
// zero: a residue is read once (no division a word), as on an AVX2-only
// processor, which has no vector steps here.
void pack_words(std::uint64_t* dst, const std::uint64_t* src, std::size_t count, std::size_t kb, std::size_t ke,
                unsigned width, std::uint64_t p) {
  if (kb >= ke) return;
  std::size_t c = 64 * kb / width;
  const unsigned s = static_cast<unsigned>(64 * kb - c * width);  // < width
  const auto at = [&](std::size_t j) { return j < count ? fft::reduce_2p_to_p(src[j], p) : 0; };
  fft::u128 window = at(c++) >> s;
  unsigned held = width - s;  // bits in the window
  for (std::size_t k = kb; k < ke; ++k) {
    while (held < 64) {  // width <= 64: one or two residues a word
      window |= static_cast<fft::u128>(at(c++)) << held;
      held += width;
    }
    dst[k] = static_cast<std::uint64_t>(window);
    window >>= 64;
    held -= 64;
  }
}

#if defined(BIGMUL_HAVE_IFMA_CODE)
// Words k .. k + 8 (k a multiple of 8) in one step, as packed_word: the
// residues c_0 .. c_0 + 16 (c_0 + 16 <= count) reduced, three lane permutes
// bring each word's three residues together, variable shifts place them
// (sllv by 64 or more gives zero: the third term where it does not reach).
// Which lane takes which residue, and its shift, repeat every `period` words
// (width / gcd(width, 64)); the patterns are indexed by k mod period.
struct pack_pattern {
  unsigned width = 0, period = 0;
  alignas(64) long long idx[64][8], shift[64][8];
};
void build_pack_pattern(pack_pattern& P, unsigned width) {
  P.width = width;
  P.period = width / std::gcd(width, 64u);
  for (unsigned r = 0; r < P.period; ++r)
    for (unsigned l = 0; l < 8; ++l) {
      const lane_at a = pack_lane(r, l, width);
      P.idx[r][l] = a.word;
      P.shift[r][l] = a.shift;
    }
}
BIGMUL_IFMA void pack_run_ifma(std::uint64_t* dst, const std::uint64_t* src, std::size_t k_begin, std::size_t k_end,
                               unsigned width, std::uint64_t p) {
  thread_local pack_pattern P;
  if (P.width != width) build_pack_pattern(P, width);
  const __m512i pv = _mm512_set1_epi64(static_cast<long long>(p)), one = _mm512_set1_epi64(1),
                w1 = _mm512_set1_epi64(width), w2 = _mm512_set1_epi64(2 * width);
  std::size_t r = k_begin % P.period;
  for (std::size_t k = k_begin; k < k_end; k += 8) {
    const std::uint64_t* at = src + 64 * k / width;
    __m512i x0 = _mm512_loadu_si512(at), x1 = _mm512_loadu_si512(at + 8);
    x0 = _mm512_min_epu64(x0, _mm512_sub_epi64(x0, pv));  // [0, 2p) -> [0, p)
    x1 = _mm512_min_epu64(x1, _mm512_sub_epi64(x1, pv));
    const __m512i i0 = _mm512_load_si512(P.idx[r]), s = _mm512_load_si512(P.shift[r]);
    const __m512i i1 = _mm512_add_epi64(i0, one), i2 = _mm512_add_epi64(i1, one);
    const __m512i a = _mm512_permutex2var_epi64(x0, i0, x1), b = _mm512_permutex2var_epi64(x0, i1, x1),
                  c = _mm512_permutex2var_epi64(x0, i2, x1);
    const __m512i w = _mm512_or_si512(
        _mm512_srlv_epi64(a, s), _mm512_or_si512(_mm512_sllv_epi64(b, _mm512_sub_epi64(w1, s)),
                                                 _mm512_sllv_epi64(c, _mm512_sub_epi64(w2, s))));
    _mm512_storeu_si512(dst + k, w);
    r = (r + 8) % P.period;
  }
}
#endif

#if defined(BIGMUL_HAVE_AVX2_CODE)
// The same 4 words a step with AVX2 (the AVX2 engine, processors without
// AVX-512): word k + l takes residues c_l .. c_l + 2 with c_l - c_0 <=
// (width - 1 + 192) / width <= 5 for width >= 40, so the 8 residues from
// c_0 in two registers hold them (widths 40 .. 62); each term is a 32-bit-pair permute of
// both registers and a blend (AVX2 has no two-register 64-bit permute).
// Reads src[c_0 .. c_0 + 8) (c_0 + 8 <= count).
struct pack_pattern4 {
  unsigned width = 0, period = 0;
  alignas(32) int pair[64][3][8];        // term t of lane l: residue d_l + t as 32-bit halves of its register
  alignas(32) long long high[64][3][4];  // all ones where that residue is in the second register
  alignas(32) long long shift[64][4];
};
void build_pack_pattern4(pack_pattern4& P, unsigned width) {
  P.width = width;
  P.period = width / std::gcd(width, 64u);
  for (unsigned r = 0; r < P.period; ++r)
    for (unsigned l = 0; l < 4; ++l) {
      const lane_at a = pack_lane(r, l, width);
      for (unsigned t = 0; t < 3; ++t) {
        const unsigned e = static_cast<unsigned>(a.word) + t;  // <= 7
        P.pair[r][t][2 * l] = static_cast<int>(2 * (e & 3));
        P.pair[r][t][2 * l + 1] = static_cast<int>(2 * (e & 3) + 1);
        P.high[r][t][l] = e >= 4 ? -1 : 0;
      }
      P.shift[r][l] = a.shift;
    }
}
BIGMUL_AVX2 inline __m256i pack_term(__m256i x0, __m256i x1, const int* pair, const long long* high) {
  const __m256i i = _mm256_load_si256(reinterpret_cast<const __m256i*>(pair));
  return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(x0, i), _mm256_permutevar8x32_epi32(x1, i),
                            _mm256_load_si256(reinterpret_cast<const __m256i*>(high)));
}
BIGMUL_AVX2 void pack_run_avx2(std::uint64_t* dst, const std::uint64_t* src, std::size_t k_begin, std::size_t k_end,
                               unsigned width, std::uint64_t p) {
  thread_local pack_pattern4 P;
  if (P.width != width) build_pack_pattern4(P, width);
  const __m256i pv = _mm256_set1_epi64x(static_cast<long long>(p)),
                pm1 = _mm256_set1_epi64x(static_cast<long long>(p - 1)), w1 = _mm256_set1_epi64x(width),
                w2 = _mm256_set1_epi64x(2 * width);
  std::size_t r = k_begin % P.period;
  for (std::size_t k = k_begin; k < k_end; k += 4) {
    const std::uint64_t* at = src + 64 * k / width;
    __m256i x0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)),
            x1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + 4));
    // [0, 2p) -> [0, p): residues < 2^63 (width <= 62), so the signed compare is exact.
    x0 = _mm256_sub_epi64(x0, _mm256_and_si256(_mm256_cmpgt_epi64(x0, pm1), pv));
    x1 = _mm256_sub_epi64(x1, _mm256_and_si256(_mm256_cmpgt_epi64(x1, pm1), pv));
    const __m256i s = _mm256_load_si256(reinterpret_cast<const __m256i*>(P.shift[r]));
    const __m256i a = pack_term(x0, x1, P.pair[r][0], P.high[r][0]), b = pack_term(x0, x1, P.pair[r][1], P.high[r][1]),
                  c = pack_term(x0, x1, P.pair[r][2], P.high[r][2]);
    // sllv by 64 or more gives zero: the third term where it does not reach.
    const __m256i w = _mm256_or_si256(
        _mm256_srlv_epi64(a, s), _mm256_or_si256(_mm256_sllv_epi64(b, _mm256_sub_epi64(w1, s)),
                                                 _mm256_sllv_epi64(c, _mm256_sub_epi64(w2, s))));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + k), w);
    r = (r + 4) % P.period;
  }
}
#endif

}  // namespace

void ntt_pack_residues(std::uint64_t* dst, const std::uint64_t* src, std::size_t count, unsigned width,
                       std::uint64_t p, unsigned threads, unsigned lanes) {
  const std::size_t words = ntt_packed_words(count, width);
  // Vector steps (widths 40 .. 63: a step's residues span at most 16) while
  // a step's 16 residues lie below count.
  // AVX2 steps of 4 (a step's residues span at most 8) where those are
  // not taken.
  std::size_t vec_words = 0, vec4_words = 0;
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if ((lanes == 0 || lanes == 8) && width >= 40 && width < 64 && count > 16 && prim::cpu_has_avx512_ifma())
    vec_words = std::min(words, (count - 16) * width / 64) / 8 * 8;
#endif
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (vec_words == 0 && (lanes == 0 || lanes == 4) && width >= 40 && width < 63 && count > 8 &&
      prim::cpu_has_avx2_fma())
    vec4_words = std::min(words, (count - 8) * width / 64) / 4 * 4;
#endif
  prim::parallel_chunks(words, std::size_t{1} << 14, threads, [&](std::size_t kb, std::size_t ke) {
    std::size_t k = kb;
#if defined(BIGMUL_HAVE_IFMA_CODE)
    const std::size_t vb = std::min((kb + 7) / 8 * 8, ke), ve = std::max(vb, std::min(ke, vec_words) / 8 * 8);
    if (ve > vb) {
      pack_words(dst, src, count, k, vb, width, p);
      pack_run_ifma(dst, src, vb, ve, width, p);
      k = ve;
    }
#endif
#if defined(BIGMUL_HAVE_AVX2_CODE)
    const std::size_t vb4 = std::min((kb + 3) / 4 * 4, ke), ve4 = std::max(vb4, std::min(ke, vec4_words) / 4 * 4);
    if (k == kb && ve4 > vb4) {
      pack_words(dst, src, count, k, vb4, width, p);
      pack_run_avx2(dst, src, vb4, ve4, width, p);
      k = ve4;
    }
#endif
    pack_words(dst, src, count, k, ke, width, p);
  });
}
void ntt_unpack_residues(std::uint64_t* dst, const std::uint64_t* src, std::size_t count, unsigned width,
                         unsigned threads, unsigned lanes) {
  // The packed words are one bit stream: residue j at bit j width, as a bit-split coefficient.
  const std::size_t words = ntt_packed_words(count, width);
  prim::parallel_chunks(count, std::size_t{1} << 14, threads, [&](std::size_t b, std::size_t e) {
    ntt_extract_coefficients(dst + b, src, words, b, e, width, lanes);
  });
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BIGMUL_BMI2 __attribute__((target("bmi2")))
#else
#define BIGMUL_BMI2
#endif
BIGMUL_BMI2 std::size_t ntt_bit_carry3_bmi2(const std::uint64_t* d0, const std::uint64_t* d1, const std::uint64_t* d2,
                                            std::size_t len, std::uint64_t p0, std::uint64_t p1, unsigned bits,
                                            ntt_bit_accumulator& sum, std::uint64_t* out) {
  return ntt_bit_carry3(d0, d1, d2, len, p0, p1, bits, sum, out);
}
BIGMUL_BMI2 std::size_t ntt_bit_carry3_limbs_bmi2(const std::uint64_t* x, std::size_t len, unsigned bits,
                                                  ntt_bit_accumulator& sum, std::uint64_t* out) {
  return ntt_bit_carry3_limbs(x, len, bits, sum, out);
}

namespace {

// Coefficients x + q (limb l at x[l stride + q]) placed at their bit offsets
// s_q = (s0 + q bits) mod 64 as four limbs y[t n + q], the values
// ntt_bit_carry3_run adds, for q in [from, n).
inline void shift_limbs(const std::uint64_t* x, std::size_t stride, std::size_t from, std::size_t n, unsigned s0,
                        unsigned bits, std::uint64_t* y) {
  for (std::size_t q = from; q < n; ++q) {
    const auto s = static_cast<unsigned>((s0 + q * bits) & 63), rs = 63 - s;  // (v >> 1) >> rs: v >> (64 - s)
    const std::uint64_t v0 = x[q], v1 = x[stride + q], v2 = x[2 * stride + q];
    y[q] = v0 << s;
    y[n + q] = (v1 << s) | ((v0 >> 1) >> rs);
    y[2 * n + q] = (v2 << s) | ((v1 >> 1) >> rs);
    y[3 * n + q] = (v2 >> 1) >> rs;
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BIGMUL_HAVE_AVX2_SHIFTS 1
// The same for q in [0, n - n % 4), 4 a vector: vpsllvq / vpsrlvq give 0 for
// counts of 64, so v >> (64 - s) needs no case for s = 0.
__attribute__((target("avx2"))) void shift_limbs_avx2(const std::uint64_t* x, std::size_t stride, std::size_t n,
                                                      unsigned s0, unsigned bits, std::uint64_t* y) {
  const __m256i m63 = _mm256_set1_epi64x(63), s64 = _mm256_set1_epi64x(64);
  const __m256i step = _mm256_set_epi64x(3ll * bits, 2ll * bits, bits, 0);
  const auto at = [](const std::uint64_t* p) { return reinterpret_cast<const __m256i*>(p); };
  const auto to = [](std::uint64_t* p) { return reinterpret_cast<__m256i*>(p); };
  for (std::size_t q = 0; q + 4 <= n; q += 4) {
    const auto base = static_cast<long long>((s0 + q * bits) & 63);
    const __m256i s = _mm256_and_si256(_mm256_add_epi64(_mm256_set1_epi64x(base), step), m63);
    const __m256i rs = _mm256_sub_epi64(s64, s);
    const __m256i v0 = _mm256_loadu_si256(at(x + q)), v1 = _mm256_loadu_si256(at(x + stride + q)),
                  v2 = _mm256_loadu_si256(at(x + 2 * stride + q));
    _mm256_storeu_si256(to(y + q), _mm256_sllv_epi64(v0, s));
    _mm256_storeu_si256(to(y + n + q), _mm256_or_si256(_mm256_sllv_epi64(v1, s), _mm256_srlv_epi64(v0, rs)));
    _mm256_storeu_si256(to(y + 2 * n + q), _mm256_or_si256(_mm256_sllv_epi64(v2, s), _mm256_srlv_epi64(v1, rs)));
    _mm256_storeu_si256(to(y + 3 * n + q), _mm256_srlv_epi64(v2, rs));
  }
}
#endif

// The add chain of ntt_bit_carry3_run on limbs already shifted (y[t n + q]).
std::size_t add_shifted(const std::uint64_t* y, std::size_t n, unsigned bits, ntt_bit_accumulator& sum,
                        std::uint64_t* out) {
  std::uint64_t a0 = sum.acc[0], a1 = sum.acc[1], a2 = sum.acc[2], a3 = sum.acc[3];
  unsigned s = sum.shift;
  std::size_t written = 0;
  for (std::size_t q = 0; q < n; ++q) {
    bin::carry_t c = bin::addc(0, a0, y[q], &a0);
    c = bin::addc(c, a1, y[n + q], &a1);
    c = bin::addc(c, a2, y[2 * n + q], &a2);
    a3 += y[3 * n + q] + c;
    s += bits;
    if (s >= 64) {
      s -= 64;
      out[written++] = a0;
      a0 = a1;
      a1 = a2;
      a2 = a3;
      a3 = 0;
    }
  }
  sum.acc[0] = a0;
  sum.acc[1] = a1;
  sum.acc[2] = a2;
  sum.acc[3] = a3;
  sum.shift = s;
  return written;
}

}  // namespace

std::size_t ntt_bit_carry3_limbs_avx2(const std::uint64_t* x, std::size_t len, unsigned bits,
                                      ntt_bit_accumulator& sum, std::uint64_t* out) {
  constexpr std::size_t chunk = 64;  // the carry's group: y stays in L1
  std::uint64_t y[4 * chunk];
  std::size_t written = 0;
  for (std::size_t q0 = 0; q0 < len; q0 += chunk) {
    const std::size_t n = std::min(chunk, len - q0);
    std::size_t from = 0;
#if defined(BIGMUL_HAVE_AVX2_SHIFTS)
    if (prim::cpu_has_avx2_fma()) {
      shift_limbs_avx2(x + q0, len, n, sum.shift, bits, y);
      from = n - n % 4;
    }
#endif
    shift_limbs(x + q0, len, from, n, sum.shift, bits, y);
    written += add_shifted(y, n, bits, sum, out + written);
  }
  return written;
}

#undef BIGMUL_BMI2

}  // namespace bigmul::detail
