// Approximate reciprocal by Newton's iteration: each step doubles the
// precision of the reciprocal of the divisor's top half with two
// multiplications (a full n x n/2 and an n/2 x n/2 one).
#include "src/arith/reciprocal.hpp"

#include <algorithm>
#include <vector>

#include "bigmul/error.hpp"
#include "mul/limb_vec.hpp"
#include "src/arith/div_basecase.hpp"
#include "src/arith/mul_helpers.hpp"

namespace bigmul::detail {

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
  // u = (t >> 64 l) * xh; x = xh * 2^(64 l) + (u >> 64 (2h - l)).
  const std::size_t tm_n = trimmed(t.data() + l, n + h - l);
  if (tm_n > h + 1) throw error(error::kind::internal, "bigmul: reciprocal residual out of range");
  std::vector<limb_t> u(tm_n + h + 1);
  mul_any(u.data(), t.data() + l, tm_n, xh.data(), h + 1);
  std::fill(x, x + l, limb_t{0});
  std::copy(xh.begin(), xh.end(), x + l);
  const std::size_t shift = 2 * h - l;
  if (u.size() > shift) {
    const std::size_t un = std::min(u.size() - shift, n + 1);
    if (add(x, x, n + 1, u.data() + shift, un, radix::binary) != 0)
      throw error(error::kind::internal, "bigmul: reciprocal overflow");
  }
}

}  // namespace bigmul::detail
