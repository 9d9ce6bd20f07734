// SPDX-License-Identifier: LGPL-3.0-or-later
// The twisted second piece of a folded NTT product (mul/ntt_driver.hpp).
//
// A product P = a b with count = n + w coefficients (0 < w <= M, M | n) is
// recovered from two cyclic products instead of one of length >= count:
//   r1 = P mod (x^n - 1)   (the main transform of length n), and
//   r2 = P mod (x^M - c)   (a length-M "piece"), c = theta^M, theta^n = -1.
// Modulo x^M - c, x^n = c^(n/M) = -1, so x^n - 1 = -2 there: writing
// P = r1 + (x^n - 1) Q (deg Q < w <= M), Q = (r2 - (r1 mod (x^M - c))) (-1/2),
// P[j] = r1[j] - Q[j] and P[n + j] = Q[j]; Q[j] = 0 for w <= j < M is a free
// consistency check of both products. The piece itself is cyclic after the
// twist x = theta y: x^M - c = c (y^M - 1), so the engines' plain length-M
// transforms compute it from a2[j] = theta^j sum_k c^k a[kM + j] (and b2),
// and their inverse gives t[j] = theta^j r2[j]. Transform work n + M points
// instead of the next supported length (10^8 digits: 2^23 + 2^21 against
// 3 * 2^22), at the price of one pass over each operand (the fold) and one
// over r1 (the combine). Any prime with 2n | p - 1 (theta of order 2n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::detail {

// The piece length for a product overhanging n by w: the smallest supported
// transform length M (2^k or 3 * 2^k) with M | n, M >= max(w, 16), M < n;
// 0 if there is none or if theta does not exist for the NTT primes (2n must
// divide p - 1 = c 2^32: n's power-of-two part at most 2^31).
std::size_t ntt_piece_length(std::size_t n, std::size_t w);

class ntt_piece {
 public:
  // How the passes run: scalar 64-bit Shoup products (any p < 2^62), or
  // vectors for p < 2^50 where the processor has them (the engine's own
  // arithmetic, fft/ntt_ifma_arith.hpp, fft/ntt_avx2_arith.hpp): 8 lanes of
  // AVX-512 IFMA (fft::ntt52_supported()) or 4 of AVX2 + FMA doubles
  // (fft::ntt_avx2_supported()).
  enum class lanes { scalar, ifma, avx2 };
  // Cached per (p, n, m, lanes): theta = generator^((p - 1) / 2n) and its
  // block tables (thread safe). p < 2^62, 2n | p - 1.
  static std::shared_ptr<const ntt_piece> get(std::uint64_t p, std::uint64_t generator, std::size_t n, std::size_t m,
                                              lanes l);
  ntt_piece(std::uint64_t p, std::uint64_t generator, std::size_t n, std::size_t m, lanes l);

  // dst[0 .. m) = theta^j sum_k c^k x[k m + j] in [0, 2p), x[i] =
  // coefficient i < coefficients of src[0 .. len) (bits per coefficient,
  // 64: whole limbs; any 64-bit values, reduced here).
  void fold(std::uint64_t* dst, const limb_t* src, std::size_t len, std::size_t coefficients,
            unsigned bits, unsigned threads) const;
  // x[0 .. n) = r1 (residues in [0, 2p)), t[0 .. m) = the piece's cyclic
  // product (theta^j r2[j], [0, 2p)): x[0 .. n + w) = P mod p, x[j] in
  // [0, 2p), x[n + j] in [0, p). False (x unspecified) if Q[j] != 0 for
  // some w <= j < m: the two products disagree.
  bool combine(std::uint64_t* x, const std::uint64_t* t, std::size_t w, unsigned threads) const;

  std::uint64_t modulus() const { return p_; }
  std::uint64_t theta() const { return theta_; }

  // The twist's table length, and the passes' span: each span of j reads a
  // run of `span` values from each of the n / m blocks in turn (long
  // sequential runs; short ones at a power-of-two stride thrash the caches).
  static constexpr std::size_t block = 256, span = 2048;

 private:
  // theta^(+-j0) (times -1/2 for the inverse direction's fine entries).
  std::uint64_t base(std::size_t j0, bool inverse) const;
  // acc[i] = acc[i] + w v[i] (w: a weight, mul/ntt_piece.cpp), [0, 2p).
  void accumulate(std::uint64_t* acc, const std::uint64_t* v, std::size_t len, const std::uint64_t* w) const;
  // out[i] = in[i] theta^(+-i) b ([1]: times -1/2), [0, 2p); in < 2p.
  void twist(std::uint64_t* out, const std::uint64_t* in, std::size_t len, bool inverse, std::uint64_t b) const;

  std::uint64_t p_, theta_, theta_inv_, half_neg_;  // half_neg = -1/2 mod p
  std::size_t n_, m_;
  lanes lanes_;
  // [0]: c^k, [1]: -1/2 c^k for k < n / m, weight_words words each (mul/ntt_piece.cpp).
  static constexpr std::size_t weight_words = 7;
  std::vector<std::uint64_t> powers_[2];
  // [0]: theta^i, [1]: -1/2 theta^-i, i < block; 64- and 52-bit Shoup companions.
  alignas(64) std::uint64_t fine_[2][block], fine_s_[2][block], fine_q_[2][block] = {};
  alignas(64) double fine_d_[2][block] = {}, fine_dp_[2][block] = {};  // signed, and / p (AVX2)
  std::uint64_t step_[2];  // theta^(+-block) (the inverse one without -1/2)
};

}  // namespace bigmul::detail
