// SPDX-License-Identifier: LGPL-3.0-or-later
// How an NTT product is cut into coefficients, and its prime count:
// ntt_choose_layout (mul/ntt_mul.hpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "bigmul/error.hpp"
#include "fft/ntt.hpp"
#include "mul/ntt_coefficients.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_prime_bound.hpp"

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
// limbs), prime count and transform shape: the cheaper of whole limbs on the
// primes they need and, where that is four, b-bit coefficients on three
// primes with the largest b whose coefficients three primes still cover.
// Decimal limbs stay whole (a base-10^19 limb has no bit split; past
// ~2^23.8 limbs, 2.7 10^8 digits, decimal products take four primes).
// force_bits (tests; binary) picks b, force_primes raises the prime count.
ntt_layout choose_layout(const fft::ntt_prime* primes, unsigned K, ntt_engine e, std::size_t an, std::size_t bn,
                         radix rx, unsigned force_primes, unsigned force_bits, ntt_fold fold) {
  const auto split = [&](unsigned bits) {
    ntt_layout l;
    l.bits = bits;
    l.ca = ntt_coefficient_count(an, bits);
    l.cb = ntt_coefficient_count(bn, bits);
    l.primes = primes_needed_for(primes, K, bits == 64 ? ~u64{0} : (u64{1} << bits) - 1, std::min(l.ca, l.cb));
    l.shape = ntt_choose_shape(l.ca, l.cb, e, fold);
    return l;
  };
  ntt_layout best;
  best.bits = 64;
  best.ca = an;
  best.cb = bn;
  best.primes = primes_needed(primes, K, an, bn, rx);
  best.shape = ntt_choose_shape(an, bn, e, fold);
  if (force_bits != 0 && force_bits < 64) {
    if (rx != radix::binary || force_bits < 8)
      throw error(error::kind::invalid_argument, "ntt: coefficients of " + std::to_string(force_bits) +
                                                     " bits (binary limbs only, 8 .. 64 bits)");
    best = split(force_bits);
  } else if (force_bits == 0 && rx == radix::binary && best.primes > 3 && K > 3) {
    // The largest b for three primes: 2 b + log2(min(ca, cb)) < log2(p0 p1 p2) ~ 150.
    for (unsigned bits = 63; bits >= 40; --bits) {
      const ntt_layout l = split(bits);
      if (l.primes > 3) continue;
      if (l.shape.n != 0 && (best.shape.n == 0 || 3 * shape_cost(l.shape) < best.primes * shape_cost(best.shape)))
        best = l;
      break;
    }
  }
  best.primes = std::max(best.primes, std::min(force_primes, K));
  return best;
}

}  // namespace

std::size_t ntt_transform_length(std::size_t an, std::size_t bn) {
  return ntt_choose_layout(ntt_default_engine(), an, bn, radix::binary).shape.n;
}

ntt_layout ntt_choose_layout(ntt_engine e, std::size_t an, std::size_t bn, radix rx, unsigned force_primes,
                             unsigned force_bits, ntt_fold fold) {
  const ntt_engine_iface& E = ntt_engine_of(e);
  return choose_layout(E.primes, E.prime_count, E.id, an, bn, rx, force_primes, force_bits, fold);
}

unsigned ntt_primes_needed(ntt_engine e, std::size_t an, std::size_t bn, radix rx) {
  const ntt_engine_iface& E = ntt_engine_of(e);
  return primes_needed(E.primes, E.prime_count, an, bn, rx);
}

}  // namespace bigmul::detail
