// SPDX-License-Identifier: LGPL-3.0-or-later
// The twisted second piece of a folded NTT product: see mul/ntt_piece.hpp.
#include "mul/ntt_piece.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "fft/ntt_arith.hpp"
#include "fft/ntt_avx2_arith.hpp"
#include "fft/ntt_ifma_arith.hpp"
#include "mul/ntt_coefficients.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {
namespace {

using fft::u64;
using fft::mul_shoup_lazy;

constexpr std::size_t grain = std::size_t{1} << 13;

inline u64 add_2p(u64 s, u64 v, u64 two_p) {  // [0, 2p) + [0, 2p) -> [0, 2p)
  s += v;
  return s >= two_p ? s - two_p : s;
}

// A fixed multiplier w < p for both kernels: 64-bit Shoup companion
// (scalar), 52-bit companions of w and of w 2^52 mod p (IFMA: a 64-bit x is
// x_lo + x_hi 2^52, each below the 52-bit lanes).
// AVX2: w as a signed double and w / p (fft/ntt_avx2_arith.hpp's Shoup product).
struct weight {
  u64 w, ws, wq, w2, w2q;
  double d, dp;
};
weight make_weight(u64 v, u64 p, ntt_piece::lanes l) {
  weight x{v, fft::shoup_companion(v, p), 0, 0, 0, 0, 0};
  if (l == ntt_piece::lanes::ifma) {
    x.wq = fft::shoup52_companion(v, p);
    x.w2 = fft::mul_mod(v, (u64{1} << 52) % p, p);
    x.w2q = fft::shoup52_companion(x.w2, p);
  } else if (l == ntt_piece::lanes::avx2) {
    x.d = fft::avx2::signed_rep(v, p);
    x.dp = x.d / static_cast<double>(p);
  }
  return x;
}

// acc[i] = acc[i] + w v[i] in [0, 2p) (acc [0, 2p) in; v any 64-bit value).
void accumulate_scalar(u64* acc, const u64* v, std::size_t len, const weight& w, u64 p) {
  const u64 two_p = 2 * p;
  for (std::size_t i = 0; i < len; ++i) acc[i] = add_2p(acc[i], mul_shoup_lazy(v[i], w.w, w.ws, p), two_p);
}
// out[i] = in[i] f[i] b in [0, 2p) (in: any 64-bit value).
void twist_scalar(u64* out, const u64* in, std::size_t len, const u64* f, const u64* fs, const u64* /*fq*/,
                  const weight& b, u64 p) {
  for (std::size_t i = 0; i < len; ++i) out[i] = mul_shoup_lazy(mul_shoup_lazy(in[i], f[i], fs[i], p), b.w, b.ws, p);
}

#if defined(BIGMUL_HAVE_IFMA_CODE)
// The same, 8 lanes (fft/ntt_ifma_arith.hpp's Shoup product), tails masked.
BIGMUL_IFMA void accumulate_ifma(u64* acc, const u64* v, std::size_t len, const weight& w, u64 p) {
  const fft::ifma::vconst c = fft::ifma::make_vconst(p);
  const __m512i ww = _mm512_set1_epi64(static_cast<long long>(w.w)), wq = _mm512_set1_epi64(static_cast<long long>(w.wq));
  const __m512i w2 = _mm512_set1_epi64(static_cast<long long>(w.w2)),
                w2q = _mm512_set1_epi64(static_cast<long long>(w.w2q));
  for (std::size_t i = 0; i < len; i += 8) {
    const __mmask8 m = len - i >= 8 ? __mmask8(0xff) : static_cast<__mmask8>((1u << (len - i)) - 1);
    const __m512i x = _mm512_maskz_loadu_epi64(m, v + i);
    const __m512i lo = fft::ifma::shoup_lazy(_mm512_and_si512(x, c.mask), ww, wq, c);
    const __m512i hi = fft::ifma::shoup_lazy(_mm512_srli_epi64(x, 52), w2, w2q, c);
    const __m512i t = fft::ifma::reduce_2p(_mm512_add_epi64(lo, hi), c);
    const __m512i a = _mm512_maskz_loadu_epi64(m, acc + i);
    _mm512_mask_storeu_epi64(acc + i, m, fft::ifma::reduce_2p(_mm512_add_epi64(a, t), c));
  }
}
// in[i] < 2^52 here (the fold's sums and the piece's residues are below 2p).
BIGMUL_IFMA void twist_ifma(u64* out, const u64* in, std::size_t len, const u64* f, const u64* /*fs*/,
                            const u64* fq, const weight& b, u64 p) {
  const fft::ifma::vconst c = fft::ifma::make_vconst(p);
  const __m512i bw = _mm512_set1_epi64(static_cast<long long>(b.w)), bq = _mm512_set1_epi64(static_cast<long long>(b.wq));
  for (std::size_t i = 0; i < len; i += 8) {
    const __mmask8 m = len - i >= 8 ? __mmask8(0xff) : static_cast<__mmask8>((1u << (len - i)) - 1);
    const __m512i x = _mm512_maskz_loadu_epi64(m, in + i);
    const __m512i y = fft::ifma::shoup_lazy(x, _mm512_maskz_loadu_epi64(m, f + i), _mm512_maskz_loadu_epi64(m, fq + i), c);
    _mm512_mask_storeu_epi64(out + i, m, fft::ifma::shoup_lazy(y, bw, bq, c));
  }
}
#endif

#if defined(BIGMUL_HAVE_AVX2_CODE)
// The same, 4 lanes of doubles: limbs (any 64-bit value) -> [-p, p) by
// from_limbs, Shoup products within about p/2, sums reduced into [-p/2 - 1,
// p/2 + 1] and stored as u64 residues in [0, 2p).
BIGMUL_AVX2 void accumulate_avx2(u64* acc, const u64* v, std::size_t len, const weight& w, u64 p) {
  namespace a = fft::avx2;
  const a::vconst c = a::make_vconst(p);
  const double c32 = a::signed_rep((u64{1} << 32) % p, p);
  const a::limb_source src{v, len, _mm256_set1_pd(c32), _mm256_set1_pd(c32 / static_cast<double>(p))};
  const __m256d wd = _mm256_set1_pd(w.d), wp = _mm256_set1_pd(w.dp);
  std::size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    const __m256d x = a::from_limbs(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i)), src, c);
    const __m256d s = _mm256_add_pd(a::load_u64(acc + i, c), a::mulmod_shoup(x, wd, wp, c));
    a::store_u64(acc + i, a::reduce(s, c), c);
  }
  if (i < len) accumulate_scalar(acc + i, v + i, len - i, w, p);
}
BIGMUL_AVX2 void twist_avx2(u64* out, const u64* in, std::size_t len, const u64* f, const u64* fs, const double* fd,
                            const double* fp, const weight& b, u64 p) {
  namespace a = fft::avx2;
  const a::vconst c = a::make_vconst(p);
  const __m256d bd = _mm256_set1_pd(b.d), bp = _mm256_set1_pd(b.dp);
  std::size_t i = 0;
  for (; i + 4 <= len; i += 4) {
    const __m256d y = a::mulmod_shoup(a::load_u64(in + i, c), _mm256_loadu_pd(fd + i), _mm256_loadu_pd(fp + i), c);
    a::store_u64(out + i, a::mulmod_shoup(y, bd, bp, c), c);
  }
  if (i < len) twist_scalar(out + i, in + i, len - i, f + i, fs + i, nullptr, b, p);
}
#endif

}  // namespace

std::size_t ntt_piece_length(std::size_t n, std::size_t w) {
  // theta needs 2n | p - 1 = c 2^32 (3 | c): n's power-of-two part <= 2^31.
  if (n == 0 || w == 0 || (n & (~n + 1)) > (std::size_t{1} << 31)) return 0;
  std::size_t best = 0;
  for (std::size_t len = 16; len < n; len *= 2)
    for (std::size_t m : {len, 3 * len / 2})
      if (m >= w && m < n && n % m == 0 && (best == 0 || m < best)) best = m;
  return best;
}

std::shared_ptr<const ntt_piece> ntt_piece::get(u64 p, u64 generator, std::size_t n, std::size_t m, lanes l) {
  static std::mutex mutex;
  static std::map<std::tuple<u64, std::size_t, std::size_t, lanes>, std::shared_ptr<const ntt_piece>> cache;
  const auto key = std::make_tuple(p, n, m, l);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto piece = std::make_shared<const ntt_piece>(p, generator, n, m, l);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 64) cache.clear();  // a caller holding one keeps it alive
  return cache.emplace(key, std::move(piece)).first->second;
}

ntt_piece::ntt_piece(u64 p, u64 generator, std::size_t n, std::size_t m, lanes l)
    : p_(p), n_(n), m_(m), lanes_(l) {
  theta_ = fft::pow_mod(generator, (p - 1) / (2 * n), p);
  theta_inv_ = fft::inv_mod(theta_, p);
  half_neg_ = (p - 1) / 2;  // 2 (p - 1) / 2 = -1
  u64 f = 1, g = half_neg_;
  for (std::size_t i = 0; i < block; ++i) {
    fine_[0][i] = f;
    fine_s_[0][i] = fft::shoup_companion(f, p);
    fine_[1][i] = g;
    fine_s_[1][i] = fft::shoup_companion(g, p);
    if (l == lanes::ifma) {
      fine_q_[0][i] = fft::shoup52_companion(f, p);
      fine_q_[1][i] = fft::shoup52_companion(g, p);
    } else if (l == lanes::avx2) {
      for (int d = 0; d < 2; ++d) {
        fine_d_[d][i] = fft::avx2::signed_rep(fine_[d][i], p);
        fine_dp_[d][i] = fine_d_[d][i] / static_cast<double>(p);
      }
    }
    f = fft::mul_mod(f, theta_, p);
    g = fft::mul_mod(g, theta_inv_, p);
  }
  step_[0] = fft::pow_mod(theta_, block, p);
  step_[1] = fft::pow_mod(theta_inv_, block, p);
  // c^k and -1/2 c^k, c = theta^m, k < n / m, as weights.
  const u64 c = fft::pow_mod(theta_, m, p);
  static_assert(sizeof(weight) == weight_words * sizeof(u64));
  for (int d = 0; d < 2; ++d) {
    powers_[d].resize(weight_words * (n / m));
    u64 v = d == 0 ? 1 : half_neg_;
    for (std::size_t k = 0; k < n / m; ++k) {
      const weight x = make_weight(v, p, l);
      std::memcpy(powers_[d].data() + weight_words * k, &x, sizeof x);
      v = fft::mul_mod(v, c, p);
    }
  }
}

u64 ntt_piece::base(std::size_t j0, bool inverse) const {
  return fft::pow_mod(inverse ? theta_inv_ : theta_, j0, p_);
}

void ntt_piece::accumulate(u64* acc, const u64* v, std::size_t len, const u64* w) const {
  weight x;
  std::memcpy(&x, w, sizeof x);
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (lanes_ == lanes::ifma) return accumulate_ifma(acc, v, len, x, p_);
#endif
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (lanes_ == lanes::avx2) return accumulate_avx2(acc, v, len, x, p_);
#endif
  accumulate_scalar(acc, v, len, x, p_);
}

void ntt_piece::twist(u64* out, const u64* in, std::size_t len, bool inverse, u64 b) const {
  const weight bw = make_weight(b, p_, lanes_);
  const int d = inverse ? 1 : 0;
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (lanes_ == lanes::ifma) return twist_ifma(out, in, len, fine_[d], fine_s_[d], fine_q_[d], bw, p_);
#endif
#if defined(BIGMUL_HAVE_AVX2_CODE)
  if (lanes_ == lanes::avx2) return twist_avx2(out, in, len, fine_[d], fine_s_[d], fine_d_[d], fine_dp_[d], bw, p_);
#endif
  twist_scalar(out, in, len, fine_[d], fine_s_[d], fine_q_[d], bw, p_);
}

void ntt_piece::fold(u64* dst, const limb_t* src, std::size_t len, std::size_t coefficients,
                     unsigned bits, unsigned threads) const {
  const std::size_t blocks = n_ / m_, m = m_;
  const u64* ck = powers_[0].data();
  const unsigned cut = lanes_ == lanes::avx2 ? 4 : 0;  // the AVX2 engine's cuts stay AVX2 (ntt_plan_adapter)
  prim::parallel_chunks(m, grain, threads, [&](std::size_t b, std::size_t e) {
    alignas(64) u64 acc[span], x[span];
    u64 bs = base(b, false);
    for (std::size_t j0 = b; j0 < e; j0 += span) {
      const std::size_t L = std::min(span, e - j0);
      std::fill(acc, acc + L, u64{0});
      for (std::size_t k = 0; k < blocks; ++k) {
        const std::size_t start = k * m + j0;
        if (start >= coefficients) break;
        const std::size_t cnt = std::min(L, coefficients - start);
        const u64* v = src + start;
        if (bits > 64) {  // wide: residues (accumulate takes any 64-bit values)
          ntt_wide_residues_lanes(x, src, len, start, start + cnt, bits, p_, cut);
          v = x;
        } else if (bits != 64) {
          ntt_extract_coefficients(x, src, len, start, start + cnt, bits, cut);
          v = x;
        }
        accumulate(acc, v, cnt, ck + weight_words * k);
      }
      for (std::size_t i = 0; i < L; i += block) {
        twist(dst + j0 + i, acc + i, std::min(block, L - i), false, bs);
        bs = fft::mul_mod(bs, step_[0], p_);
      }
    }
  });
}

bool ntt_piece::combine(u64* x, const u64* t, std::size_t w, unsigned threads) const {
  const u64 p = p_;
  const std::size_t blocks = n_ / m_, n = n_, m = m_;
  const u64* uc = powers_[1].data();  // -1/2 c^k
  std::atomic<bool> ok{true};
  prim::parallel_chunks(m, grain, threads, [&](std::size_t b, std::size_t e) {
    alignas(64) u64 s[span], r2[span];
    u64 bad = 0;
    u64 bs = base(b, true);
    for (std::size_t j0 = b; j0 < e; j0 += span) {
      const std::size_t L = std::min(span, e - j0);
      // s = -1/2 (r1 mod (x^m - c))[j], block by block of r1.
      std::fill(s, s + L, u64{0});
      for (std::size_t k = 0; k < blocks; ++k) accumulate(s, x + k * m + j0, L, uc + weight_words * k);
      // -1/2 r2[j] = -1/2 theta^-j t[j].
      for (std::size_t i = 0; i < L; i += block) {
        twist(r2 + i, t + j0 + i, std::min(block, L - i), true, bs);
        bs = fft::mul_mod(bs, step_[1], p);
      }
      for (std::size_t i = 0; i < L; ++i) {
        const std::size_t j = j0 + i;
        // Q[j] = -1/2 (r2 - r1 mod (x^m - c))[j].
        const u64 q = fft::sub_mod(fft::reduce_2p_to_p(r2[i], p), fft::reduce_2p_to_p(s[i], p), p);
        if (j < w) {
          x[j] = fft::sub_mod(fft::reduce_2p_to_p(x[j], p), q, p);
          x[n + j] = q;
        } else {
          bad |= q;
        }
      }
    }
    if (bad != 0) ok.store(false, std::memory_order_relaxed);
  });
  return ok.load();
}

}  // namespace bigmul::detail
