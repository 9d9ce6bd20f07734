// SPDX-License-Identifier: LGPL-3.0-or-later
// Scalar Montgomery arithmetic: see src/arith/montgomery.hpp.
#include "src/arith/montgomery.hpp"

#include <algorithm>
#include <vector>

#include "bigmul/arith.hpp"
#include "mul/basecase_adx.hpp"
#include "mul/sqr_basecase.hpp"

namespace bigmul::detail {
namespace {

using u128 = unsigned __int128;

// All ones when c (0 or 1) is 1, else zero.
inline limb_t mask_of(limb_t c) { return limb_t{0} - c; }

// r = t - m if t >= m else t, without a branch on t: t[0..n] < 2m, r: n limbs.
void final_subtract(limb_t* r, const limb_t* t, const limb_t* m, std::size_t n) {
  limb_t borrow = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const u128 d = static_cast<u128>(t[j]) - m[j] - borrow;
    r[j] = static_cast<limb_t>(d);
    borrow = static_cast<limb_t>(d >> 64) & 1;
  }
  // t >= m exactly when the top limb absorbs the borrow: t[n] - borrow >= 0.
  const limb_t keep_t = mask_of(borrow & (t[n] ^ 1));  // borrowed and no top limb: t < m
  for (std::size_t j = 0; j < n; ++j) r[j] = (t[j] & keep_t) | (r[j] & ~keep_t);
}

// The exponent's bit `i` (0 past its limbs).
inline unsigned exp_bit(const limb_t* e, std::size_t en, std::size_t i) {
  return i / 64 < en ? static_cast<unsigned>((e[i / 64] >> (i % 64)) & 1) : 0;
}

// Bits [pos, pos + w) of e, w <= 32; the limbs read depend on pos only.
inline unsigned exp_window(const limb_t* e, std::size_t en, std::size_t pos, unsigned w) {
  const std::size_t q = pos / 64, s = pos % 64;
  limb_t v = q < en ? e[q] >> s : 0;
  if (s + w > 64 && q + 1 < en) v |= e[q + 1] << (64 - s);
  return static_cast<unsigned>(v & ((limb_t{1} << w) - 1));
}

}  // namespace

limb_t neg_inverse_limb(limb_t m0) {
  limb_t x = (3 * m0) ^ 2;  // correct to 5 bits for odd m0
  for (int i = 0; i < 4; ++i) x *= 2 - m0 * x;  // 10, 20, 40, 80 bits
  return limb_t{0} - x;
}

mont_ctx mont_setup(const limb_t* m, std::size_t n) {
  mont_ctx c;
  c.m.assign(m, m + n);
  c.n = n;
  c.ninv = neg_inverse_limb(m[0]);
  // R^2 mod m from 2^(128 n), R mod m from 2^(64 n): the modulus is public.
  std::vector<limb_t> num(2 * n + 1, 0), q(n + 2);
  num[2 * n] = 1;
  c.r2.assign(n, 0);
  div_qr(q.data(), c.r2.data(), num.data(), num.size(), m, n);
  std::fill(num.begin(), num.end(), 0);
  num[n] = 1;
  c.one.assign(n, 0);
  div_qr(q.data(), c.one.data(), num.data(), n + 1, m, n);
  return c;
}

// Product scanning with the reduction folded in (Koc et al.'s FIPS): column k
// sums a_i b_(k-i) and u_i m_(k-i) in a 192-bit accumulator (as the Comba
// basecase does), and the columns below n choose u_k so that their low limb
// vanishes. 2n^2 multiplications, each output limb stored once.
// From 8 limbs with BMI2 + ADX: the product by MULX/ADX rows, then n
// reduction rows t += u_i m B^i (u_i = t_i (-m^-1) mod 2^64), each row's
// carry limb added into the next limb with the running carry; no branch
// depends on the values.
void mont_mul_adx(limb_t* r, const limb_t* a, const limb_t* b, const mont_ctx& c, limb_t* t) {
  const std::size_t n = c.n;
  const limb_t* m = c.m.data();
  // t[0 .. 2n) = a b; a square (mont_sqr, the exponentiations' squarings) by
  // the schoolbook square, n(n+1)/2 limb products (constant time as well).
  if (a == b)
    sqr_basecase(t, a, n);
  else
    mul_basecase_adx(t, a, n, b, n);
  limb_t carry = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const limb_t row = addmul_1_adx(t + i, m, n, t[i] * c.ninv);  // t[i] becomes 0
    const u128 s = static_cast<u128>(t[i + n]) + row + carry;
    t[i + n] = static_cast<limb_t>(s);
    carry = static_cast<limb_t>(s >> 64);
  }
  t[2 * n] = carry;  // (t[n .. 2n] < 2m)
  final_subtract(r, t + n, m, n);
}

void mont_mul(limb_t* r, const limb_t* a, const limb_t* b, const mont_ctx& c, limb_t* t) {
  const std::size_t n = c.n;
  if (n >= basecase_adx_min_limbs && basecase_adx_supported()) {
    mont_mul_adx(r, a, b, c, t);
    return;
  }
  const limb_t* m = c.m.data();
  limb_t* u = t;  // u[0 .. n): the reduction multipliers
  u128 low = 0;   // the column sum is high 2^128 + low
  limb_t high = 0;
  const auto add = [&](limb_t x, limb_t y) {
    const u128 p = static_cast<u128>(x) * y;
    low += p;
    high += low < p;
  };
  const auto shift = [&] {
    low = (static_cast<u128>(high) << 64) | static_cast<limb_t>(low >> 64);
    high = 0;
  };
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t i = 0; i < k; ++i) {
      add(a[i], b[k - i]);
      add(u[i], m[k - i]);
    }
    add(a[k], b[0]);
    u[k] = static_cast<limb_t>(low) * c.ninv;
    add(u[k], m[0]);  // the low limb is now zero
    shift();
  }
  limb_t* out = t + n;  // out[0 .. n], then the final subtraction into r
  for (std::size_t k = n; k + 1 < 2 * n; ++k) {
    for (std::size_t i = k + 1 - n; i < n; ++i) {
      add(a[i], b[k - i]);
      add(u[i], m[k - i]);
    }
    out[k - n] = static_cast<limb_t>(low);
    shift();
  }
  out[n - 1] = static_cast<limb_t>(low);
  out[n] = static_cast<limb_t>(low >> 64);  // < 2m for a, b < m: 0 or 1
  final_subtract(r, out, m, n);
}

void to_mont(limb_t* r, const limb_t* a, const mont_ctx& c, limb_t* t) { mont_mul(r, a, c.r2.data(), c, t); }

void from_mont(limb_t* r, const limb_t* a, const mont_ctx& c, limb_t* t) {
  std::vector<limb_t> unit(c.n, 0);
  unit[0] = 1;
  // a * 1 * R^-1: t < m + 1 even when 1 >= m (m = 1), so one subtraction suffices.
  mont_mul(r, a, unit.data(), c, t);
}

void mont_pow(limb_t* r, const limb_t* b, const limb_t* e, std::size_t en, const mont_ctx& c) {
  const std::size_t n = c.n;
  std::size_t bits = en * 64;
  while (bits > 0 && !exp_bit(e, en, bits - 1)) --bits;
  std::vector<limb_t> t(mont_scratch_limbs(n)), acc(c.one);
  if (bits == 0) {
    from_mont(r, acc.data(), c, t.data());
    return;
  }
  // Window size by exponent length (GMP's choice of sizes): the table holds
  // b, b^3, ..., b^(2^w - 1) in Montgomery form.
  const unsigned w = bits <= 24 ? 1 : bits <= 96 ? 3 : bits <= 384 ? 4 : bits <= 1536 ? 5 : 6;
  const std::size_t entries = std::size_t{1} << (w - 1);
  std::vector<limb_t> table(entries * n), b2(n);
  to_mont(table.data(), b, c, t.data());
  mont_sqr(b2.data(), table.data(), c, t.data());
  for (std::size_t k = 1; k < entries; ++k)
    mont_mul(table.data() + k * n, table.data() + (k - 1) * n, b2.data(), c, t.data());
  std::size_t i = bits;  // bits [0, i) remain
  bool first = true;
  while (i > 0) {
    if (!exp_bit(e, en, i - 1)) {
      mont_sqr(acc.data(), acc.data(), c, t.data());
      --i;
      continue;
    }
    // The longest window [lo, i) of at most w bits that ends in a 1.
    std::size_t lo = i >= w ? i - w : 0;
    while (!exp_bit(e, en, lo)) ++lo;
    unsigned v = 0;
    for (std::size_t k = i; k-- > lo;) v = 2 * v + exp_bit(e, en, k);
    if (first) {
      std::copy_n(table.data() + (v / 2) * n, n, acc.data());
      first = false;
    } else {
      for (std::size_t k = lo; k < i; ++k) mont_sqr(acc.data(), acc.data(), c, t.data());
      mont_mul(acc.data(), acc.data(), table.data() + (v / 2) * n, c, t.data());
    }
    i = lo;
  }
  from_mont(r, acc.data(), c, t.data());
}

void mont_pow_sec(limb_t* r, const limb_t* b, const limb_t* e, std::size_t en, std::size_t exp_bits,
                  const mont_ctx& c) {
  const std::size_t n = c.n;
  // The window from the public exponent length only.
  const unsigned w = exp_bits <= 32 ? 2 : exp_bits <= 256 ? 4 : 5;
  const std::size_t entries = std::size_t{1} << w, windows = std::max<std::size_t>(1, (exp_bits + w - 1) / w);
  std::vector<limb_t> t(mont_scratch_limbs(n)), table(entries * n), acc(n), sel(n);
  std::copy_n(c.one.data(), n, table.data());
  to_mont(table.data() + n, b, c, t.data());
  for (std::size_t k = 2; k < entries; ++k)
    mont_mul(table.data() + k * n, table.data() + (k - 1) * n, table.data() + n, c, t.data());
  // Reads every entry; keeps the one whose index equals v by mask.
  const auto select = [&](limb_t* out, unsigned v) {
    std::fill_n(out, n, 0);
    for (std::size_t k = 0; k < entries; ++k) {
      const limb_t mask = mask_of(static_cast<limb_t>(((k ^ v) | (0 - (k ^ v))) >> 63) ^ 1);  // k == v
      const limb_t* te = table.data() + k * n;
      for (std::size_t j = 0; j < n; ++j) out[j] |= te[j] & mask;
    }
  };
  select(acc.data(), exp_window(e, en, (windows - 1) * w, w));
  for (std::size_t win = windows - 1; win-- > 0;) {
    for (unsigned k = 0; k < w; ++k) mont_sqr(acc.data(), acc.data(), c, t.data());
    select(sel.data(), exp_window(e, en, win * w, w));
    mont_mul(acc.data(), acc.data(), sel.data(), c, t.data());
  }
  from_mont(r, acc.data(), c, t.data());
}

}  // namespace bigmul::detail
