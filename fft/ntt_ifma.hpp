// SPDX-License-Identifier: LGPL-3.0-or-later
// NTT on AVX-512 IFMA (52-bit integer multiply-add, 8 lanes): the fast CPU
// engine of the NTT multiply where the processor has it (AMD Zen 4+, Intel
// Ice Lake+), chosen at run time; ntt_plan (fft/ntt.hpp) is the portable one.
//
// Same transform shape as ntt_plan (cyclic, lengths 2^k and 3 * 2^k,
// decimation in frequency forward, in time inverse, lazy values in [0, 2p)),
// but modulo the four primes below 2^50 of fft/ntt_arith.hpp (ntt52_primes),
// so that lazy sums (< 4p) fit the 52-bit multiplier lanes. Four of them (~2^200) cover every coefficient of 64-bit
// limbs, n * (2^64 - 1)^2 < 2^162. Twiddles are Shoup pairs with a 2^52
// companion, stored level by level (level t: w_2t^j for j = 0 .. t) so that
// every vector load is contiguous (the inverse has its own, reversed) up to level 2^11; bigger
// levels multiply by a coarse and a fine entry in turn (fft/ntt_level_table.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "fft/ntt.hpp"

namespace bigmul::fft {

struct ntt52_level_table;  // fft/ntt_level_table.hpp

// Whether this processor runs the IFMA engine (AVX-512F and AVX-512 IFMA).
bool ntt52_supported();

// Garner's mixed-radix digits for the four primes of ntt52_primes, as
// ntt_mixed_radix_digits (8 coefficients a vector where the processor has IFMA).
void ntt52_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used = 4);
// Three primes: each coefficient c = v0 + p0 (v1 + p1 v2) < 2^151 (Garner's
// digits v_k of residues in [0, 2p_k), then Horner) as three 64-bit limbs,
// limb l of coefficient i + q at x[l count + q]: 8 coefficients a vector
// where the processor has IFMA, else scalar. The binary carries then only add.
void ntt52_crt3_limbs(const u64* const res[], std::size_t i, std::size_t count, u64* x);

// A source of transform inputs: coefficient j written to dst[j - b] for j
// in [b, e), any 64-bit values (ntt52_plan::forward_filled reduces them).
using ntt_fill = void (*)(void* ctx, u64* dst, std::size_t b, std::size_t e);

// Power-of-two blocks of at least this many points take four levels in one
// pass over memory (radix 16) instead of two, and threaded transforms' whole
// arrays from half as many; set from measurements
// (fft/ntt_ifma_transform.cpp). The setter (clamped to 16 leaves, 2^16)
// returns the old value; tests lower it so that short transforms take the
// quad passes too. Set it only while no transform runs.
std::size_t ntt52_quad_min();
std::size_t ntt52_set_quad_min(std::size_t points);

class ntt52_plan {
 public:
  // Cached, thread safe. The plan can be built anywhere; forward/inverse
  // need ntt52_supported().
  static std::shared_ptr<const ntt52_plan> get(unsigned prime, std::size_t length);

  ntt52_plan(unsigned prime, std::size_t length);

  std::size_t length() const { return n_; }
  u64 modulus() const { return p_; }

  // As ntt_plan: [0, 2p) in and out; forward natural -> digit-reversed,
  // inverse digit-reversed -> natural, times n; except that where the
  // power-of-two part has 16 points or more, each 16 outputs are stored
  // even positions first, then odd (output i at i / 2, or 8 + i / 2 for
  // odd i), the order the inverse reads: a product, which only multiplies
  // point by point, never sees it.
  void forward(u64* a, unsigned threads) const;
  // The same when a[nonzero ..) is known to be zero (a zero-padded operand):
  // the first step (radix 3, or the first pair of levels on one thread)
  // skips the sums and products of its zero parts.
  void forward(u64* a, unsigned threads, std::size_t nonzero) const;
  // How much of a that forward(a, threads, nonzero) reads before writing:
  // a[extent ..) may hold anything, so a zero-padded operand's loader need
  // not write the zeros past it (past nonzero + 64 or one radix-3 third;
  // at large sizes most of a load's stores).
  std::size_t forward_extent(std::size_t nonzero, unsigned threads) const;
  void inverse(u64* a, unsigned threads) const;
  void pointwise(u64* x, const u64* y, unsigned threads) const;  // x = x y / n, as ntt_plan
  // pointwise(x, y) then inverse(x), the product taken block by block as the
  // inverse's in-cache leaves first read them: one pass over memory fewer.
  void pointwise_inverse(u64* x, const u64* y, unsigned threads) const;
  // dst[0 .. n) = the residues in [0, 2p) of src[0 .. len) (any 64-bit
  // values), zero-padded up to min(n, end): the multiply's operand load, 8
  // lanes at a time (end: forward_extent(len, ..) where forward reads no further).
  void load(u64* dst, const u64* src, std::size_t len, unsigned threads, std::size_t end = ~std::size_t{0}) const;
  // a[0 .. len) = a[i] mod p in [0, 2p) (any 64-bit values), in place, on
  // the calling thread: the bit-split coefficients' load, block by block.
  void reduce(u64* a, std::size_t len) const;
  // forward(a, threads, nonzero) of the values fill writes (zero from
  // nonzero on), read straight into the radix-3 step: a needs no load
  // before (one pass over the array fewer). n = 3m with 64 | m only
  // (forward_fill_applies), on one thread or split over threads.
  bool forward_fill_applies() const;
  void forward_filled(u64* a, unsigned threads, std::size_t nonzero, ntt_fill fill, void* ctx) const;

  // The radix-3 stage's constants for the vector code (n = 3m, m >= 8):
  // twiddles w^(j r) = base(j0) * tw[i], j = j0 + i, the base in Montgomery
  // form with R = 2^52 and stepped by w^(64 r) once per 64 j; [0]: forward,
  // [1]: inverse (w^-1).
  struct radix3_tables {
    static constexpr std::size_t block = 64;
    u64 tw[2][2][block], tw_q[2][2][block];  // w^(+-r i), floor(. 2^52 / p)
    u64 step[2][2], step_shoup[2][2];         // w^(+-r 64), 64-bit Shoup companion
    u64 cube[2], cube_q[2];                   // w3^(+-1), 52-bit companion
    u64 r52_mod_p, p_neg_inv52;
  };

 private:
  void pow2_forward(u64* a, unsigned threads) const;
  void pow2_inverse(u64* a, unsigned threads, const u64* y = nullptr) const;
  void rec_forward(u64* a, std::size_t size) const;
  void rec_inverse(u64* a, std::size_t size, const u64* y = nullptr) const;  // y: pointwise_inverse's
  const u64* level_w(std::size_t t) const { return w_.data() + level_offset(t); }
  const u64* level_wq(std::size_t t) const { return wq_.data() + level_offset(t); }
  static std::size_t level_offset(std::size_t t);  // where level t's t + 1 entries start

  unsigned prime_;
  u64 p_;
  std::size_t n_, m_;
  // Per level t = 1, 2, 4 .. m/2: w_2t^j and floor(w 2^52 / p), j = 0 .. t,
  // in the prime's table shared by all lengths (fft/ntt_level_table.hpp).
  std::shared_ptr<const ntt52_level_table> levels_;
  struct table_ref {
    const u64* p = nullptr;
    const u64* data() const { return p; }
  };
  table_ref w_, wq_;  // levels_->w, levels_->wq
  ntt_pointwise_scale pointwise_;   // scalar product (n not a multiple of 8)
  u64 scale52_ = 0, scale52_q_ = 0;  // 2^52 / n mod p and its 52-bit companion (vector product)
  ntt_radix3_stage radix3_;   // scalar stage (m < 8)
  radix3_tables radix3_vec_{};  // vector stage
  void radix3_vector(u64* a, unsigned threads, bool inverse, std::size_t nonzero = ~std::size_t{0}) const;
};

}  // namespace bigmul::fft
