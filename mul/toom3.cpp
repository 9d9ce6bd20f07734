// Toom-3 [BODRATO07], binary radix. a = a2 X^2 + a1 X + a0 with X = B^n,
// n = ceil(N/3), a2 of s = N - 2n limbs (likewise b); the product's five
// coefficients come from its values at 0, 1, -1, 2 and infinity:
//   v0 = a0 b0, v1 = a(1) b(1), vm1 = a(-1) b(-1), v2 = a(2) b(2), vinf = a2 b2,
// and Bodrato's interpolation sequence, written for the point 2 instead of
// -2 (so a(2), b(2) need no sign): one exact division by 3, two halvings.
// With c(x) = c0 + c1 x + ... + c4 x^4 the product:
//   r3 = (v2 - vm1) / 3       = c1 + c2 + 3 c3 + 5 c4
//   r1 = (v1 - vm1) / 2       = c1 + c3
//   r2 = vm1 - v0             = -c1 + c2 - c3 + c4
//   r3 = (r3 - r2) / 2 - 2 vinf = c1 + 2 c3
//   r2 = r2 + r1 - vinf       = c2
//   r3 = r3 - r1              = c3
//   r1 = r1 - r3              = c1
// Intermediates can be negative; they are kept as L = 2n + 2-limb two's
// complement numbers (every |value| < 64 B^(2n) < B^L / 2), where adding,
// subtracting, halving (arithmetic shift) and the exact division by 3 (Hensel:
// multiply by 3^-1 mod 2^64 with a borrow, GMP's divexact_by3) are exact mod
// B^L. The final r1, r2, r3 are the true, non-negative coefficients.
#include "mul/toom3.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "mul/basecase.hpp"
#include "mul/karatsuba.hpp"
#include "mul/limb_binary.hpp"
#include "mul/limb_ops.hpp"

namespace bigmul::detail {
namespace {

using bin::add_1;
using bin::add_n;
using bin::sub_n;

// x (xn limbs) zero-extended to n >= xn limbs.
void extend(limb_t* r, const limb_t* x, std::size_t xn, std::size_t n) {
  std::memcpy(r, x, xn * sizeof(limb_t));
  std::fill(r + xn, r + n, limb_t{0});
}
// Two's complement negation of r[0 .. n).
void negate(limb_t* r, std::size_t n) {
  limb_t c = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const limb_t v = ~r[i] + c;
    c = c && v == 0;
    r[i] = v;
  }
}
// r = x / 3 for x divisible by 3, mod B^n (Hensel; exact for two's complement values).
void divexact_by3(limb_t* r, const limb_t* x, std::size_t n) {
  constexpr limb_t inv3 = 0xAAAAAAAAAAAAAAABull;  // 3 inv3 = 1 mod 2^64
  limb_t borrow = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const limb_t s = x[i] - borrow;
    const limb_t b1 = x[i] < borrow;
    const limb_t q = s * inv3;
    r[i] = q;
    borrow = b1 + static_cast<limb_t>((static_cast<u128>(q) * 3) >> 64);
  }
}
// r = x / 2, arithmetic shift of a two's complement value (exact for even x).
void halve(limb_t* r, const limb_t* x, std::size_t n) {
  for (std::size_t i = 0; i + 1 < n; ++i) r[i] = (x[i] >> 1) | (x[i + 1] << 63);
  r[n - 1] = static_cast<limb_t>(static_cast<std::int64_t>(x[n - 1]) >> 1);
}
// r = 2 x mod B^n.
void twice(limb_t* r, const limb_t* x, std::size_t n) {
  for (std::size_t i = n; i-- > 1;) r[i] = (x[i] << 1) | (x[i - 1] >> 63);
  r[0] = x[0] << 1;
}

struct cuts {
  std::size_t toom3, karatsuba;
};

// Scratch limbs toom_n needs for n-limb operands (its own level plus the levels below).
std::size_t scratch_limbs(std::size_t n, const cuts& c) {
  std::size_t total = 0;
  while (n >= c.toom3) {
    const std::size_t m = (n + 2) / 3, L = 2 * m + 2;
    total += 6 * (m + 1) + 4 * L;
    n = m + 1;
  }
  return total + 16;
}

void chain_n(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, const cuts& c, limb_t* scratch);

// Balanced Toom-3: r[0 .. 2N) = a * b, N limbs each, N >= toom3_min_limbs.
void toom_n(limb_t* r, const limb_t* a, const limb_t* b, std::size_t N, const cuts& c, limb_t* scratch) {
  const std::size_t n = (N + 2) / 3, s = N - 2 * n, m = n + 1, L = 2 * n + 2;
  // s >= 1: N >= 9 gives n <= (N + 2) / 3 < N / 2.
  const limb_t *a0 = a, *a1 = a + n, *a2 = a + 2 * n, *b0 = b, *b1 = b + n, *b2 = b + 2 * n;
  limb_t* ea1 = scratch;  // a(1), then the evaluations of b
  limb_t* eam1 = ea1 + m;
  limb_t* ea2 = eam1 + m;
  limb_t* eb1 = ea2 + m;
  limb_t* ebm1 = eb1 + m;
  limb_t* eb2 = ebm1 + m;
  limb_t* v1 = eb2 + m;  // L limbs each
  limb_t* vm1 = v1 + L;
  limb_t* v2 = vm1 + L;
  limb_t* t = v2 + L;
  limb_t* next = t + L;

  // Evaluations (m = n + 1 limbs): p(1) = p0 + p1 + p2, |p(-1)| = |p0 + p2 - p1|,
  // p(2) = p0 + 2 (p1 + 2 p2) = (p0 + p2) + p1 + p1 + ... written as
  // ((2 p2 + p1) 2) + p0. Returns whether p(-1) is negative.
  const auto evaluate = [&](const limb_t* p0, const limb_t* p1, const limb_t* p2, limb_t* e1, limb_t* em1,
                            limb_t* e2) {
    extend(t, p2, s, m);  // t = p2 (m limbs)
    extend(e1, p0, n, m);
    add_n(e1, e1, t, m);  // e1 = p0 + p2 (< 2 B^n)
    extend(e2, p1, n, m);
    bool neg;
    if (std::lexicographical_compare(std::reverse_iterator(e1 + m), std::reverse_iterator(e1),
                                     std::reverse_iterator(e2 + m), std::reverse_iterator(e2))) {
      sub_n(em1, e2, e1, m);  // p1 > p0 + p2
      neg = true;
    } else {
      sub_n(em1, e1, e2, m);
      neg = false;
    }
    add_n(e1, e1, e2, m);  // p(1)
    twice(t, t, m);        // 2 p2
    add_n(t, t, e2, m);    // 2 p2 + p1
    twice(t, t, m);        // 4 p2 + 2 p1 (< 6 B^n)
    extend(e2, p0, n, m);
    add_n(e2, e2, t, m);  // p(2) < 7 B^n
    return neg;
  };
  const bool na = evaluate(a0, a1, a2, ea1, eam1, ea2);
  const bool nb = evaluate(b0, b1, b2, eb1, ebm1, eb2);

  // The five products; v0 and vinf go straight into r.
  chain_n(v1, ea1, eb1, m, c, next);
  chain_n(vm1, eam1, ebm1, m, c, next);
  if (na != nb) negate(vm1, L);
  chain_n(v2, ea2, eb2, m, c, next);
  chain_n(r, a0, b0, n, c, next);  // v0: r[0 .. 2n)
  if (s > 0) chain_n(r + 4 * n, a2, b2, s, c, next);  // vinf: r[4n .. 4n + 2s)
  const limb_t* v0 = r;
  const limb_t* vinf = r + 4 * n;

  // Interpolation in L-limb two's complement (v2 becomes r3, v1 r1, vm1 r2).
  limb_t* r3 = v2;
  limb_t* r1 = v1;
  limb_t* r2 = vm1;
  sub_n(r3, v2, vm1, L);
  divexact_by3(r3, r3, L);      // r3 = (v2 - vm1) / 3
  sub_n(r1, v1, vm1, L);
  halve(r1, r1, L);             // r1 = (v1 - vm1) / 2
  extend(t, v0, 2 * n, L);
  sub_n(r2, vm1, t, L);         // r2 = vm1 - v0
  sub_n(r3, r3, r2, L);
  halve(r3, r3, L);
  extend(t, vinf, 2 * s, L);
  sub_n(r3, r3, t, L);
  sub_n(r3, r3, t, L);          // r3 = (r3 - r2) / 2 - 2 vinf = c1 + 2 c3
  add_n(r2, r2, r1, L);
  sub_n(r2, r2, t, L);          // r2 = r2 + r1 - vinf = c2
  sub_n(r3, r3, r1, L);         // c3
  sub_n(r1, r1, r3, L);         // c1

  // Recomposition: r = v0 + r1 X + r2 X^2 + r3 X^3 + vinf X^4. The gap
  // r[2n .. 4n) is cleared; each coefficient is added where it lands, its
  // limbs past the product's end being zero (the product fits in 2N limbs).
  std::fill(r + 2 * n, r + 4 * n, limb_t{0});
  const std::size_t total = 2 * N;
  const auto add_at = [&](std::size_t off, const limb_t* x) {
    const std::size_t k = std::min(L, total - off);
    const limb_t cy = add_n(r + off, r + off, x, k);
    add_1(r + off + k, total - off - k, cy);
  };
  add_at(n, r1);
  add_at(2 * n, r2);
  add_at(3 * n, r3);
}

// Balanced product through the chain: Toom-3, Karatsuba or the schoolbook by size.
void chain_n(limb_t* r, const limb_t* a, const limb_t* b, std::size_t n, const cuts& c, limb_t* scratch) {
  if (n >= c.toom3) {
    toom_n(r, a, b, n, c, scratch);
    return;
  }
  if (n >= c.karatsuba) {
    mul_karatsuba(r, a, n, b, n, radix::binary, c.karatsuba);
    return;
  }
  mul_basecase(r, a, n, b, n, radix::binary);
}

}  // namespace

void mul_toom3(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
               std::size_t toom3_below, std::size_t karatsuba_below) {
  const cuts c{std::max(toom3_below, toom3_min_limbs), karatsuba_below};
  if (bn < c.toom3) {
    if (bn >= c.karatsuba)
      mul_karatsuba(r, a, an, b, bn, radix::binary, c.karatsuba);
    else
      mul_basecase(r, a, an, b, bn, radix::binary);
    return;
  }
  // Uninitialized: every limb is written before it is read.
  const std::unique_ptr<limb_t[]> scratch(new limb_t[scratch_limbs(bn, c) + 2 * bn]);
  limb_t* prod = scratch.get() + scratch_limbs(bn, c);
  // First bn-limb slice of a straight into r, the others through prod and an
  // addition (r[done .. done + bn) holds the previous slice's high half).
  toom_n(r, a, b, bn, c, scratch.get());
  for (std::size_t done = bn; done < an;) {
    const std::size_t len = std::min(bn, an - done);
    if (len == bn)
      toom_n(prod, a + done, b, bn, c, scratch.get());
    else
      mul_toom3(prod, b, bn, a + done, len, toom3_below, karatsuba_below);
    const limb_t cy = add_n(r + done, prod, r + done, bn);
    std::memcpy(r + done + bn, prod + bn, len * sizeof(limb_t));
    add_1(r + done + bn, len, cy);  // no carry out: the product fits
    done += len;
  }
}

}  // namespace bigmul::detail
