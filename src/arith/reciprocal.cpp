// SPDX-License-Identifier: LGPL-3.0-or-later
// Approximate reciprocal by Newton's iteration: each step doubles the
// precision of the reciprocal of the divisor's top half. Small steps use two
// plain products (a full n x n/2 and an n/2 x n/2 one). Large steps transform
// the half reciprocal once and use it for both, as cyclic products modulo
// B^N - 1 with N ~ n (src/arith/ntt_reuse.hpp): a * xh is B^(n+h) up to a
// residual below 2 B^n, so its high limbs are known and may wrap onto the low
// ones (the wrap-around trick [BZ10] ch. 3, as GMP's mpn_invertappr): five
// transforms of length ~n instead of three of ~1.5 n and three of ~n.
#include "src/arith/reciprocal.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "bigmul/error.hpp"
#include "mul/limb_vec.hpp"
#include "src/arith/div_basecase.hpp"
#include "src/arith/mul_helpers.hpp"
#include "src/arith/ntt_reuse.hpp"

namespace bigmul::detail {
namespace {

// x[0..n] = xh B^l + (u >> 64 (2h - l)), u = (r >> 64 l) * xh for the
// residual r = B^(n+h) - a * xh > 0 (its limbs below l do not reach x).
void finish(limb_t* x, std::size_t n, std::size_t l, std::size_t h, const std::vector<limb_t>& xh,
            const std::vector<limb_t>& u) {
  std::fill(x, x + l, limb_t{0});
  std::copy(xh.begin(), xh.end(), x + l);
  const std::size_t shift = 2 * h - l;
  if (u.size() > shift) {
    const std::size_t un = std::min(u.size() - shift, n + 1);
    if (add(x, x, n + 1, u.data() + shift, un, radix::binary) != 0)
      throw error(error::kind::internal, "bigmul: reciprocal overflow");
  }
}

// The step with plain products.
void step_plain(limb_t* x, const limb_t* a, std::size_t n, std::size_t l, std::size_t h, std::vector<limb_t>& xh) {
  // t = a * xh, n + h + 1 limbs; bring it below 2^(64 (n + h)).
  std::vector<limb_t> t(n + h + 1);
  mul_any(t.data(), a, n, xh.data(), h + 1);
  int guard = 0;
  while (t[n + h] != 0) {
    sub_1_in_place(xh.data(), h + 1);
    sub(t.data(), t.data(), n + h + 1, a, n, radix::binary);
    if (++guard > 4) throw error(error::kind::internal, "bigmul: reciprocal correction did not converge");
  }
  // t = 2^(64 (n + h)) - t, the residual (below 2^(64 n + 1)).
  for (std::size_t i = 0; i < n + h; ++i) t[i] = ~t[i];
  add_1(t.data(), n + h, 1, radix::binary);
  const std::size_t tm_n = trimmed(t.data() + l, n + h - l);
  if (tm_n > h + 1) throw error(error::kind::internal, "bigmul: reciprocal residual out of range");
  std::vector<limb_t> u(tm_n + h + 1);
  mul_any(u.data(), t.data() + l, tm_n, xh.data(), h + 1);
  finish(x, n, l, h, xh, u);
}

// The step with both products by xh's one transform, modulo B^N - 1.
void step_cyclic(limb_t* x, const limb_t* a, std::size_t n, std::size_t l, std::size_t h, std::vector<limb_t>& xh) {
  // N >= n + 2: the residual's range (-2 B^n, 2 B^n) fits modulo B^N - 1;
  // N >= 2 h + 2: the second product is exact.
  const ntt_fixed_factor f(xh.data(), h + 1, n, std::max(n + 2, 2 * h + 2));
  const std::size_t N = f.length();
  std::vector<limb_t> d(N);
  f.mul_mod(d.data(), a, n);
  // s = a * xh - B^(n+h) in (-2 B^n, 2 B^n): a xh = a_hi xh B^l + a_lo xh with
  // B^(2h) - 2 a_hi < a_hi xh < B^(2h) and 0 <= a_lo xh < 2 B^(l+h).
  // d = s modulo B^N - 1 (B^(n+h) = B^((n+h) mod N) there).
  const std::size_t e = (n + h) % N;
  if (sub_1_in_place(d.data() + e, N - e) != 0) sub_1_in_place(d.data(), N);  // a borrow out of the top: + B^N - 1
  if (std::all_of(d.begin(), d.end(), [](limb_t w) { return w == ~limb_t{0}; })) std::fill(d.begin(), d.end(), 0);
  const auto small = [&](const std::vector<limb_t>& v) {  // v < 2 B^n
    return v[n] <= 1 && std::all_of(v.begin() + static_cast<std::ptrdiff_t>(n + 1), v.end(), [](limb_t w) { return w == 0; });
  };
  // r = the residual B^(n+h) - a xh after the corrections, n + 1 limbs.
  std::vector<limb_t> r(n + 1);
  int k = 0;  // xh is decremented k times
  if (small(d)) {  // s >= 0 (or d = 0): xh is too large; s - k a < 0 for some k <= 4
    std::vector<limb_t> s(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n + 1));
    for (;;) {
      ++k;
      if (k > 4) throw error(error::kind::internal, "bigmul: reciprocal correction did not converge");
      // s < a: r = a - s > 0, done; else s -= a.
      const bool below = s[n] == 0 && cmp_n(s.data(), a, n) < 0;
      if (below) {
        sub(r.data(), a, n, s.data(), n, radix::binary);
        r[n] = 0;
        break;
      }
      sub(s.data(), s.data(), n + 1, a, n, radix::binary);
    }
  } else {  // s < 0: r = -s = B^N - 1 - d
    for (std::size_t i = 0; i < N; ++i) d[i] = ~d[i];
    if (!small(d)) throw error(error::kind::internal, "bigmul: reciprocal residual out of range");
    std::copy(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n + 1), r.begin());
  }
  const std::size_t tm_n = trimmed(r.data() + l, n + 1 - l);  // <= h + 1
  // u = tm * (xh - k) = tm * xh - k tm, the product exact (tm_n + h + 1 <= N),
  // in d's pages (no fresh ones).
  std::vector<limb_t> u = std::move(d);
  f.mul_mod(u.data(), r.data() + l, tm_n);
  u.resize(tm_n + h + 1);
  for (int i = 0; i < k; ++i) {
    sub_1_in_place(xh.data(), h + 1);
    if (tm_n > 0 && sub(u.data(), u.data(), u.size(), r.data() + l, tm_n, radix::binary) != 0)
      throw error(error::kind::internal, "bigmul: reciprocal correction underflow");
  }
  finish(x, n, l, h, xh, u);
}

}  // namespace

void approx_reciprocal(limb_t* x, const limb_t* a, std::size_t n) {
  if (n == 1) {
    x[0] = invert_limb(a[0]);
    x[1] = 1;
    return;
  }
  if (n < reciprocal_basecase_limbs) {
    // x = floor((2^(128 n) - 1) / a), exact.
    std::vector<limb_t> u(2 * n + 1, ~limb_t{0});
    u[2 * n] = 0;
    div_schoolbook(x, u.data(), u.size(), a, n);
    return;
  }
  const std::size_t l = (n - 1) / 2, h = n - l;
  // xh: reciprocal of the top h limbs (h + 1 limbs).
  std::vector<limb_t> xh(h + 1);
  approx_reciprocal(xh.data(), a + l, h);
  if (n >= reciprocal_cyclic_limbs)
    step_cyclic(x, a, n, l, h, xh);
  else
    step_plain(x, a, n, l, h, xh);
}

}  // namespace bigmul::detail
