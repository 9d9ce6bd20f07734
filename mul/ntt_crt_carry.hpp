// SPDX-License-Identifier: LGPL-3.0-or-later
// Chinese remaindering of an NTT product's residues and its carries into the
// result limbs (mul/ntt_mul.hpp).
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"
#include "fft/ntt.hpp"
#include "fft/ntt_decimal_digits.hpp"
#include "mul/ntt_coefficients.hpp"

namespace bigmul::detail {

// An engine's Garner step: the mixed-radix digits of `count` coefficients
// from index i of the residues res[0 .. used) (fft::ntt_mixed_radix_digits
// and its vector kin), digit j of coefficient q at v[j count + q].
using ntt_mixed_radix_fn = void (*)(const fft::u64* const res[], std::size_t i, std::size_t count, fft::u64* v,
                                    unsigned used);
// Garner and Horner for three primes at once, the limbs x[3 q ..] of
// coefficient i + q (fft::ntt52_crt3_limbs); null where the engine has none.
using ntt_crt3_limbs_fn = void (*)(const fft::u64* const res[], std::size_t i, std::size_t count, fft::u64* x);

// The three-prime decimal digits of `count` coefficients from index i
// (fft::ntt52_decimal_digits and its kin).
using ntt_decimal_digits_fn = void (*)(const fft::u64* const res[], std::size_t i, std::size_t count, fft::u64* d);

// The bit-offset sum of crt3_limbs' limbs (bits < 64: ntt_bit_carry3_limbs
// and its kin, mul/ntt_coefficients.hpp); null: the scalar one.
using ntt_bit_sum3_fn = std::size_t (*)(const fft::u64* x, std::size_t len, unsigned bits, ntt_bit_accumulator& sum,
                                        fft::u64* out);

// How an engine turns residues into coefficients: its primes (at most 4),
// its Garner step, and its fused three-prime paths where it has them: crt3
// for binary limbs, decimal3 for the vectorized decimal digits
// (mul/ntt_decimal_carry.hpp) by decimal3_digits, bit_sum3 for the bit
// offsets' sum of crt3's limbs.
struct ntt_crt_kernels {
  const fft::ntt_prime* primes = nullptr;
  unsigned prime_count = 0;
  ntt_mixed_radix_fn mixed_radix = nullptr;
  ntt_crt3_limbs_fn crt3_limbs = nullptr;
  bool decimal3 = false;
  ntt_decimal_digits_fn decimal3_digits = fft::ntt52_decimal_digits;
  ntt_bit_sum3_fn bit_sum3 = nullptr;
};

// Chinese remaindering and carries of `count` coefficients (residues
// res[0 .. used)) into r[0 .. rn). The coefficients are cut into pieces;
// each piece writes its own limbs and keeps what carries past its end (a
// "tail"), and the tails are added in order at the end. Binary pieces run
// one per task; decimal ones several per task, their division chains
// interleaved. bits != 64 (binary only, 8 .. 127): coefficient c sits at bit c bits,
// not limb c. Throws bigmul::error (internal) if a coefficient passes its
// bound. Adds its time to st.t_carry when timing.
void ntt_crt_and_carry(const ntt_crt_kernels& kernels, unsigned used, fft::u64* const* res, limb_t* r,
                       std::size_t count, std::size_t rn, unsigned bits, radix rx, unsigned threads, mul_stats& st,
                       bool timing);

}  // namespace bigmul::detail
