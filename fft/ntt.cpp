// SPDX-License-Identifier: LGPL-3.0-or-later
// Portable NTT engine (three 62-bit primes), CPU: see fft/ntt.hpp.
//
// This file: lengths, the plan and its tables, the pointwise product and the
// Garner digits (fft/ntt_crt.hpp). The transforms: fft/ntt_transform.cpp;
// the radix-3 stage: ntt_radix3.cpp.
#include "fft/ntt.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fft/ntt_crt.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {

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
  if (m_ >= 2) levels_ = ntt64_levels(prime, m_ / 2);  // levels 1 .. m/2
  if (n_ != m_) radix3_ = ntt_radix3_stage(p_, ntt_primes[prime].generator, n_);
  pointwise_ = ntt_pointwise_scale(p_, n_);
}
const ntt_twiddle* ntt_plan::level(std::size_t t) const { return levels_->level(t); }

std::shared_ptr<const ntt_plan> ntt_plan::get(unsigned prime, std::size_t length) {
  return cached_ntt_plan<ntt_plan>(prime, length, 3 * 6);
}
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

}  // namespace bigmul::fft
