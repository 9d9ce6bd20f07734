// SPDX-License-Identifier: LGPL-3.0-or-later
// What the IFMA (8 lanes) and AVX2 (4 lanes) Montgomery lanes share: 52-bit
// digit columns D[j * W + l] (digit j of lane l), a group's digit count, the
// moduli's public precomputation and the exponent windows. Scalar code; the
// lanes' vector kernels stay in montgomery_ifma.cpp and montgomery_avx2.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "bigmul/arith.hpp"
#include "src/arith/montgomery.hpp"

namespace bigmul::detail::lanes52 {

using u64 = std::uint64_t;
inline constexpr u64 digit_mask = (u64{1} << 52) - 1;

inline std::size_t bit_length(const limb_t* x, std::size_t n) {
  while (n > 0 && x[n - 1] == 0) --n;
  return n == 0 ? 0 : 64 * n - static_cast<std::size_t>(__builtin_clzll(x[n - 1]));
}

// Digits D with R = 2^(52 D) >= 4m, so almost Montgomery products stay below 2m.
inline std::size_t digits_for(const lane_job& j) { return (bit_length(j.m, j.mn) + 2 + 51) / 52; }

// Lane l of digit columns D (j < d) from x[0..n) (bits past n limbs are zero).
template <unsigned W>
void put_lane(u64* D, std::size_t l, std::size_t d, const limb_t* x, std::size_t n) {
  for (std::size_t j = 0; j < d; ++j) {
    const std::size_t bit = 52 * j, q = bit / 64, s = bit % 64;
    u64 v = q < n ? x[q] >> s : 0;
    if (s > 12 && q + 1 < n) v |= x[q + 1] << (64 - s);
    D[j * W + l] = v & digit_mask;
  }
}

// x[0..n) from lane l of normalized digit columns D (j < d).
template <unsigned W>
void get_lane(limb_t* x, std::size_t n, const u64* D, std::size_t l, std::size_t d) {
  for (std::size_t q = 0; q < n; ++q) {
    const std::size_t bit = 64 * q, j = bit / 52, s = bit % 52;
    u64 v = j < d ? D[j * W + l] >> s : 0;
    if (j + 1 < d) v |= D[(j + 1) * W + l] << (52 - s);
    if (s > 40 && j + 2 < d) v |= D[(j + 2) * W + l] << (104 - s);
    x[q] = v;
  }
}

// Zeroed, vector-aligned scratch.
template <class T, std::size_t Align>
struct aligned_buffer {
  T* p = nullptr;
  explicit aligned_buffer(std::size_t count)
      : p(static_cast<T*>(::operator new[](count * sizeof(T), std::align_val_t{Align}))) {
    std::memset(p, 0, count * sizeof(T));
  }
  ~aligned_buffer() { ::operator delete[](p, std::align_val_t{Align}); }
  aligned_buffer(const aligned_buffer&) = delete;
  aligned_buffer& operator=(const aligned_buffer&) = delete;
};

// Each lane's modulus M, R^2 mod m (R = 2^(52 d)) and k0 = -m^-1 mod 2^52, in
// digit columns of W lanes. Idle lanes (l >= count) repeat job 0's modulus.
// The moduli are public; lanes sharing a modulus share the division.
template <unsigned W>
void fill_moduli(u64* M, u64* R2, u64* K0, std::size_t d, const lane_job* jobs, std::size_t count) {
  const std::size_t num_n = 104 * d / 64 + 1;
  std::vector<limb_t> num(num_n, 0), r2, q;
  num[num_n - 1] = limb_t{1} << (104 * d % 64);
  const limb_t* last_m = nullptr;
  for (std::size_t l = 0; l < W; ++l) {
    const lane_job& j = jobs[l < count ? l : 0];
    std::size_t mn = j.mn;
    while (mn > 1 && j.m[mn - 1] == 0) --mn;
    put_lane<W>(M, l, d, j.m, mn);
    K0[l] = neg_inverse_limb(j.m[0]) & digit_mask;
    if (j.m != last_m) {
      r2.assign(mn, 0);
      q.assign(num_n - mn + 1, 0);
      div_qr(q.data(), r2.data(), num.data(), num_n, j.m, mn);
      last_m = j.m;
    }
    put_lane<W>(R2, l, d, r2.data(), mn);
  }
}

// Bits [pos, pos + w) of each lane's exponent (limbs read depend on pos only).
template <unsigned W>
void windows_at(u64* idx, const lane_job* jobs, std::size_t count, std::size_t pos, unsigned w) {
  for (std::size_t l = 0; l < W; ++l) {
    if (l >= count) {
      idx[l] = 0;
      continue;
    }
    const limb_t* e = jobs[l].y;
    const std::size_t en = jobs[l].yn, q = pos / 64, s = pos % 64;
    u64 v = q < en ? e[q] >> s : 0;
    if (s + w > 64 && q + 1 < en) v |= e[q + 1] << (64 - s);
    idx[l] = v & ((u64{1} << w) - 1);
  }
}

// The fixed window of lanes_pow_sec: 2, 4 or 5 bits by the exponent's length.
inline unsigned window_bits(std::size_t exp_bits) { return exp_bits <= 32 ? 2 : exp_bits <= 256 ? 4 : 5; }

// x^y mod m in W lanes of d digits, the ladder both lane engines run. Constant
// time: the sequence of products depends only on exp_bits, and each window's
// table entry is read by ops.select, which touches every entry. Ops gives, on
// digit columns: mul(out, a, b) and sqr(out, a) (almost Montgomery, out may
// alias), select(out, table, entries, idx) and reduce(a) (a mod m from a < 2m).
template <unsigned W, class Ops>
void fixed_window_pow(const Ops& ops, const u64* R2, const lane_job* jobs, std::size_t count, std::size_t exp_bits,
                      std::size_t d) {
  const unsigned w = window_bits(exp_bits);
  const std::size_t entries = std::size_t{1} << w, windows = std::max<std::size_t>(1, (exp_bits + w - 1) / w);
  const std::size_t V = W * d;  // u64s per digit-vector number
  aligned_buffer<u64, 64> X(V), unit(V), table(entries * V), acc(V), sel(V), idx(W);
  for (std::size_t l = 0; l < W; ++l) {
    const lane_job& j = jobs[l < count ? l : 0];  // idle lanes repeat job 0
    put_lane<W>(X.p, l, d, j.x, j.xn);
    unit.p[l] = 1;
  }
  ops.mul(table.p, R2, unit.p);   // R mod m (+ m): 1 in Montgomery form
  ops.mul(table.p + V, X.p, R2);  // x R
  for (std::size_t k = 2; k < entries; ++k) ops.mul(table.p + k * V, table.p + (k - 1) * V, table.p + V);
  windows_at<W>(idx.p, jobs, count, (windows - 1) * w, w);
  ops.select(acc.p, table.p, entries, idx.p);
  for (std::size_t win = windows - 1; win-- > 0;) {
    for (unsigned k = 0; k < w; ++k) ops.sqr(acc.p, acc.p);
    windows_at<W>(idx.p, jobs, count, win * w, w);
    ops.select(sel.p, table.p, entries, idx.p);
    ops.mul(acc.p, acc.p, sel.p);
  }
  ops.mul(acc.p, acc.p, unit.p);  // out of Montgomery form: <= m
  ops.reduce(acc.p);
  for (std::size_t l = 0; l < count; ++l) get_lane<W>(jobs[l].r, jobs[l].mn, acc.p, l, d);
}

// x y mod m in W lanes of d digits (Ops as above; select unused).
template <unsigned W, class Ops>
void lane_products(const Ops& ops, const u64* R2, const lane_job* jobs, std::size_t count, std::size_t d) {
  const std::size_t V = W * d;
  aligned_buffer<u64, 64> X(V), Y(V), P(V);
  for (std::size_t l = 0; l < W; ++l) {
    const lane_job& j = jobs[l < count ? l : 0];
    put_lane<W>(X.p, l, d, j.x, j.xn);
    put_lane<W>(Y.p, l, d, j.y, j.yn);
  }
  ops.mul(P.p, X.p, Y.p);  // x y R^-1 (+ m)
  ops.mul(P.p, P.p, R2);   // x y (+ m)
  ops.reduce(P.p);
  for (std::size_t l = 0; l < count; ++l) get_lane<W>(jobs[l].r, jobs[l].mn, P.p, l, d);
}

}  // namespace bigmul::detail::lanes52
