// SPDX-License-Identifier: LGPL-3.0-or-later
// Number-theoretic transform (NTT) modulo one of the three 62-bit primes of
// fft/ntt_arith.hpp: exact integer transforms of the portable engine of the
// NTT multiply (mul/ntt_mul.cpp).
//
// Shape: cyclic transform of length n = 2^k or 3 * 2^k. The forward transform
// is decimation in frequency (natural order in, digit-reversed order out), the
// inverse is decimation in time (digit-reversed in, natural out), so a
// convolution needs no permutation pass. Large power-of-two parts recurse
// depth first: one radix-2 level over the whole array, then each half on its
// own, so every level below the cache size runs from cache (cache-oblivious,
// like FLINT's fft_small [FFTSMALL] and y-cruncher's NTTs). Values stay lazily reduced in
// [0, 2p) (Harvey's butterflies [HARVEY14]); twiddles are Shoup pairs [SHOUP] (w, floor(w 2^64 / p)).
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "fft/ntt_arith.hpp"
#include "fft/ntt_level_table.hpp"
#include "prim/parallel.hpp"

namespace bigmul::fft {

// The radix-3 decimation stage of a length n = 3m transform, shared by the
// NTT engines (fft/ntt_radix3.cpp): the portable engine, and the AVX2 engine for its roots and short (m < 16) stages; any p < 2^62.
// forward: x_l = a[j + l m] -> y_r = sum_l x_l w3^(l r) times w_n^(j r), so each
// third becomes a length-m cyclic DFT of its own. inverse undoes it (up to
// the factor 3). Values [0, 2p) in, [0, p) out.
//
// Twiddles w^(j r) come from a block base (w^(j0 r) 2^64 mod p, Montgomery
// form, stepped once per block) times a small Shoup table w^(i r), i < block,
// so consecutive j carry no dependency chain.
struct ntt_radix3_stage {
  static constexpr std::size_t block = 64;
  u64 p = 0, p_neg_inv = 0, r_mod_p = 0;  // 2^64 mod p: Montgomery form
  u64 root_n = 0, root_n_inv = 0;
  u64 cube_root = 0, cube_root_shoup = 0, cube_root_inv = 0, cube_root_inv_shoup = 0;
  // [direction][r - 1][i]: w^(+-r i) and its Shoup companion, i < block.
  u64 tw[2][2][block] = {}, tw_shoup[2][2][block] = {};
  u64 block_step_mont[2][2] = {};  // w^(+-r block) 2^64 mod p
  std::size_t m = 0;

  ntt_radix3_stage() = default;
  ntt_radix3_stage(u64 p, u64 generator, std::size_t n);
  void forward(u64* a, unsigned threads) const;
  void inverse(u64* a, unsigned threads) const;
};

// The plan cache shared by the NTT engines: one immutable plan per (prime,
// length), built outside the lock; at most max_entries (then it starts over;
// a caller still holding a plan keeps it alive). Thread safe.
template <class Plan>
std::shared_ptr<const Plan> cached_ntt_plan(unsigned prime, std::size_t length, std::size_t max_entries) {
  static std::mutex mutex;
  static std::map<std::pair<unsigned, std::size_t>, std::shared_ptr<const Plan>> cache;
  const auto key = std::make_pair(prime, length);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  auto plan = std::make_shared<const Plan>(prime, length);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= max_entries) cache.clear();
  return cache.emplace(key, std::move(plan)).first->second;
}

// The sub-transform size at which a multithreaded power-of-two transform of
// length m stops splitting levels over the threads and hands out whole
// sub-transforms instead: at least 4 per thread, none below the leaf size.
inline std::size_t ntt_task_size(std::size_t m, std::size_t leaf, unsigned threads) {
  std::size_t size = m;
  for (std::size_t blocks = 1; blocks < 4 * std::size_t{threads} && size > leaf; blocks *= 2) size /= 2;
  return size;
}

// The pointwise product of two length-n transforms mod p, with the inverse's
// factor 1/n folded in: x[i] = x[i] y[i] / n, scalar 64-bit arithmetic (any
// p < 2^62), [0, 2p) in and out. The constants are a plan's, built once.
struct ntt_pointwise_scale {
  u64 p = 0, p_neg_inv = 0, scale = 0, scale_shoup = 0;  // scale = 2^64 / n mod p
  std::size_t n = 0;

  ntt_pointwise_scale() = default;
  ntt_pointwise_scale(u64 p, std::size_t n);
  void run(u64* x, const u64* y, unsigned threads) const;
};

// Runs block(at, j0, len) over the m/2 butterflies of the radix-2 level with
// half-size t of a length-m power-of-two transform, split over the threads in
// runs of whole `unit`s (t a multiple of unit): the pairs (at + i, at + i + t)
// for i < len, whose twiddle index is j0 + i.
template <class Block>
void ntt_parallel_level(std::size_t m, std::size_t t, std::size_t unit, std::size_t grain_units, unsigned threads,
                        Block&& block) {
  prim::parallel_chunks(m / 2 / unit, grain_units, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t q = unit * b, q_end = unit * e; q < q_end;) {
      const std::size_t k = q / t, j0 = q % t, j1 = std::min(t, j0 + (q_end - q));
      block(k * 2 * t + j0, j0, j1 - j0);
      q += j1 - j0;
    }
  });
}

class ntt_plan {
 public:
  // The cached plan for this prime (index into ntt_primes) and length (a
  // supported length, see ntt_fit_length). Thread safe.
  static std::shared_ptr<const ntt_plan> get(unsigned prime, std::size_t length);

  ntt_plan(unsigned prime, std::size_t length);

  std::size_t length() const { return n_; }
  u64 modulus() const { return p_; }

  // In place, values in [0, 2p) in and out. forward: natural order in,
  // digit-reversed out. inverse: digit-reversed in, natural out, times n
  // (the caller folds 1/n into its pointwise product).
  void forward(u64* a, unsigned threads) const;
  void inverse(u64* a, unsigned threads) const;
  // x[i] = x[i] y[i] / n for two forward transforms (y may be x: squaring);
  // [0, 2p) in and out. Folds the inverse's factor n.
  void pointwise(u64* x, const u64* y, unsigned threads) const;

 private:
  using twiddle = ntt_twiddle;
  void pow2_forward(u64* a, unsigned threads) const;
  void pow2_inverse(u64* a, unsigned threads) const;
  void leaf_forward(u64* a, std::size_t size) const;
  void leaf_inverse(u64* a, std::size_t size) const;
  void rec_forward(u64* a, std::size_t size) const;
  void rec_inverse(u64* a, std::size_t size) const;
  void level_forward(u64* a, std::size_t t, unsigned threads) const;
  void level_inverse(u64* a, std::size_t t, unsigned threads) const;

  unsigned prime_;
  u64 p_;
  std::size_t n_;  // transform length
  std::size_t m_;  // its power-of-two part (n_ = m_ or 3 m_)
  // Level t = 1, 2, 4 .. m/2: (w_2t^j, Shoup companion), j = 0 .. t, in the
  // prime's table shared by all lengths (fft/ntt_level_table.hpp).
  std::shared_ptr<const ntt64_level_table> levels_;
  const twiddle* level(std::size_t t) const;
  ntt_radix3_stage radix3_;  // n = 3m only
  ntt_pointwise_scale pointwise_;
};


// Garner's mixed-radix digits (fft/ntt_crt.hpp) of coefficients i .. i + count
// from the residue arrays of the first `used` primes of ntt_primes; digit k of
// coefficient c at v[k count + c].
void ntt_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used = 3);

// The smallest supported transform length >= count (count >= 1); 0 if count
// exceeds ntt_max_length.
std::size_t ntt_fit_length(std::size_t count);
// The largest supported transform length < count (count >= 2).
std::size_t ntt_length_below(std::size_t count);

}  // namespace bigmul::fft
