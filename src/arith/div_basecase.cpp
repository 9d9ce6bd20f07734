// SPDX-License-Identifier: LGPL-3.0-or-later
// Schoolbook division: one-limb divisors and Knuth's algorithm D.
#include "src/arith/div_basecase.hpp"

#include "bigmul/arith.hpp"
#include "mul/limb_vec.hpp"

namespace bigmul {
namespace detail {

void div_schoolbook(limb_t* q, limb_t* u, std::size_t un, const limb_t* d, std::size_t dn) {
  const limb_t d1 = d[dn - 1], d0 = d[dn - 2];
  const limb_t v = invert_limb(d1);
  for (std::size_t j = un - dn; j-- > 0;) {
    // Estimate the quotient limb from the top two limbs of the partial
    // remainder and the top limb of d, then refine with d's second limb:
    // afterwards it is exact or one too large.
    const limb_t u2 = u[j + dn], u1 = u[j + dn - 1], u0 = u[j + dn - 2];
    limb_t qhat, rhat;
    bool rhat_fits = true;  // rhat < 2^64
    if (u2 >= d1) {  // the invariant allows only u2 == d1 here
      qhat = ~limb_t{0};
      rhat = u1 + d1;
      rhat_fits = rhat >= u1;
    } else {
      const qr64 qr = div_2by1(u2, u1, d1, v);
      qhat = qr.q;
      rhat = qr.r;
    }
    while (rhat_fits && static_cast<u128>(qhat) * d0 > ((static_cast<u128>(rhat) << 64) | u0)) {
      --qhat;
      const limb_t before = rhat;
      rhat += d1;
      rhat_fits = rhat >= before;
    }
    const limb_t borrow = submul_1(u + j, d, dn, qhat);
    const limb_t top = u[j + dn];
    u[j + dn] = top - borrow;
    if (top < borrow) {  // qhat was one too large: add d back
      --qhat;
      const limb_t c = add_n(u + j, u + j, d, dn, radix::binary);
      u[j + dn] += c;
    }
    q[j] = qhat;
  }
}

}  // namespace detail

limb_t divrem_1(limb_t* q, const limb_t* a, std::size_t n, limb_t d) {
  if (d == 0) throw error(error::kind::domain, "bigmul::divrem_1: division by zero");
  if (n == 0) return 0;
  const unsigned s = static_cast<unsigned>(std::countl_zero(d));
  const limb_t dn = d << s;
  const limb_t v = detail::invert_limb(dn);
  // Divide a << s by d << s; the remainder comes out shifted by s.
  limb_t r = s ? a[n - 1] >> (64 - s) : 0;
  for (std::size_t i = n; i-- > 0;) {
    const limb_t lo = s ? (a[i] << s) | (i > 0 ? a[i - 1] >> (64 - s) : 0) : a[i];
    const detail::qr64 qr = detail::div_2by1(r, lo, dn, v);
    q[i] = qr.q;
    r = qr.r;
  }
  return r >> s;
}

}  // namespace bigmul
