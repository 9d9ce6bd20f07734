// Karatsuba multiplication [KARATSUBA62] in the subtractive form
//   a*b = z0 + (z0 + z2 - (a0 - a1)(b0 - b1)) X + z2 X^2,
// which needs only n/2-limb differences (no carry limb), in both radices.
#include "mul/karatsuba.hpp"

#include <algorithm>
#include <vector>

#include "mul/basecase.hpp"
#include "mul/limb_vec.hpp"

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

// Balanced case: a and b have n limbs each; scratch holds 8n + 64 limbs.
void kara_n(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, radix rx, std::size_t cut,
            limb_t* scratch) {
  if (n < cut || n < 4) {
    mul_basecase(r, a, n, b, n, rx);
    return;
  }
  const std::size_t lo = (n + 1) / 2, hi = n - lo;
  limb_t* da = scratch;
  limb_t* db = da + lo;
  limb_t* z1 = db + lo;        // 2 lo limbs
  limb_t* t = z1 + 2 * lo;     // 2 lo + 1 limbs
  limb_t* next = t + 2 * lo + 1;

  const bool sa = abs_diff_ext(da, a, lo, a + lo, hi, rx);
  const bool sb = abs_diff_ext(db, b, lo, b + lo, hi, rx);
  kara_n(z1, da, db, lo, rx, cut, next);
  kara_n(r, a, b, lo, rx, cut, next);                       // z0 -> r[0 .. 2lo)
  kara_n(r + 2 * lo, a + lo, b + lo, hi, rx, cut, next);    // z2 -> r[2lo .. 2n)
  // t = z0 + z2 -/+ z1 (non-negative, < B^(2lo+1)).
  t[2 * lo] = add(t, r, 2 * lo, r + 2 * lo, 2 * hi, rx);
  if (sa == sb) {
    t[2 * lo] -= sub(t, t, 2 * lo, z1, 2 * lo, rx);
  } else {
    t[2 * lo] += add(t, t, 2 * lo, z1, 2 * lo, rx);
  }
  // r += t X.
  const limb_t c = add(r + lo, r + lo, 2 * n - lo, t, 2 * lo + 1, rx);
  (void)c;  // the product fits in 2n limbs: no carry out
}

}  // namespace

void mul_karatsuba(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
                   std::size_t basecase_below) {
  basecase_below = std::max<std::size_t>(basecase_below, 4);
  if (bn < basecase_below) {
    mul_basecase(r, a, an, b, bn, rx);
    return;
  }
  std::vector<limb_t> scratch(8 * bn + 64 + 2 * bn);
  limb_t* prod = scratch.data() + 8 * bn + 64;
  // First slice straight into r, the others through prod and an addition.
  kara_n(r, a, b, bn, rx, basecase_below, scratch.data());
  std::size_t done = bn;
  while (done < an) {
    const std::size_t len = std::min(bn, an - done);
    // r[done .. done+bn) already holds the high half of the previous slice.
    if (len == bn) {
      kara_n(prod, a + done, b, bn, rx, basecase_below, scratch.data());
    } else if (len >= basecase_below) {
      mul_karatsuba(prod, b, bn, a + done, len, rx, basecase_below);
    } else {
      mul_basecase(prod, b, bn, a + done, len, rx);
    }
    const limb_t c = add(r + done, prod, len + bn, r + done, bn, rx);
    (void)c;  // fits
    done += len;
  }
}

}  // namespace bigmul::detail
