// SPDX-License-Identifier: LGPL-3.0-or-later
// The IFMA engine's plan and tables (see fft/ntt_ifma.hpp): the run-time
// check, the level-by-level twiddle tables, the radix-3 constants, the plan
// cache and the pointwise product. The transforms: fft/ntt_ifma_transform.cpp;
// the radix-3 stage: ntt_ifma_radix3.cpp; Garner's digits: ntt_ifma_crt.cpp.
#include "fft/ntt_ifma.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fft/ntt_ifma_arith.hpp"
#include "fft/ntt_level_table.hpp"
#include "prim/cpu_features.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

using namespace ifma;

#if defined(BIGMUL_HAVE_IFMA_CODE)

// x = mont52(x, y) * (2^52 / n): x y / n, for i in [b, e) (multiples of 8).
BIGMUL_IFMA void pointwise_run(u64* x, const u64* y, std::size_t b, std::size_t e, u64 scale, u64 scale_q, u64 p) {
  const vconst c = make_vconst(p);
  const __m512i s = _mm512_set1_epi64(ll(scale)), sq = _mm512_set1_epi64(ll(scale_q));
  for (std::size_t i = b; i < e; i += 8) store(x + i, shoup_lazy(mont52(load(x + i), load(y + i), c), s, sq, c));
}

// dst[i] = src[i] mod p in [0, 2p) for i in [b, e) (multiples of 8): a limb
// is hi 2^32 + lo; hi (2^32 mod p) is a Shoup product in [0, 2p) (hi <
// 2^52), plus lo < 2^32 < p: below 3p, one conditional 2p off.
BIGMUL_IFMA void load_run(u64* dst, const u64* src, std::size_t b, std::size_t e, u64 c32, u64 c32_q, u64 p) {
  const vconst c = make_vconst(p);
  const __m512i w = _mm512_set1_epi64(ll(c32)), wq = _mm512_set1_epi64(ll(c32_q));
  for (std::size_t i = b; i < e; i += 8) store(dst + i, reduce_u64(load(src + i), w, wq, c));
}
#endif  // BIGMUL_HAVE_IFMA_CODE

}  // namespace

bool ntt52_supported() {
#if defined(BIGMUL_HAVE_IFMA_CODE)
  return prim::cpu_has_avx512_ifma();
#else
  return false;
#endif
}

std::size_t ntt52_plan::level_offset(std::size_t t) { return ntt52_level_table::offset(t); }

ntt52_plan::ntt52_plan(unsigned prime, std::size_t length) : prime_(prime), n_(length) {
  if (prime >= ntt52_prime_count) throw std::invalid_argument("ntt52_plan: prime index out of range");
  if (length == 0 || length > ntt_max_length || ntt_fit_length(length) != length)
    throw std::invalid_argument("ntt52_plan: length " + std::to_string(length) + " is not 2^k or 3*2^k <= 3*2^32");
  p_ = ntt52_primes[prime].p;
  m_ = n_ % 3 == 0 ? n_ / 3 : n_;
  if (m_ >= 2) {
    // Levels 1 .. m/2 of the prime's shared table (fft/ntt_level_table.hpp).
    levels_ = ntt52_levels(prime, m_ / 2);
    w_.p = levels_->w.data();
    wq_.p = levels_->wq.data();
  }
  pointwise_ = ntt_pointwise_scale(p_, n_);
  // mont52 leaves x y / 2^52; the scale 2^52 / n mod p restores it and divides by n.
  scale52_ = mul_mod((u64{1} << 52) % p_, inv_mod(n_ % p_, p_), p_);
  scale52_q_ = shoup52_companion(scale52_, p_);
  if (n_ != m_) {
    radix3_ = ntt_radix3_stage(p_, ntt52_primes[prime].generator, n_);
    auto& T = radix3_vec_;
    T.r52_mod_p = (u64{1} << 52) % p_;
    T.p_neg_inv52 = neg_inverse_mod_2_64(p_) & mask52;
    for (int d = 0; d < 2; ++d) {
      const u64 w = d == 0 ? radix3_.root_n : radix3_.root_n_inv;
      for (int r = 0; r < 2; ++r) {
        const u64 wr = pow_mod(w, r + 1, p_);
        u64 x = 1;
        for (std::size_t i = 0; i < radix3_tables::block; ++i, x = mul_mod(x, wr, p_)) {
          T.tw[d][r][i] = x;
          T.tw_q[d][r][i] = shoup52_companion(x, p_);
        }
        T.step[d][r] = x;  // wr^block
        T.step_shoup[d][r] = shoup_companion(x, p_);
      }
      T.cube[d] = d == 0 ? radix3_.cube_root : radix3_.cube_root_inv;
      T.cube_q[d] = shoup52_companion(T.cube[d], p_);
    }
  }
}

std::shared_ptr<const ntt52_plan> ntt52_plan::get(unsigned prime, std::size_t length) {
  return cached_ntt_plan<ntt52_plan>(prime, length, 4 * 24);  // radix conversion trees use one or two lengths a level
}
void ntt52_plan::load(u64* dst, const u64* src, std::size_t len, unsigned threads, std::size_t end) const {
  threads = prim::resolve_threads(threads);
  const u64 one_shoup = shoup_companion(1, p_);
  const u64 c32 = (u64{1} << 32) % p_;
  prim::parallel_chunks(std::max(std::min(n_, end), std::min(n_, len)), std::size_t{1} << 13, threads, [&](std::size_t b, std::size_t e) {
    const std::size_t mid = std::min(std::max(b, len), e);
    std::size_t i = b;
#if defined(BIGMUL_HAVE_IFMA_CODE)
    if (ntt52_supported()) {
      const std::size_t vec_end = b + (mid - b) / 8 * 8;
      load_run(dst, src, b, vec_end, c32, shoup52_companion(c32, p_), p_);
      i = vec_end;
    }
#else
    (void)c32;
#endif
    for (; i < mid; ++i) dst[i] = mul_shoup_lazy(src[i], 1, one_shoup, p_);
    std::fill(dst + mid, dst + e, u64{0});
  });
}

void ntt52_plan::reduce(u64* a, std::size_t len) const {
  std::size_t i = 0;
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (ntt52_supported()) {
    const u64 c32 = (u64{1} << 32) % p_;
    i = len / 8 * 8;
    load_run(a, a, 0, i, c32, shoup52_companion(c32, p_), p_);  // element-wise: in place is fine
  }
#endif
  const u64 one_shoup = shoup_companion(1, p_);
  for (; i < len; ++i) a[i] = mul_shoup_lazy(a[i], 1, one_shoup, p_);
}

void ntt52_plan::pointwise(u64* x, const u64* y, unsigned threads) const {
  threads = prim::resolve_threads(threads);
#if defined(BIGMUL_HAVE_IFMA_CODE)
  if (n_ % 8 == 0 && ntt52_supported()) {
    prim::parallel_chunks(n_ / 8, 1024, threads, [&](std::size_t b, std::size_t e) {
      pointwise_run(x, y, 8 * b, 8 * e, scale52_, scale52_q_, p_);
    });
    return;
  }
#endif
  pointwise_.run(x, y, threads);
}

}  // namespace bigmul::fft
