// SPDX-License-Identifier: LGPL-3.0-or-later
// Products by one fixed operand (binary or decimal limbs) whose forward transforms are computed
// once and reused by every product (internal): the radix converter multiplies
// every node of a tree level by the same power 5^m, so caching that power's
// transform saves one of the three transforms of each product (FLINT keeps
// its fixed operands transformed the same way [FLINT]). The products are
// cyclic, modulo B^n - 1 (B = 2^64): a caller that needs only a middle window
// of a * b lets the high limbs wrap onto low limbs it discards, and pays a
// transform of the window's length instead of the product's [BERNSTEIN04].
//
// Built on the NTT engines of fft/ (the engine ntt_resolve_engine picks, as
// bigmul::mul does); lives in src/arith beside the radix converter.
// bigmul::fixed_factor (src/fixed_factor.cpp) offers its exact products.
#pragma once

#include <cstddef>
#include <memory>

#include "bigmul/config.hpp"
#include "mul/ntt_mul.hpp"

namespace bigmul::detail {

class ntt_fixed_factor {
 public:
  // b[0 .. bn) (bn >= 1) in radix rx (B = 2^64 or 10^19), for products by
  // operands of at most max_an limbs, modulo B^n - 1 with n >= max(min_length,
  // max_an, bn) a transform length. may_fold (exact products only, no
  // mul_mod): n may be a shorter length, the min_length - n coefficients
  // past it recomputed by a short product (low_length() points) or a
  // twisted piece (piece_length() points, where the multiply takes one for
  // a max_an x bn product) where that costs less; and large binary products cut limbs
  // into coefficients of the multiply's width (fewer bits where three
  // primes then cover them, or more over four primes) where the transforms
  // come out shorter (force_bits, tests: that many bits). Exact products
  // go through the multiply's Chinese remaindering and carries.
  ntt_fixed_factor(const limb_t* b, std::size_t bn, std::size_t max_an, std::size_t min_length,
                   radix rx = radix::binary, bool may_fold = false, unsigned force_bits = 0);
  ~ntt_fixed_factor();
  ntt_fixed_factor(const ntt_fixed_factor&) = delete;
  ntt_fixed_factor& operator=(const ntt_fixed_factor&) = delete;

  std::size_t length() const;  // n
  std::size_t max_an() const;
  std::size_t low_length() const;   // the fold's short transform (0: not folded, or by a piece)
  std::size_t piece_length() const; // the fold's twisted piece (mul/ntt_piece.hpp; 0: none)
  std::size_t kept_bytes() const;   // b's transforms
  unsigned coefficient_bits() const;  // bits a coefficient (64: whole limbs)
  // The bytes such an object keeps plus one product's residue arrays
  // (SIZE_MAX: no transform that long).
  static std::size_t bytes(std::size_t bn, std::size_t max_an, std::size_t min_length, radix rx, bool may_fold);
  unsigned primes() const;          // the primes each product transforms over
  const char* engine_name() const;  // the NTT engine: "ifma", "avx2" or "portable"

  // r[0 .. n) = a * b mod (B^n - 1) for a[0 .. an), an <= max_an: a value in
  // [0, B^n - 1] (B^n - 1 stands for 0); exactly a * b when a * b < B^n - 1.
  // threads: 0 for the library's default (1 inside a parallel task).
  void mul_mod(limb_t* r, const limb_t* a, std::size_t an, unsigned threads = 0) const;
  // The same into the calling thread's result buffer (n limbs, kept between
  // calls: no fresh pages a product), valid until its next call.
  // r[0 .. an + bn) = a * b exactly, for 1 <= an <= max_an with
  // an + bn - 1 <= min_length (what bigmul::fixed_factor prepares: no
  // coefficient wraps, or the fold recomputes it). Throws invalid_argument
  // otherwise.
  void mul_exact(limb_t* r, const limb_t* a, std::size_t an, unsigned threads = 0) const;
  const limb_t* mul_mod_scratch(const limb_t* a, std::size_t an, unsigned threads = 0) const;

  struct state;

 private:
  struct shape {
    std::size_t n = 0, wrap = 0, low_n = 0, piece = 0;
    unsigned primes = 0, bits = 64;
  };
  static shape choose_shape(ntt_engine e, std::size_t bn, std::size_t max_an, std::size_t min_length,
                            bool may_fold);
  static shape choose(ntt_engine e, std::size_t bn, std::size_t max_an, std::size_t min_length, radix rx,
                      bool may_fold, unsigned force_bits);
  void run(limb_t* r, std::size_t rn, std::size_t count, bool cyclic, const limb_t* a, std::size_t an,
           unsigned threads) const;
  std::unique_ptr<state> s_;
};

// Frees the calling thread's buffers kept by mul_mod between calls.
void ntt_reuse_release_scratch();

}  // namespace bigmul::detail
