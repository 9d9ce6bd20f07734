// SPDX-License-Identifier: LGPL-3.0-or-later
// Division with remainder of binary limb arrays: normalization, then
// schoolbook or Newton division by size.
#include <bit>
#include <string>
#include <vector>

#include "bigmul/arith.hpp"
#include "src/arith/div_basecase.hpp"
#include "src/arith/div_newton.hpp"
#include "src/arith/reciprocal.hpp"

namespace bigmul {
void div_qr(limb_t* q, limb_t* r, const limb_t* a, std::size_t an, const limb_t* d, std::size_t dn,
            div_algorithm algo) try {
  if (static_cast<unsigned>(algo) > static_cast<unsigned>(div_algorithm::newton))
    throw error(error::kind::invalid_argument, "bigmul::div_qr: div_algorithm " +
                                                   std::to_string(static_cast<unsigned>(algo)) + " is not one of its enumerators");
  if (dn == 0 || d[dn - 1] == 0)
    throw error(error::kind::domain, "bigmul::div_qr: division by zero or a divisor with a zero top limb");
  if (an < dn)
    throw error(error::kind::invalid_argument, "bigmul::div_qr: needs an >= dn (got an=" + std::to_string(an) +
                                                   ", dn=" + std::to_string(dn) + ")");
  if (dn == 1) {
    r[0] = divrem_1(q, a, an, d[0]);
    return;
  }
  // Normalize: shift both so that d's top bit is set; u gets one extra limb
  // so that its top dn limbs are below d.
  const unsigned s = static_cast<unsigned>(std::countl_zero(d[dn - 1]));
  std::vector<limb_t> dd(dn), u(an + 1);
  lshift(dd.data(), d, dn, s);
  u[an] = lshift(u.data(), a, an, s);
  const std::size_t qn = an + 1 - dn;
  if (algo == div_algorithm::automatic)
    algo = dn >= detail::newton_divisor_limbs && qn >= detail::newton_quotient_limbs ? div_algorithm::newton
                                                                       : div_algorithm::basecase;
  if (algo == div_algorithm::basecase) {
    detail::div_schoolbook(q, u.data(), u.size(), dd.data(), dn);
  } else {
    // A quotient a little longer than the divisor (2n by n with the
    // normalization limb gives n + 1) is one block of a divisor padded with
    // zero limbs below: u * B^p / d * B^p has the same quotient, and the
    // remainder comes out times B^p.
    std::size_t pad = 0;
    if (qn > dn && qn - dn <= dn / 8) {
      pad = qn - dn;
      dd.insert(dd.begin(), pad, 0);
      u.insert(u.begin(), pad, 0);
    }
    const std::size_t pdn = dn + pad;
    // Balanced blocks of at most pdn quotient limbs share one reciprocal.
    const std::size_t blocks = (qn + pdn - 1) / pdn;
    const std::size_t k = (qn + blocks - 1) / blocks;
    std::vector<limb_t> x(k + 1);
    detail::approx_reciprocal(x.data(), dd.data() + (pdn - k), k);
    detail::div_newton(q, u.data(), u.size(), dd.data(), pdn, x.data(), k);
    rshift(r, u.data() + pad, dn, s);
    return;
  }
  rshift(r, u.data(), dn, s);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::div_qr");
}

}  // namespace bigmul
