// SPDX-License-Identifier: LGPL-3.0-or-later
// How many NTT primes a product needs: see mul/ntt_prime_bound.hpp.
#include "mul/ntt_prime_bound.hpp"

#include <algorithm>

namespace bigmul::detail {

using fft::u64;

// How many of the primes (in order) a product needs: the fewest whose
// product exceeds the largest coefficient, min(an, bn) (B - 1)^2. With the
// IFMA primes, three suffice up to min(an, bn) of about 2^22 binary limbs
// (2^23.8 decimal ones), four beyond.
// The same for `terms` products of coefficients at most `top` each.
unsigned primes_needed_for(const fft::ntt_prime* primes, unsigned available, u64 top, u64 terms) {
  const fft::u128 sq = static_cast<fft::u128>(top) * top;
  // bound = terms * top^2 as three limbs.
  const fft::u128 lo = static_cast<fft::u128>(static_cast<u64>(sq)) * terms;
  const fft::u128 hi = static_cast<fft::u128>(static_cast<u64>(sq >> 64)) * terms + static_cast<u64>(lo >> 64);
  const u64 bound[3] = {static_cast<u64>(lo), static_cast<u64>(hi), static_cast<u64>(hi >> 64)};
  u64 prod[4] = {1, 0, 0, 0};
  for (unsigned k = 0; k < available; ++k) {
    fft::u128 carry = 0;
    for (auto& limb : prod) {
      const fft::u128 t = static_cast<fft::u128>(limb) * primes[k].p + carry;
      limb = static_cast<u64>(t);
      carry = t >> 64;
    }
    // prod > bound?
    if (prod[3] != 0) return k + 1;
    for (int l = 2; l >= 0; --l)
      if (prod[l] != bound[l]) {
        if (prod[l] > bound[l]) return k + 1;
        break;
      }
  }
  return available + 1;  // not enough primes (cannot happen within the length limit)
}
unsigned primes_needed_bits(const fft::ntt_prime* primes, unsigned available, unsigned bits, u64 terms) {
  // bound = terms (2^bits - 1)^2 < 2^(2 bits + 64): up to five limbs; the
  // primes' product compared as six (at most five primes below 2^64 each).
  constexpr unsigned L = 6;
  u64 top[2] = {bits >= 64 ? ~u64{0} : (u64{1} << bits) - 1, bits > 64 ? (u64{1} << (bits - 64)) - 1 : 0};
  u64 sq[4] = {}, bound[L] = {};
  for (unsigned i = 0; i < 2; ++i) {
    fft::u128 carry = 0;
    for (unsigned j = 0; j < 2; ++j) {
      const fft::u128 t = static_cast<fft::u128>(top[i]) * top[j] + sq[i + j] + carry;
      sq[i + j] = static_cast<u64>(t);
      carry = t >> 64;
    }
    sq[i + 2] = static_cast<u64>(carry);
  }
  fft::u128 carry = 0;
  for (unsigned l = 0; l < 4; ++l) {
    const fft::u128 t = static_cast<fft::u128>(sq[l]) * terms + carry;
    bound[l] = static_cast<u64>(t);
    carry = t >> 64;
  }
  bound[4] = static_cast<u64>(carry);
  u64 prod[L] = {1};
  for (unsigned k = 0; k < available && k + 1 < L; ++k) {
    fft::u128 c = 0;
    for (auto& limb : prod) {
      const fft::u128 t = static_cast<fft::u128>(limb) * primes[k].p + c;
      limb = static_cast<u64>(t);
      c = t >> 64;
    }
    for (int l = L - 1; l >= 0; --l)  // prod > bound?
      if (prod[l] != bound[l]) {
        if (prod[l] > bound[l]) return k + 1;
        break;
      }
  }
  return available + 1;
}
unsigned primes_needed(const fft::ntt_prime* primes, unsigned available, std::size_t an, std::size_t bn, radix rx) {
  return primes_needed_for(primes, available, rx == radix::binary ? ~u64{0} : decimal_limb_base - 1, std::min(an, bn));
}

}  // namespace bigmul::detail
