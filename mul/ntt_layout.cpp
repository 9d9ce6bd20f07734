// SPDX-License-Identifier: LGPL-3.0-or-later
// How an NTT product is cut into coefficients, and its prime count:
// ntt_choose_layout (mul/ntt_mul.hpp).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "bigmul/error.hpp"
#include "fft/ntt.hpp"
#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "mul/ntt_memory.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_prime_bound.hpp"
#include "mul/ntt_scratch.hpp"

namespace bigmul::detail {
namespace {

using fft::u64;

// Cost: primes x (n log n + the folded piece's), the transforms' share.
double shape_cost(const ntt_shape& s) {
  const auto f = [](std::size_t len) {
    return len ? static_cast<double>(len) * std::log2(static_cast<double>(len)) : 0.0;
  };
  return f(s.n) + f(s.low_length) + f(s.piece);
}

// The product's coefficients (whole limbs, or `bits`-bit pieces of binary
// limbs), prime count and transform shape, the cheapest (primes x
// shape_cost) of: whole limbs on the primes they need; where that is four,
// b-bit coefficients (b < 64) on three primes with the largest b whose
// coefficients three primes still cover; and, on four or more primes, wide
// coefficients (64 < b <= ntt_max_coefficient_bits) with the largest b each
// prime count covers, fewer points than whole limbs take [FFTSMALL].
// Decimal limbs stay whole (a base-10^19 limb has no bit split; past
// ~2^23.8 limbs, 2.7 10^8 digits, decimal products take four primes).
// force_bits (tests; binary) picks b, force_primes raises the prime count;
// max_bits caps the automatic choice (63: no wide coefficients).
ntt_layout choose_layout(const fft::ntt_prime* primes, unsigned K, ntt_engine e, std::size_t an, std::size_t bn,
                         radix rx, unsigned force_primes, unsigned force_bits, ntt_fold fold, unsigned max_bits) {
  const auto split = [&](unsigned bits) {
    ntt_layout l;
    l.bits = bits;
    l.ca = ntt_coefficient_count(an, bits);
    l.cb = ntt_coefficient_count(bn, bits);
    l.primes = primes_needed_bits(primes, K, bits, std::min(l.ca, l.cb));
    l.shape = ntt_choose_shape(l.ca, l.cb, e, fold);
    return l;
  };
  const auto cheaper = [](const ntt_layout& l, const ntt_layout& than) {
    return l.shape.n != 0 &&
           (than.shape.n == 0 || l.primes * shape_cost(l.shape) < than.primes * shape_cost(than.shape));
  };
  ntt_layout best;
  best.bits = 64;
  best.ca = an;
  best.cb = bn;
  best.primes = primes_needed(primes, K, an, bn, rx);
  best.shape = ntt_choose_shape(an, bn, e, fold);
  const bool whole_fits = best.shape.n != 0;
  if (force_bits != 0 && force_bits != 64) {
    if (rx != radix::binary || force_bits < 8 || force_bits > ntt_max_coefficient_bits)
      throw error(error::kind::invalid_argument,
                  "ntt: coefficients of " + std::to_string(force_bits) + " bits (binary limbs only, 8 .. " +
                      std::to_string(ntt_max_coefficient_bits) + " bits)");
    best = split(force_bits);
  } else if (force_bits == 0 && rx == radix::binary && best.primes > 3 && K > 3) {
    // Only where whole limbs take four primes (min(an, bn) past ~2^22):
    // below, three primes on whole limbs have the vector Garner and carry,
    // which the model leaves out and wide coefficients lack.
    // The largest b for three primes: 2 b + log2(min(ca, cb)) < log2(p0 p1 p2) ~ 150.
    for (unsigned bits = std::min(max_bits, 63u); bits >= 40; --bits) {
      const ntt_layout l = split(bits);
      if (l.primes > 3) continue;
      if (cheaper(l, best)) best = l;
      break;
    }
    // Wide: for each prime count P >= 4, the largest b that P primes cover
    // (2 b + log2(min(ca, cb)) < log2(p0 .. p(P-1)) ~ 200 for four). Only
    // where whole limbs fit the longest transform: the reach stays an + bn - 1
    // <= ntt_max_length coefficients (mul/ntt_memory.cpp's estimates); and
    // only where its residue arrays take no more heap than the layout it
    // replaces (a fourth prime's array can outweigh the shorter length).
    const auto heap_words = [&](const ntt_layout& l) {
      const ntt_arrays A = ntt_plan_arrays(l, primes[0].p, an, bn, 1, false);
      return A.arrays * ntt_scratch_stride(A.points);
    };
    for (unsigned P = 4; P <= K && whole_fits; ++P)
      for (unsigned bits = std::min(max_bits, ntt_max_coefficient_bits); bits > 64; --bits) {
        const ntt_layout l = split(bits);
        if (l.primes > P) continue;
        if (cheaper(l, best) && heap_words(l) <= heap_words(best)) best = l;
        break;
      }
  }
  best.primes = std::max(best.primes, std::min(force_primes, K));
  return best;
}

// BIGMUL_NTT_WIDE=0 turns wide coefficients off (the layout as before them,
// for A/B runs in one binary); unset, empty or 1: on. Read every call (a
// product's few layout calls), so tests can set it.
unsigned max_bits_from_environment() {
  const char* v = std::getenv("BIGMUL_NTT_WIDE");
  if (!v || !*v || std::string(v) == "1") return ntt_max_coefficient_bits;
  if (std::string(v) == "0") return 63;
  throw error(error::kind::invalid_argument, "BIGMUL_NTT_WIDE=" + std::string(v) + " is not 0 or 1");
}

}  // namespace

std::size_t ntt_transform_length(std::size_t an, std::size_t bn) {
  return ntt_choose_layout(ntt_default_engine(), an, bn, radix::binary).shape.n;
}

ntt_layout ntt_choose_layout(ntt_engine e, std::size_t an, std::size_t bn, radix rx, unsigned force_primes,
                             unsigned force_bits, ntt_fold fold, unsigned max_bits) {
  const ntt_engine_iface& E = ntt_engine_of(e);
  max_bits = std::min(max_bits, max_bits_from_environment());
  return choose_layout(E.primes, E.prime_count, E.id, an, bn, rx, force_primes, force_bits, fold, max_bits);
}

unsigned ntt_primes_needed(ntt_engine e, std::size_t an, std::size_t bn, radix rx) {
  const ntt_engine_iface& E = ntt_engine_of(e);
  return primes_needed(E.primes, E.prime_count, an, bn, rx);
}

}  // namespace bigmul::detail
