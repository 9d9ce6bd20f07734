// Number-theoretic transform (NTT) modulo one of the three 62-bit primes of
// fft/ntt_arith.hpp: exact integer transforms for the three-prime NTT multiply
// (mul/ntt_mul.cpp).
//
// Shape: cyclic transform of length n = 2^k or 3 * 2^k. The forward transform
// is decimation in frequency (natural order in, digit-reversed order out), the
// inverse is decimation in time (digit-reversed in, natural out), so a
// convolution needs no permutation pass. Large power-of-two parts recurse
// depth first: one radix-2 level over the whole array, then each half on its
// own, so every level below the cache size runs from cache (cache-oblivious,
// like FLINT's fft_small and y-cruncher's NTTs). Values stay lazily reduced in
// [0, 2p) (Harvey's butterflies); twiddles are Shoup pairs (w, floor(w 2^64 / p)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "fft/ntt_arith.hpp"

namespace bigmul::fft {

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

 private:
  struct twiddle {
    u64 w, w_shoup;
  };
  void pow2_forward(u64* a, unsigned threads) const;
  void pow2_inverse(u64* a, unsigned threads) const;
  void radix3_forward(u64* a, unsigned threads) const;
  void radix3_inverse(u64* a, unsigned threads) const;
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
  // w_m^j for j in [0, m/2], w_m a primitive m-th root of unity.
  std::vector<twiddle> table_;
  // Radix-3 stage (n = 3m): w_n in Montgomery form (times 2^64 mod p) and its
  // inverse, and the cube roots w_n^m, w_n^-m as Shoup pairs.
  u64 root_n_ = 0, root_n_inv_ = 0, r_mod_p_ = 0;  // w_n, w_n^-1, 2^64 mod p
  u64 root_n_mont_ = 0, root_n_inv_mont_ = 0, p_neg_inv_ = 0;
  twiddle cube_root_{}, cube_root_inv_{};
};

// The smallest supported transform length >= count (count >= 1); 0 if count
// exceeds ntt_max_length.
std::size_t ntt_fit_length(std::size_t count);

}  // namespace bigmul::fft
