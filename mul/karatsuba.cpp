// SPDX-License-Identifier: LGPL-3.0-or-later
// Karatsuba multiplication [KARATSUBA62] in the subtractive form
//   a*b = z0 + (z0 + z2 - (a0 - a1)(b0 - b1)) X + z2 X^2,
// which needs only n/2-limb differences (no carry limb), in both radices.
#include "mul/karatsuba.hpp"

#include <algorithm>
#include <iterator>
#include <memory>

#include "mul/basecase.hpp"
#include "mul/limb_binary.hpp"
#include "mul/limb_vec.hpp"
#include "mul/sqr_basecase.hpp"

namespace bigmul::detail {
namespace {

// |x - y| into d (n limbs each); returns true when x < y.
bool abs_diff(limb_t* d, const limb_t* x, const limb_t* y, std::size_t n, radix rx) {
  if (cmp_n(x, y, n) >= 0) {
    sub_n(d, x, y, n, rx);
    return false;
  }
  sub_n(d, y, x, n, rx);
  return true;
}

// |x - y| where x has n limbs and y has m <= n limbs (zero-extended).
bool abs_diff_ext(limb_t* d, const limb_t* x, std::size_t n, const limb_t* y, std::size_t m, radix rx) {
  std::size_t top = n;
  while (top > m && x[top - 1] == 0) --top;
  if (top > m) {  // x > y
    sub(d, x, n, y, m, rx);
    return false;
  }
  // x's limbs above m are zero: compare the low m limbs.
  std::fill(d + m, d + n, limb_t{0});
  return abs_diff(d, x, y, m, rx);
}

// The limb arithmetic the recursion needs, in any radix through the
// radix-generic loops (mul/limb_vec.hpp).
struct any_radix_limbs {
  radix rx;
  // |x - y| into d[0 .. n), y of m <= n limbs (zero-extended); true when x < y.
  bool abs_diff(limb_t* d, const limb_t* x, std::size_t n, const limb_t* y, std::size_t m) const {
    return abs_diff_ext(d, x, n, y, m, rx);
  }
  // r (2n limbs, z0 and z2 in place) += (z0 + z2 -/+ z1) X^lo, by way of t
  // (2 lo + 1 limbs; the sum is non-negative and below B^(2lo+1)).
  void add_middle(limb_t* r, limb_t* t, const limb_t* z1, std::size_t n, std::size_t lo, std::size_t hi,
                  bool subtract) const {
    t[2 * lo] = add(t, r, 2 * lo, r + 2 * lo, 2 * hi, rx);
    if (subtract)
      t[2 * lo] -= sub(t, t, 2 * lo, z1, 2 * lo, rx);
    else
      t[2 * lo] += add(t, t, 2 * lo, z1, 2 * lo, rx);
    const limb_t c = add(r + lo, r + lo, 2 * n - lo, t, 2 * lo + 1, rx);
    (void)c;  // the product fits in 2n limbs: no carry out
  }
  // r[0 .. bn) holds the previous slice's high half: r[0 .. bn + len) += prod.
  void add_slice(limb_t* r, const limb_t* prod, std::size_t bn, std::size_t len) const {
    const limb_t c = add(r, prod, len + bn, r, bn, rx);
    (void)c;  // fits
  }
};

// The binary radix on the carry-intrinsic loops (mul/limb_binary.hpp): the
// same recursion, a third of the radix-generic loops' overhead, which at
// 20-100 limbs is what decides the crossover with the schoolbook.
struct binary_limbs {
  static constexpr radix rx = radix::binary;
  // |x - y| into d[0 .. n), y of m = n or n - 1 limbs (zero-extended); true when x < y.
  static bool abs_diff(limb_t* d, const limb_t* x, std::size_t n, const limb_t* y, std::size_t m) {
    if (m < n && x[n - 1] != 0) {  // x > y
      d[n - 1] = x[n - 1] - bin::sub_n(d, x, y, m);
      return false;
    }
    if (m < n) d[n - 1] = 0;
    if (bin::cmp_n(x, y, m) >= 0) {
      bin::sub_n(d, x, y, m);
      return false;
    }
    bin::sub_n(d, y, x, m);
    return true;
  }
  static void add_middle(limb_t* r, limb_t* t, const limb_t* z1, std::size_t n, std::size_t lo, std::size_t hi,
                         bool subtract) {
    limb_t top = bin::add_n(t, r, r + 2 * lo, 2 * hi);
    if (2 * hi < 2 * lo) {
      for (std::size_t i = 2 * hi; i < 2 * lo; ++i) t[i] = r[i];
      top = bin::add_1(t + 2 * hi, 2 * (lo - hi), top);
    }
    if (subtract)
      top -= bin::sub_n(t, t, z1, 2 * lo);
    else
      top += bin::add_n(t, t, z1, 2 * lo);
    t[2 * lo] = top;
    const limb_t c = bin::add_n(r + lo, r + lo, t, 2 * lo + 1);
    bin::add_1(r + 3 * lo + 1, 2 * n - 3 * lo - 1, c);  // no carry out: the product fits
  }
  static void add_slice(limb_t* r, const limb_t* prod, std::size_t bn, std::size_t len) {
    const limb_t c = bin::add_n(r, prod, r, bn);
    for (std::size_t i = 0; i < len; ++i) r[bn + i] = prod[bn + i];
    bin::add_1(r + bn, len, c);  // fits
  }
};

// Balanced case: a and b of n limbs; scratch holds 8n + 64 limbs.
template <class Limbs>
void kara(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, std::size_t cut, limb_t* scratch,
          const Limbs& L) {
  if (n < cut || n < 4) {
    mul_basecase(r, a, n, b, n, L.rx);
    return;
  }
  const std::size_t lo = (n + 1) / 2, hi = n - lo;
  limb_t* da = scratch;
  limb_t* db = da + lo;
  limb_t* z1 = db + lo;     // 2 lo limbs
  limb_t* t = z1 + 2 * lo;  // 2 lo + 1 limbs
  limb_t* next = t + 2 * lo + 1;
  const bool sa = L.abs_diff(da, a, lo, a + lo, hi);
  const bool sb = L.abs_diff(db, b, lo, b + lo, hi);
  kara(z1, da, db, lo, cut, next, L);
  kara(r, a, b, lo, cut, next, L);                     // z0 -> r[0 .. 2lo)
  kara(r + 2 * lo, a + lo, b + lo, hi, cut, next, L);  // z2 -> r[2lo .. 2n)
  L.add_middle(r, t, z1, n, lo, hi, sa == sb);
}

// Balanced binary square of n limbs; scratch holds 4n + 64 limbs (3 lo + 1 a level).
void kara_sqr_bin(limb_t* r, const limb_t* a, std::size_t n, std::size_t cut, limb_t* scratch) {
  if (n < cut) {
    sqr_basecase(r, a, n);
    return;
  }
  const std::size_t lo = (n + 1) / 2, hi = n - lo;
  limb_t* d = scratch;      // |a0 - a1|, lo limbs
  limb_t* z1 = d + lo;      // 2 lo limbs
  limb_t* next = z1 + 2 * lo;
  binary_limbs::abs_diff(d, a, lo, a + lo, hi);
  kara_sqr_bin(z1, d, lo, cut, next);
  kara_sqr_bin(r, a, lo, cut, next);                // z0 -> r[0 .. 2lo)
  kara_sqr_bin(r + 2 * lo, a + lo, hi, cut, next);  // z2 -> r[2lo .. 2n)
  // t = z0 + z2 - z1 >= 0 in next (the recursion is done with it).
  binary_limbs::add_middle(r, next, z1, n, lo, hi, true);
}

// Scratch on the stack for the small sizes, uninitialized heap above
// (zeroing a vector is a visible part of a 32-limb product).
class scratch_limbs {
 public:
  explicit scratch_limbs(std::size_t need) {
    if (need > std::size(stack_)) {
      heap_.reset(new limb_t[need]);
      at_ = heap_.get();
    }
  }
  limb_t* get() { return at_; }

 private:
  limb_t stack_[1024];
  std::unique_ptr<limb_t[]> heap_;
  limb_t* at_ = stack_;
};

// an >= bn: bn x bn products of a's slices, each added to the previous
// slice's high half; the first straight into r.
template <class Limbs>
void kara_slices(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, std::size_t cut,
                 const Limbs& L) {
  scratch_limbs scratch(8 * bn + 64 + 2 * bn);
  limb_t* prod = scratch.get() + 8 * bn + 64;
  kara(r, a, b, bn, cut, scratch.get(), L);
  for (std::size_t done = bn; done < an;) {
    const std::size_t len = std::min(bn, an - done);
    if (len == bn)
      kara(prod, a + done, b, bn, cut, scratch.get(), L);
    else if (len >= cut)
      mul_karatsuba(prod, b, bn, a + done, len, L.rx, cut);
    else
      mul_basecase(prod, b, bn, a + done, len, L.rx);
    L.add_slice(r + done, prod, bn, len);
    done += len;
  }
}

}  // namespace

void mul_karatsuba(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                   std::size_t basecase_below) {
  basecase_below = std::max<std::size_t>(basecase_below, 4);
  if (bn < basecase_below) {
    mul_basecase(r, a, an, b, bn, rx);
    return;
  }
  if (rx == radix::binary && a == b && an == bn) {
    sqr_karatsuba(r, a, an);
    return;
  }
  if (rx == radix::binary)
    kara_slices(r, a, an, b, bn, basecase_below, binary_limbs{});
  else
    kara_slices(r, a, an, b, bn, basecase_below, any_radix_limbs{rx});
}

void sqr_karatsuba(limb_t* r, const limb_t* a, std::size_t n, std::size_t basecase_below) {
  // Scratch: each level takes 3 lo + (2 lo + 1 for t, reused below) limbs; 6n + 64 covers every level.
  scratch_limbs scratch(6 * n + 64);
  // At least 2: a 1-limb piece cannot split.
  kara_sqr_bin(r, a, n, std::max<std::size_t>(basecase_below, 2), scratch.get());
}

}  // namespace bigmul::detail
