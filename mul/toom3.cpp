// SPDX-License-Identifier: LGPL-3.0-or-later
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
#include <cstdint>
#include <cstring>
#include <iterator>
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

// Sign-aware helpers on L-limb two's complement values. The flag-chained
// subtractions run on the adc/sbb loops of mul/limb_binary.hpp; the halving,
// doubling and division by 3 are separate passes with no flag carried from
// limb to limb (fusing them into the subtraction's loop makes every limb save
// and restore the borrow around the shift or multiply: slower here).
using bin::carry_t;
using bin::subb;

// r[0 .. m) = x[0 .. xn) + y[0 .. yn), both zero-extended, yn <= xn <= m; no carry out of r's top.
void add_ext(limb_t* r, const limb_t* x, std::size_t xn, const limb_t* y, std::size_t yn, std::size_t m) {
  limb_t c = add_n(r, x, y, yn);
  for (std::size_t i = yn; i < xn; ++i) {
    const limb_t v = x[i] + c;
    c = v < c;
    r[i] = v;
  }
  for (std::size_t i = xn; i < m; ++i) {
    r[i] = c;
    c = 0;
  }
}
// r[0 .. n) = 2 x mod B^n. r may alias x.
void twice(limb_t* r, const limb_t* x, std::size_t n) {
  for (std::size_t i = n; i-- > 1;) r[i] = (x[i] << 1) | (x[i - 1] >> 63);
  r[0] = x[0] << 1;
}
// r[0 .. L) = x / 2, arithmetic shift of a two's complement value (exact for even x). r may alias x.
void halve(limb_t* r, const limb_t* x, std::size_t L) {
  for (std::size_t i = 0; i + 1 < L; ++i) r[i] = (x[i] >> 1) | (x[i + 1] << 63);
  r[L - 1] = static_cast<limb_t>(static_cast<std::int64_t>(x[L - 1]) >> 1);
}
// r[0 .. L) = (x - y) / 2 for an even difference. r may alias x or y.
void sub_halve(limb_t* r, const limb_t* x, const limb_t* y, std::size_t L) {
  sub_n(r, x, y, L);
  halve(r, r, L);
}
// r[0 .. L) = x / 3 for x divisible by 3, mod B^L (Hensel, so exact for two's
// complement values), in GMP's bdiv_dbm1 form: each limb times (B - 1) / 3,
// the chain from limb to limb a subtraction and a subtract-with-borrow (a
// multiply by 3^-1 mod B per limb puts the multiplier's latency on it).
void divexact_by3(limb_t* r, const limb_t* x, std::size_t L) {
  constexpr limb_t third = ~limb_t{0} / 3;
  limb_t h = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  for (std::size_t i = 0; i < L; ++i) {
    limb_t lo = x[i], hi;
    asm("mulq %[t]\n\t"
        "sub %%rax, %[h]\n\t"
        "mov %[h], %[q]\n\t"
        "sbb %%rdx, %[h]"
        : "+a"(lo), "=d"(hi), [h] "+r"(h), [q] "=r"(r[i])
        : [t] "r"(third)
        : "cc");
  }
#else
  for (std::size_t i = 0; i < L; ++i) {
    const u128 p = static_cast<u128>(x[i]) * third;
    const limb_t p0 = static_cast<limb_t>(p), p1 = static_cast<limb_t>(p >> 64);
    const limb_t cy = h < p0;
    h -= p0;
    r[i] = h;
    h = h - p1 - cy;
  }
#endif
}
// r[0 .. L) = (x - y) / 3 for a difference divisible by 3. r may alias x or y.
void sub_divexact_by3(limb_t* r, const limb_t* x, const limb_t* y, std::size_t L) {
  sub_n(r, x, y, L);
  divexact_by3(r, r, L);
}
// r[0 .. L) -= y, y of yn <= L limbs (zero-extended), mod B^L.
void sub_ext(limb_t* r, const limb_t* y, std::size_t yn, std::size_t L) {
  const limb_t b = sub_n(r, r, y, yn);
  bin::sub_1(r + yn, L - yn, b);
}
// r[0 .. m) = 2 x - y, x of m limbs, y of yn <= m limbs zero-extended, mod B^m. r may alias x, not y.
void lsh1_sub(limb_t* r, const limb_t* x, std::size_t m, const limb_t* y, std::size_t yn) {
  twice(r, x, m);
  sub_ext(r, y, yn, m);
}
// r[0 .. L) -= 2 y, y of yn < L limbs (zero-extended), mod B^L.
void sub_lsh1(limb_t* r, const limb_t* y, std::size_t yn, std::size_t L) {
  limb_t bit = 0;
  carry_t b = 0;
  for (std::size_t i = 0; i < yn; ++i) {
    const limb_t v = y[i], d = (v << 1) | bit;
    bit = v >> 63;
    b = subb(b, r[i], d, r + i);
  }
  b = subb(b, r[yn], bit, r + yn);
  bin::sub_1(r + yn + 1, L - yn - 1, b);
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

struct cuts {
  std::size_t toom3, karatsuba;
};

// Scratch limbs toom_n needs for n-limb operands (its own level plus the levels below).
std::size_t scratch_limbs(std::size_t n, const cuts& c) {
  std::size_t total = 0;
  while (n >= c.toom3) {
    const std::size_t m = (n + 2) / 3, L = 2 * m + 2;
    total += 6 * (m + 1) + 3 * L;
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
  limb_t* next = v2 + L;

  // Evaluations (m = n + 1 limbs): p(1) = p0 + p1 + p2, |p(-1)| = |p0 + p2 - p1|,
  // p(2) = 2 (p(1) + p2) - p0 (< 7 B^n). Returns whether p(-1) is negative.
  const auto evaluate = [&](const limb_t* p0, const limb_t* p1, const limb_t* p2, limb_t* e1, limb_t* em1,
                            limb_t* e2) {
    add_ext(e1, p0, n, p2, s, m);  // e1 = p0 + p2 (< 2 B^n)
    const bool neg = e1[n] == 0 && bin::cmp_n(e1, p1, n) < 0;
    if (neg) {
      em1[n] = 0;
      sub_n(em1, p1, e1, n);  // p1 > p0 + p2
    } else {
      em1[n] = e1[n] - sub_n(em1, e1, p1, n);
    }
    e1[n] += add_n(e1, e1, p1, n);  // p(1)
    add_ext(e2, e1, m, p2, s, m);   // p(1) + p2
    lsh1_sub(e2, e2, m, p0, n);     // p(2)
    return neg;
  };
  // A square (a == b) evaluates once and its five products are squares
  // (a(-1)^2 >= 0), which the levels below compute as such.
  const bool square = a == b;
  const bool na = evaluate(a0, a1, a2, ea1, eam1, ea2);
  const bool nb = square ? na : evaluate(b0, b1, b2, eb1, ebm1, eb2);
  if (square) eb1 = ea1, ebm1 = eam1, eb2 = ea2;

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
  sub_divexact_by3(r3, v2, vm1, L);  // r3 = (v2 - vm1) / 3
  sub_halve(r1, v1, vm1, L);         // r1 = (v1 - vm1) / 2
  sub_ext(r2, v0, 2 * n, L);         // r2 = vm1 - v0
  sub_halve(r3, r3, r2, L);
  sub_lsh1(r3, vinf, 2 * s, L);      // r3 = (r3 - r2) / 2 - 2 vinf = c1 + 2 c3
  add_n(r2, r2, r1, L);
  sub_ext(r2, vinf, 2 * s, L);       // r2 = r2 + r1 - vinf = c2
  sub_n(r3, r3, r1, L);              // c3
  sub_n(r1, r1, r3, L);              // c1

  // Recomposition: r = v0 + r1 X + r2 X^2 + r3 X^3 + vinf X^4. r2's low 2n
  // limbs fill the gap r[2n .. 4n), its top two are added at 4n; r1 and r3
  // are added where they land, their limbs past the product's end being
  // zero (the product fits in 2N limbs).
  const std::size_t total = 2 * N;
  const auto add_at = [&](std::size_t off, const limb_t* x, std::size_t xn) {
    const std::size_t k = std::min(xn, total - off);
    const limb_t cy = add_n(r + off, r + off, x, k);
    add_1(r + off + k, total - off - k, cy);
  };
  std::memcpy(r + 2 * n, r2, 2 * n * sizeof(limb_t));
  add_at(4 * n, r2 + 2 * n, 2);
  add_at(n, r1, L);
  add_at(3 * n, r3, L);
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
  // Uninitialized (every limb is written before it is read), on the stack
  // at the sizes where an allocation would show.
  const std::size_t need = scratch_limbs(bn, c) + 2 * bn;
  limb_t stack_buf[2048];
  std::unique_ptr<limb_t[]> heap;
  limb_t* scratch = stack_buf;
  if (need > std::size(stack_buf)) {
    heap.reset(new limb_t[need]);
    scratch = heap.get();
  }
  limb_t* prod = scratch + scratch_limbs(bn, c);
  // First bn-limb slice of a straight into r, the others through prod and an
  // addition (r[done .. done + bn) holds the previous slice's high half).
  toom_n(r, a, b, bn, c, scratch);
  for (std::size_t done = bn; done < an;) {
    const std::size_t len = std::min(bn, an - done);
    if (len == bn)
      toom_n(prod, a + done, b, bn, c, scratch);
    else
      mul_toom3(prod, b, bn, a + done, len, toom3_below, karatsuba_below);
    const limb_t cy = add_n(r + done, prod, r + done, bn);
    std::memcpy(r + done + bn, prod + bn, len * sizeof(limb_t));
    add_1(r + done + bn, len, cy);  // no carry out: the product fits
    done += len;
  }
}

}  // namespace bigmul::detail
