// SPDX-License-Identifier: LGPL-3.0-or-later
// Division by a precomputed reciprocal, one quotient block at a time: each
// block of kk limbs costs a (kk+1) x (kk+1) and a dn x kk multiplication.
#include "src/arith/div_newton.hpp"

#include <algorithm>
#include <vector>

#include "bigmul/error.hpp"
#include "mul/limb_vec.hpp"
#include "src/arith/mul_helpers.hpp"

namespace bigmul::detail {
namespace {

// The estimate is off by at most a few units (see div_newton.hpp); more
// corrections than this mean a broken invariant.
constexpr int max_corrections = 16;

[[noreturn]] void diverged() {
  throw error(error::kind::internal, "bigmul: Newton division correction did not converge");
}

// One block: n[0..dn+kk) < d * 2^(64 kk) becomes its remainder in n[0..dn);
// the kk-limb quotient goes to q.
void divide_block(limb_t* q, limb_t* n, std::size_t kk, const limb_t* d, std::size_t dn, const limb_t* x,
                  std::size_t k, std::vector<limb_t>& prod, std::vector<limb_t>& est) {
  // Quotient estimate: floor(top kk+1 limbs of n * (x truncated to kk+1 limbs) / 2^(64 (kk+1))).
  const limb_t* xk = x + (k - kk);
  const limb_t* nh = n + dn - 1;
  est.assign(2 * kk + 2, 0);
  mul_any(est.data(), nh, kk + 1, xk, kk + 1);
  limb_t* qe = est.data() + kk + 1;  // kk + 1 limbs
  if (qe[kk] != 0) std::fill(qe, qe + kk, ~limb_t{0});  // the true block is below 2^(64 kk)
  const std::size_t len = dn + kk;
  prod.assign(len, 0);
  mul_any(prod.data(), d, dn, qe, kk);
  limb_t borrow = sub_n(n, n, prod.data(), len, radix::binary);
  int corrections = 0;
  while (borrow) {  // estimate too large: n went negative
    sub_1_in_place(qe, kk);
    if (add(n, n, len, d, dn, radix::binary)) borrow = 0;
    if (++corrections > max_corrections) diverged();
  }
  while (trimmed(n + dn, kk) != 0 || cmp_n(n, d, dn) >= 0) {  // estimate too small
    add_1_in_place(qe, kk);
    sub(n, n, len, d, dn, radix::binary);
    if (++corrections > max_corrections) diverged();
  }
  std::copy(qe, qe + kk, q);
}

}  // namespace

void div_newton(limb_t* q, limb_t* u, std::size_t un, const limb_t* d, std::size_t dn, const limb_t* x,
                std::size_t k) {
  const std::size_t qn = un - dn;
  if (qn == 0) return;
  std::vector<limb_t> prod, est;
  // Top block first (it may be the short one), then full blocks of k limbs.
  const std::size_t blocks = (qn + k - 1) / k;
  std::size_t kk = qn - (blocks - 1) * k;
  std::size_t j = qn;
  while (j > 0) {
    j -= kk;
    divide_block(q + j, u + j, kk, d, dn, x, k, prod, est);
    kk = k;
  }
}

}  // namespace bigmul::detail
