// SPDX-License-Identifier: LGPL-3.0-or-later
// NTT on AVX2 + FMA (4 lanes of doubles): the vector engine of the NTT
// multiply for processors without AVX-512 IFMA (Intel desktop and laptop
// parts, AMD Zen 2/3, older servers), chosen at run time.
//
// Same primes as the IFMA engine (ntt52_primes, p < 2^50) and the same
// interface and output order as ntt_plan (cyclic, lengths 2^k and 3 * 2^k,
// [0, 2p) u64 residues in and out, forward natural -> bit-reversed, inverse
// bit-reversed -> natural times n), but inside a transform the values are
// doubles holding integers in [-2p, 2p], multiplied exactly with FMA
// (fft/ntt_avx2_arith.hpp proves the bounds). The power-of-two part is the
// "twisted" evaluation tree of FLINT's fft_small [FFTSMALL]: the radix-2 step on a block
// k of any level is (x, y) -> (x + w[k] y, x - w[k] y) with one table
// w[k] = w_m^bitrev(k) for every level, so a block's twiddle is one broadcast
// (no per-butterfly twiddle loads) and the last two levels run in registers
// on 4 x 4 transposed blocks. Levels go in pairs (radix 4), depth first below
// the in-cache leaf; from ntt_avx2_quad_min()'s thresholds four at a time
// (radix 16: one pass over memory for four levels).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "fft/ntt.hpp"
#include "fft/ntt_ifma.hpp"  // ntt_fill

namespace bigmul::fft {

// Whether this processor runs the AVX2 engine (AVX2 and FMA).
bool ntt_avx2_supported();

struct ntt_avx2_twiddle_table;  // fft/ntt_level_table.hpp

// Where the power-of-two part takes four levels a pass (radix 16) instead
// of two: a block of a one-thread recursion from `serial` points, the
// threaded whole-array levels from `threaded` points. Defaults: serial off
// (SIZE_MAX), threaded 2^21 (bench_ntt's avx2_quad rows: the quads gained
// only where the threads split a whole level). The setter clamps each to at
// least 16 leaves (2^15) and returns the old pair: for tests and benchmarks
// (not thread safe against running transforms' choice of route, only
// against tearing).
struct ntt_avx2_quad_thresholds {
  std::size_t serial, threaded;
};
ntt_avx2_quad_thresholds ntt_avx2_quad_min();
ntt_avx2_quad_thresholds ntt_avx2_set_quad_min(ntt_avx2_quad_thresholds points);

// Garner's mixed-radix digits for the four primes of ntt52_primes, as
// ntt_mixed_radix_digits (4 coefficients a vector in double arithmetic).
void ntt_avx2_mixed_radix_digits(const u64* const res[], std::size_t i, std::size_t count, u64* v, unsigned used = 4);
// Garner and Horner for the first three primes, as ntt52_crt3_limbs
// (fft/ntt_ifma.hpp): coefficient i + q's limbs at x[q], x[count + q],
// x[2 count + q]; 4 coefficients a vector, exact in double FMA arithmetic.
void ntt_avx2_crt3_limbs(const u64* const res[], std::size_t i, std::size_t count, u64* x);
// The three-prime decimal digits, as ntt52_decimal_digits
// (fft/ntt_decimal_digits.hpp), 4 coefficients a vector the same way.
void ntt_avx2_decimal_digits(const u64* const res[], std::size_t i, std::size_t count, u64* d);

// The engine's vector arithmetic (fft/ntt_avx2_arith.hpp) on 4 lanes of
// integer-valued doubles, for tests at the edges of its ranges (needs
// ntt_avx2_supported()): r = x w mod p (Shoup, w_p = w / p), r = a b mod p,
// r = x mod p into [-p/2 - 1, p/2 + 1], r = fl(x / p) for |x| <= (p - 1) / 2
// (the division-free Shoup quotient).
void ntt_avx2_mulmod_shoup_lanes(const double x[4], double w, double w_p, u64 p, double r[4]);
void ntt_avx2_mulmod_lanes(const double a[4], const double b[4], u64 p, double r[4]);
void ntt_avx2_reduce_lanes(const double x[4], u64 p, double r[4]);
void ntt_avx2_quotient_lanes(const double x[4], u64 p, double r[4]);

class ntt_avx2_plan {
 public:
  // Cached, thread safe. The plan can be built anywhere; forward, inverse and
  // pointwise need ntt_avx2_supported().
  static std::shared_ptr<const ntt_avx2_plan> get(unsigned prime, std::size_t length);

  ntt_avx2_plan(unsigned prime, std::size_t length);

  std::size_t length() const { return n_; }
  u64 modulus() const { return p_; }

  // As ntt_plan: [0, 2p) in and out; forward natural -> bit-reversed,
  // inverse bit-reversed -> natural, times n; except that from 16 points
  // on, each 16 bit-reversed outputs are stored 4 x 4 transposed (output
  // 4 b + i at 4 i + b), the order the inverse reads: a product, which
  // only multiplies point by point, never sees it.
  void forward(u64* a, unsigned threads) const;
  // The same when a[nonzero ..) is known to be zero (a zero-padded operand):
  // the first step (radix 3, or the first radix-4 step on one thread) skips
  // the products and sums of its zero parts.
  void forward(u64* a, unsigned threads, std::size_t nonzero) const;
  void inverse(u64* a, unsigned threads) const;
  void pointwise(u64* x, const u64* y, unsigned threads) const;  // x = x y / n, as ntt_plan
  // A product's own path: forward_product is forward(a, threads, nonzero)
  // but, from 16 points of the power-of-two part on, leaves its outputs as
  // unreduced doubles (|x| <= 3.15p, same order) instead of u64 residues;
  // pointwise_inverse_product(x, y) takes two such outputs and leaves
  // inverse(x y / n) as u64 residues in [0, 2p). The conversions saved: ~8
  // vector operations a point a product.
  void forward_product(u64* a, unsigned threads, std::size_t nonzero) const;
  void pointwise_inverse_product(u64* x, const u64* y, unsigned threads) const;
  // dst[0 .. n) = the residues in [0, 2p) of src[0 .. len) (any 64-bit
  // values), zero-padded: the multiply's operand load, 4 lanes at a time.
  void load(u64* dst, const u64* src, std::size_t len, unsigned threads) const;
  // load(dst, src, len, threads) then forward_product(dst, threads, len) in
  // one pass fewer: from m = 16 on, the first step (radix 3, or the first
  // radix-4 step; split over the threads by columns) reads the limbs itself
  // and writes all of dst; the
  // same values as the two calls (FLINT's fft_small also converts the
  // operand inside its first pass [FFTSMALL]).
  void load_forward_product(u64* dst, const u64* src, std::size_t len, unsigned threads) const;
  // a[0 .. len) = a[i] mod p in [0, 2p) (any 64-bit values), in place, on
  // the calling thread, 4 lanes at a time: the bit-split coefficients' load,
  // block by block (the residues load() gives).
  void reduce(u64* a, std::size_t len) const;
  // forward_product(a, threads, nonzero) of the values fill writes (any
  // 64-bit values; zero from nonzero on, and fill is not asked for them),
  // equal residue for residue (the doubles within 3.15p): where
  // forward_fill_applies() (m >= 16), the first step (radix 3 on any number
  // of threads, or the first radix-4 step) reads them chunk by chunk from
  // fill through an in-cache buffer, converted in registers, and a needs no
  // load before (one pass over the array fewer); else fill, reduce, forward.
  bool forward_fill_applies() const;
  void forward_filled(u64* a, unsigned threads, std::size_t nonzero, ntt_fill fill, void* ctx) const;

  // The radix-3 stage's constants for the vector code (n = 3m, m >= 16):
  // w^(j r) = base(j0) * tw[i] for j = j0 + i, i < block; [0]: forward, [1]:
  // inverse. Doubles are signed representatives in (-p/2, p/2), *_p = . / p.
  struct radix3_tables {
    static constexpr std::size_t block = 64;
    double tw[2][2][block], tw_p[2][2][block];  // w^(+-(r + 1) i)
    u64 step[2][2], step_shoup[2][2];           // w^(+-(r + 1) block), 64-bit Shoup companion
    double cube[2], cube_p[2];                  // w3^(+-1)
  };

 private:
  // a[nonzero ..) zero; doubles: see forward_product.
  void pow2_forward(u64* a, unsigned threads, bool in_u64, std::size_t nonzero, bool doubles = false) const;
  // scaled: the outputs times 1/n (out_u64 only; inverse_scales()). y
  // (doubles only): the other factor of a pointwise product the first
  // levels take first, as pointwise_inverse_product (same layout as a).
  void pow2_inverse(u64* a, unsigned threads, bool out_u64, bool doubles = false, bool scaled = false,
                    const u64* y = nullptr) const;
  void forward_as(u64* a, unsigned threads, std::size_t nonzero, bool doubles) const;
  // The power-of-two transforms of the three thirds (n = 3m).
  void pow2_forward_thirds(u64* a, unsigned threads, bool doubles) const;
  void pow2_inverse_thirds(u64* a, unsigned threads, bool doubles, const u64* y = nullptr) const;
  void inverse_as(u64* a, unsigned threads, bool doubles, bool scaled = false, const u64* y = nullptr) const;
  // Whether the product's inverse multiplies by 1/n itself (the pointwise
  // product then does not): the power-of-two part's last step, or the
  // radix-3 stage where it builds its twiddles from a base (the base times
  // 1/n; past radix3_full_max).
  bool inverse_scales() const { return m_ >= 16 && (n_ == m_ || m_ > radix3_full_max); }
  void radix3_vector(u64* a, unsigned threads, bool inverse, std::size_t nonzero) const;
  void radix3_from(u64* a, unsigned threads, bool inverse, std::size_t nonzero, const u64* src, double c32,
                   double c32_p, bool scaled = false) const;
  // forward_filled's radix-3 step (n = 3m, m >= 16) and power-of-two part (n = m >= 16).
  void radix3_filled(u64* a, unsigned threads, std::size_t nonzero, ntt_fill fill, void* ctx) const;
  void pow2_filled(u64* a, unsigned threads, std::size_t nonzero, ntt_fill fill, void* ctx) const;

  unsigned prime_;
  u64 p_;
  std::size_t n_, m_;
  // Power-of-two part, m >= 16: w[k] = w_m^bitrev(k) and w[k]^-1 for
  // k < m/2 as signed doubles, with w / p: the prime's table shared by all
  // lengths, whole up to its cap, coarse x fine past it (fft/ntt_level_table.hpp).
  std::shared_ptr<const ntt_avx2_twiddle_table> twiddles_;
  struct table_ref {
    const double* p = nullptr;
    const double* data() const { return p; }
  };
  table_ref fw_, fw_p_, iw_, iw_p_;
  table_ref cw_, cw_p_, ciw_, ciw_p_;  // coarse entries w[kh cap] when m / 2 > cap (else null)
  // m < 16: the same twiddles as u64 in [0, p) with 64-bit Shoup companions.
  std::vector<u64> sfw_, sfw_shoup_, siw_, siw_shoup_;
  ntt_pointwise_scale pointwise_;  // scalar product (n not a multiple of 4)
  double scale_ = 0, scale_p_ = 0;  // 1 / n mod p (signed) and its quotient, for the vector product
  ntt_radix3_stage radix3_;        // scalar stage (m < 16)
  radix3_tables radix3_vec_{};     // vector stage
  // Up to radix3_full_max: every twiddle of the vector stage, [0] forward,
  // [1] inverse: w^j, w^j / p, w^2j, w^2j / p for j < m (4m doubles), so the
  // stage multiplies by table entries (Shoup) instead of first building each
  // twiddle from a base and a 64-entry table (a large part of the stage's work).
  static constexpr std::size_t radix3_full_max = std::size_t{1} << 12;
  std::vector<double> radix3_full_[2];
};

}  // namespace bigmul::fft
