// SPDX-License-Identifier: LGPL-3.0-or-later
// Binary limbs as NTT coefficients of `bits` < 64 bits, and the coefficients
// of the product added back at bit offsets: what lets the NTT multiply keep
// three primes below 2^50 past 2^22 limbs (mul/ntt_layout.cpp).
//
// Why: with whole 64-bit limbs a coefficient of the product reaches
// min(an, bn) (2^64 - 1)^2, which three primes below 2^50 (product ~2^150)
// cover only up to ~2^22 limbs, so larger products took a fourth prime: a
// third more transforms. Coefficients of b bits make the bound
// min(ca, cb) (2^b - 1)^2 and cost 64 / b times the points; for b near 60
// that is cheaper than a fourth prime (the rule is in ntt_layout.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "bigmul/config.hpp"
#include "fft/ntt_arith.hpp"
#include "fft/ntt_crt.hpp"
#include "mul/limb_binary.hpp"

namespace bigmul::detail {

// The widest coefficients: 127 bits, a 128-bit value spanning at most three
// limbs (bit offset below 64 plus 127 bits). Wide ones (64 < b <= 127) take
// four or more primes and fewer transform points than whole limbs
// (mul/ntt_layout.cpp): loaded as residues mod each prime
// (ntt_wide_residues), summed back as four-limb values (ntt_wide_accumulator).
inline constexpr unsigned ntt_max_coefficient_bits = 127;

// Coefficients of `bits` bits (1 .. 127) holding `limbs` 64-bit limbs.
inline std::size_t ntt_coefficient_count(std::size_t limbs, unsigned bits) {
  return (limbs * 64 + bits - 1) / bits;
}

// Coefficient j (bits [j bits, (j + 1) bits) of src[0 .. len), zero beyond).
inline std::uint64_t ntt_coefficient_at(const limb_t* src, std::size_t len, std::size_t j, unsigned bits) {
  const std::size_t off = j * bits, i = off >> 6;
  const unsigned s = static_cast<unsigned>(off & 63);
  if (i >= len) return 0;
  std::uint64_t v = src[i] >> s;
  if (s + bits > 64 && i + 1 < len) v |= src[i + 1] << (64 - s);
  return bits == 64 ? v : v & ((std::uint64_t{1} << bits) - 1);
}

// Coefficient j of `bits` (64 < bits <= 127) bits of src[0 .. len), zero
// beyond, as lo + 2^64 hi.
inline void ntt_wide_coefficient_at(const limb_t* src, std::size_t len, std::size_t j, unsigned bits,
                                    std::uint64_t& lo, std::uint64_t& hi) {
  const std::size_t off = j * bits, i = off >> 6;
  const unsigned s = static_cast<unsigned>(off & 63), rs = 63 - s;  // (v << 1) << (63 - s): v << (64 - s)
  const auto at = [&](std::size_t k) { return k < len ? src[k] : std::uint64_t{0}; };
  const std::uint64_t w0 = at(i), w1 = at(i + 1), w2 = at(i + 2);
  lo = (w0 >> s) | ((w1 << 1) << rs);
  hi = ((w1 >> s) | ((w2 << 1) << rs)) & ((std::uint64_t{1} << (bits - 64)) - 1);
}

// Reduction of a wide coefficient lo + 2^64 hi mod p (p < 2^62): lo and
// hi 2^64 each by a Shoup product into [0, 2p), their sum into [0, p).
struct ntt_wide_modulus {
  std::uint64_t p = 0, one_shoup = 0, r64 = 0, r64_shoup = 0;  // r64 = 2^64 mod p
  explicit ntt_wide_modulus(std::uint64_t modulus) : p(modulus) {
    if (modulus == 0) return;  // empty (a cache not yet filled)
    one_shoup = fft::shoup_companion(1, modulus);
    r64 = static_cast<std::uint64_t>((static_cast<fft::u128>(1) << 64) % modulus);
    r64_shoup = fft::shoup_companion(r64, modulus);
  }
  std::uint64_t reduce(std::uint64_t lo, std::uint64_t hi) const {
    std::uint64_t v = fft::mul_shoup_lazy(lo, 1, one_shoup, p) + fft::mul_shoup_lazy(hi, r64, r64_shoup, p);
    v = v >= 2 * p ? v - 2 * p : v;  // < 4p < 2^64
    return v >= p ? v - p : v;
  }
};

// dst[j - b] = coefficient j (64 < bits <= 127) of src[0 .. len) mod p, in
// [0, p), for j in [b, e): 8 lanes (AVX-512, processors with IFMA; b <= 118)
// or 4 (AVX2) for the vector engines' primes (p < 2^50), else scalar.
void ntt_wide_residues(std::uint64_t* dst, const limb_t* src, std::size_t len, std::size_t b, std::size_t e,
                       unsigned bits, std::uint64_t p);
// The same on the lanes asked for (tests): 1 scalar, 4 AVX2, 8 AVX-512
// (each where the processor has it, scalar past what it covers), 0 the best.
void ntt_wide_residues_lanes(std::uint64_t* dst, const limb_t* src, std::size_t len, std::size_t b, std::size_t e,
                             unsigned bits, std::uint64_t p, unsigned lanes);

// dst[0 .. n) = coefficients 0 .. count of src[0 .. len) as residues mod p in
// [0, 2p) (what every NTT engine's forward transform takes), zero-padded.
// count <= n. lanes: the wide cut's (ntt_wide_residues_lanes).
void ntt_load_coefficients(std::uint64_t* dst, std::size_t n, const limb_t* src, std::size_t len, std::size_t count,
                           unsigned bits, std::uint64_t p, unsigned threads, unsigned lanes = 0);

// dst[j - b] = coefficient j of src[0 .. len) for j in [b, e), as is (below
// 2^bits, not reduced): for an engine that reduces a block in place with
// vector code (the IFMA plan's reduce) while the block is in cache, and for
// the folded piece's blocks (mul/ntt_piece.cpp). 8 coefficients a step
// with AVX-512 where the processor has it and lanes is 0 or 8, else 4 with
// AVX2 where lanes is 0 or 4 (the AVX2 engine asks for 4: what an AVX2-only
// processor runs), 1: scalar.
void ntt_extract_coefficients(std::uint64_t* dst, const limb_t* src, std::size_t len, std::size_t b, std::size_t e,
                              unsigned bits, unsigned lanes = 0);

// A running sum of coefficients x_c (each < 2^192, three limbs) placed at
// bit offsets c * bits, emitted limb by limb: after coefficient c every limb
// wholly below bit (c + 1) bits is final (later coefficients only add at or
// above that bit), so it is written out and the sum shifts down by 64.
// Bound: with every x < 2^X, after coefficient c the pending sum is
// sum_{j <= c} x_j 2^(j bits - 64 out) with 64 out > (c + 1) bits - 64, so
// below 2^(X + 65 - bits); adding x << shift (< 2^(X + 63)) keeps it below
// 2^256 for X <= 192 (three limbs) and bits >= 3: four limbs never overflow.
struct ntt_bit_accumulator {
  std::uint64_t acc[4] = {0, 0, 0, 0};
  unsigned shift = 0;  // bit offset of the next coefficient within the next limb out

  // Adds x << shift; returns true (and the finished limb in *out) when a
  // limb is complete. bits < 64, so at most one limb per coefficient.
  inline bool add(const std::uint64_t x[3], unsigned bits, std::uint64_t* out) {
    const unsigned s = shift, rs = 63 - s;  // (v >> 1) >> (63 - s): v >> (64 - s), 0 when s == 0
    const std::uint64_t y0 = x[0] << s, y1 = (x[1] << s) | ((x[0] >> 1) >> rs),
                        y2 = (x[2] << s) | ((x[1] >> 1) >> rs), y3 = (x[2] >> 1) >> rs;
    unsigned __int128 t = static_cast<unsigned __int128>(acc[0]) + y0;
    acc[0] = static_cast<std::uint64_t>(t);
    t = static_cast<unsigned __int128>(acc[1]) + y1 + static_cast<std::uint64_t>(t >> 64);
    acc[1] = static_cast<std::uint64_t>(t);
    t = static_cast<unsigned __int128>(acc[2]) + y2 + static_cast<std::uint64_t>(t >> 64);
    acc[2] = static_cast<std::uint64_t>(t);
    acc[3] += y3 + static_cast<std::uint64_t>(t >> 64);
    shift = s + bits;
    if (shift < 64) return false;
    shift -= 64;
    *out = acc[0];
    acc[0] = acc[1];
    acc[1] = acc[2];
    acc[2] = acc[3];
    acc[3] = 0;
    return true;
  }
};

// The running sum of wide coefficients (64 < bits <= 127), as
// ntt_bit_accumulator: x < 2^256 (four limbs; Garner's value of up to five
// primes below 2^50, < 2^250) at bit offset c bits, one or two limbs out a
// coefficient. Bound: after coefficient c the pending sum is below
// 2^(X + 64 - bits + 1) <= 2^X (bits > 64), adding x << shift (< 2^(X + 63))
// keeps it below 2^(X + 64) <= 2^320: five limbs never overflow, and four
// hold what is pending at the end of a run.
struct ntt_wide_accumulator {
  std::uint64_t acc[5] = {0, 0, 0, 0, 0};
  unsigned shift = 0;  // bit offset of the next coefficient within the next limb out

  // Adds x << shift; writes the finished limbs (0, 1 or 2) to out, returns how many.
  inline unsigned add(const std::uint64_t x[4], unsigned bits, std::uint64_t* out) {
    const unsigned s = shift, rs = 63 - s;  // (v >> 1) >> (63 - s): v >> (64 - s), 0 when s == 0
    std::uint64_t y[5];
    y[0] = x[0] << s;
    for (unsigned l = 1; l < 4; ++l) y[l] = (x[l] << s) | ((x[l - 1] >> 1) >> rs);
    y[4] = (x[3] >> 1) >> rs;
    bin::carry_t c = 0;
    for (unsigned l = 0; l < 5; ++l) c = bin::addc(c, acc[l], y[l], &acc[l]);
    unsigned emitted = 0;
    for (shift = s + bits; shift >= 64; shift -= 64) {
      out[emitted++] = acc[0];
      for (unsigned l = 0; l < 4; ++l) acc[l] = acc[l + 1];
      acc[4] = 0;
    }
    return emitted;
  }
};

// `len` consecutive wide coefficients (64 < bits <= 127), each v =
// coefficient(q) given as four limbs (v < 2^256), added into the running
// sum as ntt_wide_accumulator::add does, the sum kept in registers for the
// run: each coefficient finishes one limb, or two when it crosses a second
// limb boundary. Writes the finished limbs to out; returns how many (at
// most (shift + len bits) / 64).
template <class Coefficient>
inline std::size_t ntt_wide_carry_run(std::size_t len, Coefficient&& coefficient, unsigned bits,
                                      ntt_wide_accumulator& sum, std::uint64_t* out) {
  std::uint64_t a0 = sum.acc[0], a1 = sum.acc[1], a2 = sum.acc[2], a3 = sum.acc[3], a4 = sum.acc[4];
  unsigned s = sum.shift;
  std::size_t written = 0;
  for (std::size_t q = 0; q < len; ++q) {
    std::uint64_t v0, v1, v2, v3;
    coefficient(q, v0, v1, v2, v3);
    const unsigned rs = 63 - s;  // (v >> 1) >> (63 - s): v >> (64 - s), 0 when s == 0
    bin::carry_t c = bin::addc(0, a0, v0 << s, &a0);
    c = bin::addc(c, a1, (v1 << s) | ((v0 >> 1) >> rs), &a1);
    c = bin::addc(c, a2, (v2 << s) | ((v1 >> 1) >> rs), &a2);
    c = bin::addc(c, a3, (v3 << s) | ((v2 >> 1) >> rs), &a3);
    a4 += ((v3 >> 1) >> rs) + c;
    s += bits - 64;  // bits > 64: at least one limb is finished
    out[written++] = a0;
    a0 = a1;
    a1 = a2;
    a2 = a3;
    a3 = a4;
    a4 = 0;
    if (s >= 64) {
      s -= 64;
      out[written++] = a0;
      a0 = a1;
      a1 = a2;
      a2 = a3;
      a3 = 0;
    }
  }
  sum.acc[0] = a0;
  sum.acc[1] = a1;
  sum.acc[2] = a2;
  sum.acc[3] = a3;
  sum.acc[4] = a4;
  sum.shift = s;
  return written;
}

// `len` consecutive coefficients, each v = coefficient(q) given as three
// limbs (v < 2^192), added into the running sum as
// ntt_bit_accumulator::add does, the sum kept in registers for the run
// (through the struct, its limbs lived on the stack: ~15 cycles a
// coefficient at 10^8 digits). Writes the finished limbs to out; returns
// how many.
template <class Coefficient>
inline std::size_t ntt_bit_carry3_run(std::size_t len, Coefficient&& coefficient, unsigned bits,
                                      ntt_bit_accumulator& sum, std::uint64_t* out) {
  std::uint64_t a0 = sum.acc[0], a1 = sum.acc[1], a2 = sum.acc[2], a3 = sum.acc[3];
  unsigned s = sum.shift;
  std::size_t written = 0;
  for (std::size_t q = 0; q < len; ++q) {
    std::uint64_t v0, v1, v2;
    coefficient(q, v0, v1, v2);
    const unsigned rs = 63 - s;  // (v >> 1) >> (63 - s): v >> (64 - s), 0 when s == 0
    const std::uint64_t y0 = v0 << s, y1 = (v1 << s) | ((v0 >> 1) >> rs), y2 = (v2 << s) | ((v1 >> 1) >> rs),
                        y3 = (v2 >> 1) >> rs;
    // One add/adc chain (GCC spilled the 128-bit sums' carries to the stack).
    bin::carry_t c = bin::addc(0, a0, y0, &a0);
    c = bin::addc(c, a1, y1, &a1);
    c = bin::addc(c, a2, y2, &a2);
    a3 += y3 + c;
    s += bits;
    if (s >= 64) {
      s -= 64;
      out[written++] = a0;
      a0 = a1;
      a1 = a2;
      a2 = a3;
      a3 = 0;
    }
  }
  sum.acc[0] = a0;
  sum.acc[1] = a1;
  sum.acc[2] = a2;
  sum.acc[3] = a3;
  sum.shift = s;
  return written;
}

// Three primes' mixed-radix digits (d0, d1, d2) of `len` consecutive
// coefficients, v = d0 + p0 (d1 + p1 d2) < 2^150, summed as above.
inline std::size_t ntt_bit_carry3(const std::uint64_t* d0, const std::uint64_t* d1, const std::uint64_t* d2,
                                  std::size_t len, std::uint64_t p0, std::uint64_t p1, unsigned bits,
                                  ntt_bit_accumulator& sum, std::uint64_t* out) {
  return ntt_bit_carry3_run(
      len,
      [&](std::size_t q, std::uint64_t& v0, std::uint64_t& v1, std::uint64_t& v2) {
        fft::garner3_horner(d0[q], d1[q], d2[q], p0, p1, v0, v1, v2);
      },
      bits, sum, out);
}

// The same from the coefficients' limbs (limb l of coefficient q at
// x[l len + q]: fft::ntt52_crt3_limbs).
inline std::size_t ntt_bit_carry3_limbs(const std::uint64_t* x, std::size_t len, unsigned bits,
                                        ntt_bit_accumulator& sum, std::uint64_t* out) {
  return ntt_bit_carry3_run(
      len,
      [&](std::size_t q, std::uint64_t& v0, std::uint64_t& v1, std::uint64_t& v2) {
        v0 = x[q];
        v1 = x[len + q];
        v2 = x[2 * len + q];
      },
      bits, sum, out);
}

// Both compiled for BMI2 (shifts by a register without CL, MULX):
// mul/ntt_coefficients.cpp; the caller checks prim::cpu_has_bmi2_adx().
std::size_t ntt_bit_carry3_bmi2(const std::uint64_t* d0, const std::uint64_t* d1, const std::uint64_t* d2,
                                std::size_t len, std::uint64_t p0, std::uint64_t p1, unsigned bits,
                                ntt_bit_accumulator& sum, std::uint64_t* out);
std::size_t ntt_bit_carry3_limbs_bmi2(const std::uint64_t* x, std::size_t len, unsigned bits,
                                      ntt_bit_accumulator& sum, std::uint64_t* out);
// ntt_bit_carry3_limbs with the shifts in AVX2 (4 coefficients a vector,
// variable shifts: each coefficient's three limbs placed at its bit offset
// as four limbs), leaving the scalar loop only the add chain and the limb
// out; the same result and accumulator. Scalar where the processor lacks AVX2.
std::size_t ntt_bit_carry3_limbs_avx2(const std::uint64_t* x, std::size_t len, unsigned bits,
                                      ntt_bit_accumulator& sum, std::uint64_t* out);

}  // namespace bigmul::detail

namespace bigmul::detail {

// Residues in [0, 2p) (p < 2^width) packed into width-bit fields and back,
// reduced to [0, p): the NTT multiply parks its first prime's finished
// residues in the result's limbs while that prime's array holds the last
// prime's b transform (one residue array fewer: peak heap primes x n points,
// not primes + 1). The words are one bit stream, residue j at bit j width
// (64 residues fill `width` words), packed word by word and unpacked as
// bit-split coefficients, both in parallel chunks. The packed size:
// ntt_packed_words(count, width). lanes: as ntt_extract_coefficients (0:
// AVX-512 steps where the processor has them, else AVX2; 4: AVX2; 1: scalar).
inline std::size_t ntt_packed_words(std::size_t count, unsigned width) { return (count * width + 63) / 64; }
void ntt_pack_residues(std::uint64_t* dst, const std::uint64_t* src, std::size_t count, unsigned width,
                       std::uint64_t p, unsigned threads, unsigned lanes = 0);
void ntt_unpack_residues(std::uint64_t* dst, const std::uint64_t* src, std::size_t count, unsigned width,
                         unsigned threads, unsigned lanes = 0);

}  // namespace bigmul::detail
