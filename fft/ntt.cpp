// Portable NTT engine (three 62-bit primes), CPU: see fft/ntt.hpp.
#include "fft/ntt.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fft/ntt_crt.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {
namespace {

// Sub-transforms of at most this many values (16 KiB) run level by level in
// L1; larger ones recurse. Measured with bench_ntt (bench/fft).
constexpr std::size_t leaf_size = std::size_t{1} << 11;
// Butterflies per task in a parallel level pass.
constexpr std::size_t level_grain = std::size_t{1} << 14;

}  // namespace

std::size_t ntt_fit_length(std::size_t count) {
  if (count > ntt_max_length) return 0;
  std::size_t pow2 = 1;
  while (pow2 < count) pow2 <<= 1;
  // 3 * 2^(k-2) lies between 2^(k-1) and 2^k: take it when it is enough.
  if (pow2 >= 4 && 3 * (pow2 / 4) >= count) return 3 * (pow2 / 4);
  return pow2;
}

std::size_t ntt_length_below(std::size_t count) {
  std::size_t best = 1;
  for (std::size_t p = 1; p < count && p <= ntt_max_length; p <<= 1) {
    best = std::max(best, p);
    if (3 * p < count && 3 * p <= ntt_max_length) best = std::max(best, 3 * p);
  }
  return best;
}

ntt_plan::ntt_plan(unsigned prime, std::size_t length) : prime_(prime), n_(length) {
  if (prime >= ntt_prime_count) throw std::invalid_argument("ntt_plan: prime index out of range");
  if (length == 0 || ntt_fit_length(length) != length)
    throw std::invalid_argument("ntt_plan: length " + std::to_string(length) + " is not 2^k or 3*2^k <= 3*2^32");
  p_ = ntt_primes[prime].p;
  m_ = n_ % 3 == 0 ? n_ / 3 : n_;
  const u64 root_n = pow_mod(ntt_primes[prime].generator, (p_ - 1) / n_, p_);
  const u64 root_m = n_ == m_ ? root_n : pow_mod(root_n, 3, p_);
  const u64 root_m_shoup = shoup_companion(root_m, p_);

  const std::size_t entries = m_ / 2 + 1;
  table_.resize(entries);
  prim::parallel_chunks(entries, std::size_t{1} << 12, 0, [&](std::size_t b, std::size_t e) {
    u64 w = pow_mod(root_m, b, p_);
    for (std::size_t j = b; j < e; ++j) {
      table_[j] = {w, shoup_companion(w, p_)};
      w = mul_shoup(w, root_m, root_m_shoup, p_);
    }
  });

  if (n_ != m_) radix3_ = ntt_radix3_stage(p_, ntt_primes[prime].generator, n_);
  pointwise_ = ntt_pointwise_scale(p_, n_);
}

ntt_radix3_stage::ntt_radix3_stage(u64 prime, u64 generator, std::size_t n) : p(prime), m(n / 3) {
  p_neg_inv = neg_inverse_mod_2_64(p);
  r_mod_p = static_cast<u64>((static_cast<u128>(1) << 64) % p);
  root_n = pow_mod(generator, (p - 1) / n, p);
  root_n_inv = inv_mod(root_n, p);
  cube_root = pow_mod(root_n, m, p);
  cube_root_inv = inv_mod(cube_root, p);
  cube_root_shoup = shoup_companion(cube_root, p);
  cube_root_inv_shoup = shoup_companion(cube_root_inv, p);
  for (int d = 0; d < 2; ++d)
    for (int r = 0; r < 2; ++r) {
      const u64 w = pow_mod(d == 0 ? root_n : root_n_inv, r + 1, p);
      u64 x = 1;
      for (std::size_t i = 0; i < block; ++i, x = mul_mod(x, w, p)) {
        tw[d][r][i] = x;
        tw_shoup[d][r][i] = shoup_companion(x, p);
      }
      block_step_mont[d][r] = mul_mod(x, r_mod_p, p);  // x = w^block
    }
}

std::shared_ptr<const ntt_plan> ntt_plan::get(unsigned prime, std::size_t length) {
  return cached_ntt_plan<ntt_plan>(prime, length, 3 * 6);
}

// ---- power-of-two part --------------------------------------------------

void ntt_plan::leaf_forward(u64* a, std::size_t size) const {
  const u64 p = p_, two_p = 2 * p;
  const twiddle* T = table_.data();
  for (std::size_t t = size / 2; t >= 2; t /= 2) {
    const std::size_t s = m_ / (2 * t);
    for (std::size_t k = 0; k < size; k += 2 * t) {
      u64* x = a + k;
      u64* y = x + t;
      for (std::size_t j = 0; j < t; ++j) butterfly_dif(x[j], y[j], T[j * s].w, T[j * s].w_shoup, p);
    }
  }
  if (size >= 2)  // t = 1: the twiddle is 1
    for (std::size_t k = 0; k < size; k += 2) {
      const u64 x = a[k], y = a[k + 1];
      const u64 s = x + y, d = x - y + two_p;
      a[k] = s >= two_p ? s - two_p : s;
      a[k + 1] = d >= two_p ? d - two_p : d;
    }
}

void ntt_plan::leaf_inverse(u64* a, std::size_t size) const {
  const u64 p = p_, two_p = 2 * p;
  const twiddle* T = table_.data();
  const std::size_t half = m_ / 2;
  if (size >= 2)
    for (std::size_t k = 0; k < size; k += 2) {
      const u64 x = a[k], y = a[k + 1];
      const u64 s = x + y, d = x - y + two_p;
      a[k] = s >= two_p ? s - two_p : s;
      a[k + 1] = d >= two_p ? d - two_p : d;
    }
  for (std::size_t t = 2; t < size; t *= 2) {
    const std::size_t s = m_ / (2 * t);
    for (std::size_t k = 0; k < size; k += 2 * t) {
      u64* x = a + k;
      u64* y = x + t;
      for (std::size_t j = 0; j < t; ++j) {
        const twiddle& w = T[half - j * s];
        butterfly_dit_negated(x[j], y[j], w.w, w.w_shoup, p);
      }
    }
  }
}

void ntt_plan::rec_forward(u64* a, std::size_t size) const {
  if (size <= leaf_size) return leaf_forward(a, size);
  const std::size_t t = size / 2, s = m_ / size;
  const twiddle* T = table_.data();
  for (std::size_t j = 0; j < t; ++j) butterfly_dif(a[j], a[j + t], T[j * s].w, T[j * s].w_shoup, p_);
  rec_forward(a, t);
  rec_forward(a + t, t);
}

void ntt_plan::rec_inverse(u64* a, std::size_t size) const {
  if (size <= leaf_size) return leaf_inverse(a, size);
  const std::size_t t = size / 2, s = m_ / size, half = m_ / 2;
  rec_inverse(a, t);
  rec_inverse(a + t, t);
  const twiddle* T = table_.data();
  for (std::size_t j = 0; j < t; ++j) {
    const twiddle& w = T[half - j * s];
    butterfly_dit_negated(a[j], a[j + t], w.w, w.w_shoup, p_);
  }
}

// One radix-2 level with half-size t over the whole power-of-two array, the
// m/2 butterflies split over the threads.
void ntt_plan::level_forward(u64* a, std::size_t t, unsigned threads) const {
  const std::size_t s = m_ / (2 * t);
  const twiddle* T = table_.data();
  ntt_parallel_level(m_, t, 1, level_grain, threads, [&](std::size_t at, std::size_t j0, std::size_t len) {
    u64* x = a + at;
    for (std::size_t i = 0; i < len; ++i) {
      const twiddle& w = T[(j0 + i) * s];
      butterfly_dif(x[i], x[i + t], w.w, w.w_shoup, p_);
    }
  });
}

void ntt_plan::level_inverse(u64* a, std::size_t t, unsigned threads) const {
  const std::size_t s = m_ / (2 * t), half = m_ / 2;
  const twiddle* T = table_.data();
  ntt_parallel_level(m_, t, 1, level_grain, threads, [&](std::size_t at, std::size_t j0, std::size_t len) {
    u64* x = a + at;
    for (std::size_t i = 0; i < len; ++i) {
      const twiddle& w = T[half - (j0 + i) * s];
      butterfly_dit_negated(x[i], x[i + t], w.w, w.w_shoup, p_);
    }
  });
}

// With several threads: whole-array levels until there are enough
// independent sub-transforms to share out, then one task per sub-transform.
void ntt_plan::pow2_forward(u64* a, unsigned threads) const {
  if (threads <= 1 || m_ <= leaf_size) return rec_forward(a, m_);
  const std::size_t size = ntt_task_size(m_, leaf_size, threads);
  for (std::size_t s = m_; s > size; s /= 2) level_forward(a, s / 2, threads);
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_forward(a + b * size, size); });
}

void ntt_plan::pow2_inverse(u64* a, unsigned threads) const {
  if (threads <= 1 || m_ <= leaf_size) return rec_inverse(a, m_);
  std::size_t size = ntt_task_size(m_, leaf_size, threads);
  prim::parallel_for(m_ / size, threads, [&](std::size_t b) { rec_inverse(a + b * size, size); });
  for (; size < m_; size *= 2) level_inverse(a, size, threads);
}

// ---- radix-3 stage (n = 3m) ----------------------------------------------

// Chunks start on block boundaries, so i = j mod block indexes the tables.
void ntt_radix3_stage::forward(u64* a, unsigned threads) const {
  const u64 pni = p_neg_inv;
  const std::size_t blocks = (m + block - 1) / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    u64 base1 = mul_mod(pow_mod(root_n, b0 * block, p), r_mod_p, p);  // w^j0 R
    u64 base2 = mul_mod(pow_mod(root_n, 2 * b0 * block, p), r_mod_p, p);
    for (std::size_t blk = b0; blk < b1; ++blk) {
      const std::size_t j0 = blk * block, len = std::min(block, m - j0);
      for (std::size_t i = 0; i < len; ++i) {
        const std::size_t j = j0 + i;
        const u64 w1 = mul_shoup(base1, tw[0][0][i], tw_shoup[0][0][i], p);  // w^j R
        const u64 w2 = mul_shoup(base2, tw[0][1][i], tw_shoup[0][1][i], p);
        const u64 x0 = reduce_2p_to_p(a[j], p), x1 = reduce_2p_to_p(a[j + m], p),
                  x2 = reduce_2p_to_p(a[j + 2 * m], p);
        const u64 u = mul_shoup(sub_mod(x1, x2, p), cube_root, cube_root_shoup, p);
        a[j] = add_mod(add_mod(x0, x1, p), x2, p);
        a[j + m] = mont_mul(add_mod(sub_mod(x0, x2, p), u, p), w1, p, pni);
        a[j + 2 * m] = mont_mul(sub_mod(sub_mod(x0, x1, p), u, p), w2, p, pni);
      }
      base1 = mont_mul(base1, block_step_mont[0][0], p, pni);
      base2 = mont_mul(base2, block_step_mont[0][1], p, pni);
    }
  });
}

// z_r = y_r w_n^(-j r), x_l = sum_r z_r w3^(-l r).
void ntt_radix3_stage::inverse(u64* a, unsigned threads) const {
  const u64 pni = p_neg_inv;
  const std::size_t blocks = (m + block - 1) / block;
  prim::parallel_chunks(blocks, 64, threads, [&](std::size_t b0, std::size_t b1) {
    u64 base1 = mul_mod(pow_mod(root_n_inv, b0 * block, p), r_mod_p, p);
    u64 base2 = mul_mod(pow_mod(root_n_inv, 2 * b0 * block, p), r_mod_p, p);
    for (std::size_t blk = b0; blk < b1; ++blk) {
      const std::size_t j0 = blk * block, len = std::min(block, m - j0);
      for (std::size_t i = 0; i < len; ++i) {
        const std::size_t j = j0 + i;
        const u64 w1 = mul_shoup(base1, tw[1][0][i], tw_shoup[1][0][i], p);
        const u64 w2 = mul_shoup(base2, tw[1][1][i], tw_shoup[1][1][i], p);
        const u64 z0 = reduce_2p_to_p(a[j], p);
        const u64 z1 = mont_mul(a[j + m], w1, p, pni), z2 = mont_mul(a[j + 2 * m], w2, p, pni);
        const u64 u = mul_shoup(sub_mod(z1, z2, p), cube_root_inv, cube_root_inv_shoup, p);
        a[j] = add_mod(add_mod(z0, z1, p), z2, p);
        a[j + m] = add_mod(sub_mod(z0, z2, p), u, p);
        a[j + 2 * m] = sub_mod(sub_mod(z0, z1, p), u, p);
      }
      base1 = mont_mul(base1, block_step_mont[1][0], p, pni);
      base2 = mont_mul(base2, block_step_mont[1][1], p, pni);
    }
  });
}

// ---- whole transforms -------------------------------------------------------

void ntt_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used) {
  static const garner_constants<3> g(ntt_primes);
  g.digits(res, i, count, v, used);
}

ntt_pointwise_scale::ntt_pointwise_scale(u64 prime, std::size_t length) : p(prime), n(length) {
  p_neg_inv = neg_inverse_mod_2_64(p);
  const u64 r_mod_p = static_cast<u64>((static_cast<u128>(1) << 64) % p);
  scale = mul_mod(r_mod_p, inv_mod(n % p, p), p);
  scale_shoup = shoup_companion(scale, p);
}

// A Montgomery product (x y / 2^64) times 2^64 / n.
void ntt_pointwise_scale::run(u64* x, const u64* y, unsigned threads) const {
  prim::parallel_chunks(n, std::size_t{1} << 13, threads, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      const u64 m = montgomery_reduce_lazy(static_cast<u128>(x[i]) * y[i], p, p_neg_inv);
      x[i] = mul_shoup_lazy(m, scale, scale_shoup, p);
    }
  });
}

void ntt_plan::pointwise(u64* x, const u64* y, unsigned threads) const {
  pointwise_.run(x, y, prim::resolve_threads(threads));
}

void ntt_plan::forward(u64* a, unsigned threads) const {
  threads = prim::resolve_threads(threads);
  if (n_ == m_) return pow2_forward(a, threads);
  radix3_.forward(a, threads);
  for (int r = 0; r < 3; ++r) pow2_forward(a + r * m_, threads);
}

void ntt_plan::inverse(u64* a, unsigned threads) const {
  threads = prim::resolve_threads(threads);
  if (n_ == m_) return pow2_inverse(a, threads);
  for (int r = 0; r < 3; ++r) pow2_inverse(a + r * m_, threads);
  radix3_.inverse(a, threads);
}

}  // namespace bigmul::fft
