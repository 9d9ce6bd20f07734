// SPDX-License-Identifier: LGPL-3.0-or-later
// NTT on AVX2 + FMA: see fft/ntt_avx2.hpp; the arithmetic and its exactness
// bounds are in fft/ntt_avx2_arith.hpp.
//
// This file: the plan and its tables, the run-time check, the lane test
// hooks, the load and the pointwise product. The transforms:
// fft/ntt_avx2_transform.cpp; the radix-3 stage: ntt_avx2_radix3.cpp;
// Garner's digits: ntt_avx2_crt.cpp.
#include "fft/ntt_avx2.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fft/ntt_avx2_arith.hpp"
#include "fft/ntt_crt.hpp"
#include "fft/ntt_level_table.hpp"
#include "prim/cpu_features.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

using namespace avx2;

#if defined(BIGMUL_HAVE_AVX2_CODE)

// x = (x y) (1/n) for i in [b, e) (multiples of 4): |x y| <= p^2 after the
// shift to [-p, p), so the product is <= 0.75p + 1 and the scaled one < 0.53p.
BIGMUL_AVX2 void pointwise_run(u64* x, const u64* y, std::size_t b, std::size_t e, double scale, double scale_p,
                               u64 p) {
  const vconst c = make_vconst(p);
  const __m256d s = _mm256_set1_pd(scale), sp = _mm256_set1_pd(scale_p);
  for (std::size_t i = b; i < e; i += 4)
    store_u64(x + i, mulmod_shoup(mulmod(load_u64(x + i, c), load_u64(y + i, c), c), s, sp, c), c);
}
// The same on forward_product's unreduced doubles (|x|, |y| <= 3.15p): x
// reduced first (p/2 + 1), so |x y| <= 1.58 p^2 and the product is <= 0.9p
// (the scaled one < 0.53p), doubles out. Only where the inverse does not
// scale; else its first levels take the product (first_levels_inverse).
BIGMUL_AVX2 void pointwise_doubles_run(double* x, const double* y, std::size_t b, std::size_t e, double scale,
                                       double scale_p, u64 p) {
  const vconst c = make_vconst(p);
  const __m256d s = _mm256_set1_pd(scale), sp = _mm256_set1_pd(scale_p);
  for (std::size_t i = b; i < e; i += 4)
    st(x + i, mulmod_shoup(mulmod(reduce(ld(x + i), c), ld(y + i), c), s, sp, c));
}

// dst[i] = src[i] mod p in [0, 2p) for i in [b, e) (multiples of 4): the
// limb's residue in [-p, p) (from_limbs, fft/ntt_avx2_arith.hpp), as u64 r + p.
BIGMUL_AVX2 void load_run(u64* dst, const u64* src, std::size_t b, std::size_t e, double c32, double c32_p, u64 p) {
  const vconst c = make_vconst(p);
  const limb_source s{src, e, _mm256_set1_pd(c32), _mm256_set1_pd(c32_p)};
  for (std::size_t i = b; i < e; i += 4)
    store_u64(dst + i, from_limbs(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)), s, c), c);
}
// a[i] mod p in [0, 2p) for i < len, in place, as load_run (a last partial
// vector through load_limbs' zero-padded copy, so every value takes the same
// conversion).
BIGMUL_AVX2 void reduce_run(u64* a, std::size_t len, double c32, double c32_p, u64 p) {
  const vconst c = make_vconst(p);
  const limb_source s{a, len, _mm256_set1_pd(c32), _mm256_set1_pd(c32_p)};
  std::size_t i = 0;
  for (; i + 4 <= len; i += 4) store_u64(a + i, load_limbs(s, i, c), c);
  if (i == len) return;
  alignas(32) u64 t[4];
  store_u64(t, load_limbs(s, i, c), c);
  std::copy(t, t + (len - i), a + i);
}
BIGMUL_AVX2 void lanes(const double* x, const double* y, double w, double w_p, u64 p, double* r, int op) {
  const vconst c = make_vconst(p);
  const __m256d X = ld(x);
  if (op == 0) st(r, mulmod_shoup(X, _mm256_set1_pd(w), _mm256_set1_pd(w_p), c));
  if (op == 1) st(r, mulmod(X, ld(y), c));
  if (op == 2) st(r, reduce(X, c));
  if (op == 3) st(r, quotient(X, c));
}

#endif  // BIGMUL_HAVE_AVX2_CODE

}  // namespace
#if defined(BIGMUL_HAVE_AVX2_CODE)
void ntt_avx2_mulmod_shoup_lanes(const double x[4], double w, double w_p, u64 p, double r[4]) {
  lanes(x, nullptr, w, w_p, p, r, 0);
}
void ntt_avx2_mulmod_lanes(const double a[4], const double b[4], u64 p, double r[4]) { lanes(a, b, 0, 0, p, r, 1); }
void ntt_avx2_reduce_lanes(const double x[4], u64 p, double r[4]) { lanes(x, nullptr, 0, 0, p, r, 2); }
void ntt_avx2_quotient_lanes(const double x[4], u64 p, double r[4]) { lanes(x, nullptr, 0, 0, p, r, 3); }
#else
void ntt_avx2_mulmod_shoup_lanes(const double*, double, double, u64, double*) { throw std::logic_error("no AVX2 code"); }
void ntt_avx2_mulmod_lanes(const double*, const double*, u64, double*) { throw std::logic_error("no AVX2 code"); }
void ntt_avx2_reduce_lanes(const double*, u64, double*) { throw std::logic_error("no AVX2 code"); }
void ntt_avx2_quotient_lanes(const double*, u64, double*) { throw std::logic_error("no AVX2 code"); }
#endif

bool ntt_avx2_supported() {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  return prim::cpu_has_avx2_fma();
#else
  return false;
#endif
}
ntt_avx2_plan::ntt_avx2_plan(unsigned prime, std::size_t length) : prime_(prime), n_(length) {
  if (prime >= ntt52_prime_count) throw std::invalid_argument("ntt_avx2_plan: prime index out of range");
  if (length == 0 || ntt_fit_length(length) != length)
    throw std::invalid_argument("ntt_avx2_plan: length " + std::to_string(length) + " is not 2^k or 3*2^k <= 3*2^32");
  p_ = ntt52_primes[prime].p;
  m_ = n_ % 3 == 0 ? n_ / 3 : n_;
  const u64 root_n = pow_mod(ntt52_primes[prime].generator, (p_ - 1) / n_, p_);
  const u64 root_m = n_ == m_ ? root_n : pow_mod(root_n, 3, p_);
  const double pd = static_cast<double>(p_);
  if (m_ >= 16) {
    // w[j] = w_m^bitrev(j), w[j]^-1 for j < m/2: the prime's shared table.
    twiddles_ = ntt_avx2_twiddles(prime, m_ / 2);
    fw_.p = twiddles_->fw.data();
    fw_p_.p = twiddles_->fw_p.data();
    iw_.p = twiddles_->iw.data();
    iw_p_.p = twiddles_->iw_p.data();
    if (m_ / 2 > ntt_avx2_twiddle_table::cap) {
      cw_.p = twiddles_->cw.data();
      cw_p_.p = twiddles_->cw_p.data();
      ciw_.p = twiddles_->ciw.data();
      ciw_p_.p = twiddles_->ciw_p.data();
    }
  } else if (m_ >= 2) {
    // The scalar short transforms: the same twiddles as u64 with Shoup
    // companions (w[j]^-1 = -w_m^(m/2 - bitrev(j))).
    const std::size_t half = m_ / 2;
    const unsigned bits = ceil_log2(half);
    std::vector<u64> pw(half);
    for (std::size_t j = 0; j < half; ++j) pw[j] = pow_mod(root_m, j, p_);
    const auto inv_of = [&](std::size_t e) { return e == 0 ? u64{1} : p_ - pw[half - e]; };
    for (std::size_t j = 0; j < half; ++j) {
      const std::size_t r = bit_reverse(j, bits);
      sfw_.push_back(pw[r]);
      sfw_shoup_.push_back(shoup_companion(pw[r], p_));
      siw_.push_back(inv_of(r));
      siw_shoup_.push_back(shoup_companion(inv_of(r), p_));
    }
  }
  pointwise_ = ntt_pointwise_scale(p_, n_);
  scale_ = signed_rep(inv_mod(n_ % p_, p_), p_);
  scale_p_ = scale_ / pd;
  if (n_ != m_) {
    radix3_ = ntt_radix3_stage(p_, ntt52_primes[prime].generator, n_);
    auto& T = radix3_vec_;
    for (int d = 0; d < 2; ++d) {
      const u64 w = d == 0 ? radix3_.root_n : radix3_.root_n_inv;
      for (int r = 0; r < 2; ++r) {
        const u64 wr = pow_mod(w, r + 1, p_);
        u64 x = 1;
        for (std::size_t i = 0; i < radix3_tables::block; ++i, x = mul_mod(x, wr, p_)) {
          T.tw[d][r][i] = signed_rep(x, p_);
          T.tw_p[d][r][i] = T.tw[d][r][i] / pd;
        }
        T.step[d][r] = x;  // wr^block
        T.step_shoup[d][r] = shoup_companion(x, p_);
      }
      T.cube[d] = signed_rep(d == 0 ? radix3_.cube_root : radix3_.cube_root_inv, p_);
      T.cube_p[d] = T.cube[d] / pd;
    }
    if (m_ >= 16 && m_ <= radix3_full_max)
      for (int d = 0; d < 2; ++d) {
        std::vector<double>& F = radix3_full_[d];
        F.resize(4 * m_);
        const u64 w = d == 0 ? radix3_.root_n : radix3_.root_n_inv, w2 = mul_mod(w, w, p_);
        const u64 ws = shoup_companion(w, p_), w2s = shoup_companion(w2, p_);
        u64 x1 = 1, x2 = 1;  // w^j, w^2j
        for (std::size_t j = 0; j < m_; ++j) {
          F[j] = signed_rep(x1, p_);
          F[m_ + j] = F[j] / pd;
          F[2 * m_ + j] = signed_rep(x2, p_);
          F[3 * m_ + j] = F[2 * m_ + j] / pd;
          x1 = mul_shoup(x1, w, ws, p_);
          x2 = mul_shoup(x2, w2, w2s, p_);
        }
      }
  }
}

std::shared_ptr<const ntt_avx2_plan> ntt_avx2_plan::get(unsigned prime, std::size_t length) {
  return cached_ntt_plan<ntt_avx2_plan>(prime, length, 4 * 24);  // radix conversion trees use one or two lengths a level
}
void ntt_avx2_plan::load(u64* dst, const u64* src, std::size_t len, unsigned threads) const {
  threads = prim::resolve_threads(threads);
  const u64 one_shoup = shoup_companion(1, p_);
  const double c32 = signed_rep((u64{1} << 32) % p_, p_), c32_p = c32 / static_cast<double>(p_);
  prim::parallel_chunks(n_, std::size_t{1} << 13, threads, [&](std::size_t b, std::size_t e) {
    const std::size_t mid = std::min(std::max(b, len), e);
    std::size_t i = b;
#if defined(BIGMUL_HAVE_AVX2_CODE)
    if (ntt_avx2_supported()) {
      const std::size_t vec_end = b + (mid - b) / 4 * 4;
      load_run(dst, src, b, vec_end, c32, c32_p, p_);
      i = vec_end;
    }
#else
    (void)c32, (void)c32_p;
#endif
    for (; i < mid; ++i) dst[i] = mul_shoup_lazy(src[i], 1, one_shoup, p_);
    std::fill(dst + mid, dst + e, u64{0});
  });
}

void ntt_avx2_plan::reduce(u64* a, std::size_t len) const {
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (ntt_avx2_supported()) {
    const double c32 = signed_rep((u64{1} << 32) % p_, p_);
    return reduce_run(a, len, c32, c32 / static_cast<double>(p_), p_);
  }
#endif
  const u64 one_shoup = shoup_companion(1, p_);
  for (std::size_t i = 0; i < len; ++i) a[i] = mul_shoup_lazy(a[i], 1, one_shoup, p_);
}

void ntt_avx2_plan::pointwise_inverse_product(u64* x, const u64* y, unsigned threads) const {
  threads = prim::resolve_threads(threads);
  if (m_ < 16) {  // forward_product left u64 residues
    pointwise(x, y, threads);
    return inverse(x, threads);
  }
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (!ntt_avx2_supported()) throw std::logic_error("ntt_avx2_plan: this processor has no AVX2 and FMA");
  // Where the inverse scales, its first levels take the product as they
  // load (no pass of its own over memory).
  if (inverse_scales()) return inverse_as(x, threads, true, true, y);
  double* dx = reinterpret_cast<double*>(x);
  const double* dy = reinterpret_cast<const double*>(y);
  prim::parallel_chunks(n_ / 4, 2048, threads, [&](std::size_t b, std::size_t e) {
    pointwise_doubles_run(dx, dy, 4 * b, 4 * e, scale_, scale_p_, p_);
  });
#endif
  inverse_as(x, threads, true, false);
}

void ntt_avx2_plan::pointwise(u64* x, const u64* y, unsigned threads) const {
  threads = prim::resolve_threads(threads);
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (n_ % 4 == 0 && ntt_avx2_supported()) {
    prim::parallel_chunks(n_ / 4, 2048, threads, [&](std::size_t b, std::size_t e) {
      pointwise_run(x, y, 4 * b, 4 * e, scale_, scale_p_, p_);
    });
    return;
  }
#endif
  pointwise_.run(x, y, threads);
}

}  // namespace bigmul::fft
