// Binary <-> decimal (10^19 limbs) conversion by divide and conquer over
// the cached powers 10^(19 * 2^k): binary -> decimal divides by the power
// nearest half the length and converts quotient and remainder; decimal ->
// binary converts both halves and recombines with one multiplication. Below
// a tuned length (mul/params_cpu.inc, measured by bench/mul/tune_cpu) the
// schoolbook conversions run. This is the library's only radix converter.
#include "src/arith/radix_convert.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "bigmul/arith.hpp"
#include "mul/limb_vec.hpp"
#include "mul/params_cpu.hpp"
#include "prim/parallel.hpp"
#include "src/arith/decimal_powers.hpp"
#include "src/arith/div_basecase.hpp"
#include "src/arith/div_newton.hpp"
#include "src/arith/mul_helpers.hpp"

namespace bigmul {
namespace {

// Decimal lengths from which the two independent halves of a split run as two
// tasks on the library's threads (a task costs microseconds, a half of this
// size a few hundred). Inside a task the halves run in turn, so the threads
// fill up at the first level that has as many halves as threads, and the
// large divisions and products above it keep using all of them.
constexpr std::size_t parallel_limbs = 1024;

template <class F, class G>
void both(std::size_t L, F&& f, G&& g) {
  if (L < parallel_limbs) {
    f();
    g();
    return;
  }
  prim::parallel_for(2, 0, [&](std::size_t i) {
    if (i == 0) f();
    else g();
  });
}

// Exactly L decimal limbs of x (< 10^(19 L)) by repeated division by 10^19.
void to_decimal_basecase(const limb_t* x, std::size_t n, limb_t* out, std::size_t L) {
  std::vector<limb_t> t(x, x + n);
  for (std::size_t i = 0; i < L; ++i) {
    limb_t rem = 0;
    for (std::size_t j = n; j-- > 0;) {
      const auto qr = detail::div_1e19((static_cast<detail::u128>(rem) << 64) | t[j]);
      t[j] = qr.q;
      rem = qr.r;
    }
    out[i] = rem;
    while (n > 0 && t[n - 1] == 0) --n;
  }
}

// q = x / five, r = x mod five for the power p (five = 5^m). x has nh
// limbs, no high zeros, and x >= five. q gets nh - dn + 1 limbs, r dn limbs.
void divide_by_power(const detail::decimal_power& p, const limb_t* x, std::size_t nh, std::vector<limb_t>& q,
                     std::vector<limb_t>& r) {
  const std::size_t dn = p.five.size();
  if (dn == 1) {
    q.resize(nh);
    r.assign(1, divrem_1(q.data(), x, nh, p.five[0]));
    return;
  }
  std::vector<limb_t> u(nh + 1);
  u[nh] = lshift(u.data(), x, nh, p.shift);
  const std::size_t qn = nh + 1 - dn;
  q.resize(qn);
  if (dn >= detail::newton_divisor_limbs && qn >= detail::newton_quotient_limbs / 4) {
    detail::div_newton(q.data(), u.data(), u.size(), p.normalized.data(), dn, p.reciprocal.data(), dn);
  } else {
    detail::div_schoolbook(q.data(), u.data(), u.size(), p.normalized.data(), dn);
  }
  r.resize(dn);
  rshift(r.data(), u.data(), dn, p.shift);
}

void to_decimal(const limb_t* x, std::size_t n, limb_t* out, std::size_t L, std::size_t basecase) {
  n = detail::trimmed(x, n);
  if (n == 0) {
    std::fill(out, out + L, limb_t{0});
    return;
  }
  if (L <= basecase) {
    to_decimal_basecase(x, n, out, L);
    return;
  }
  const std::size_t s = std::bit_floor(L - 1);  // the low part gets s limbs, s < L <= 2 s
  const detail::decimal_power& p = detail::decimal_power_at(static_cast<std::size_t>(std::countr_zero(s)));
  const std::size_t mw = p.m / 64;
  const unsigned mb = static_cast<unsigned>(p.m % 64);
  // x = x_hi * 2^m + x_lo; x / 10^m = x_hi / 5^m.
  std::vector<limb_t> xh;
  if (n > mw) {
    xh.resize(n - mw);
    rshift(xh.data(), x + mw, n - mw, mb);
    detail::trim(xh);
  }
  if (compare(xh.data(), xh.size(), p.five.data(), p.five.size()) < 0) {  // x < 10^m
    to_decimal(x, n, out, s, basecase);
    std::fill(out + s, out + L, limb_t{0});
    return;
  }
  std::vector<limb_t> q, r5;
  divide_by_power(p, xh.data(), xh.size(), q, r5);
  xh = {};
  // Remainder: (x mod 5^m... ) = r5 * 2^m + x_lo.
  std::vector<limb_t> rem(mw + r5.size() + 1, 0);
  std::copy(x, x + mw, rem.begin());
  rem[mw + r5.size()] = lshift(rem.data() + mw, r5.data(), r5.size(), mb);
  if (mb) rem[mw] |= x[mw] & ((limb_t{1} << mb) - 1);
  r5 = {};
  both(
      L, [&] { to_decimal(rem.data(), rem.size(), out, s, basecase); },
      [&] { to_decimal(q.data(), q.size(), out + s, L - s, basecase); });
}

std::vector<limb_t> from_decimal(const limb_t* x, std::size_t L, std::size_t basecase) {
  L = detail::trimmed(x, L);
  std::vector<limb_t> out;
  if (L == 0) return out;
  if (L <= basecase) {
    // Horner's rule.
    out.reserve(L);
    for (std::size_t i = L; i-- > 0;) {
      const limb_t c = detail::mul_1(out.data(), out.data(), out.size(), decimal_limb_base, radix::binary);
      if (c) out.push_back(c);
      if (const limb_t left = detail::add_1(out.data(), out.size(), x[i], radix::binary)) out.push_back(left);
    }
    return out;
  }
  const std::size_t s = std::bit_floor(L - 1);
  const detail::decimal_power& p = detail::decimal_power_at(static_cast<std::size_t>(std::countr_zero(s)));
  std::vector<limb_t> hi, lo;
  both(
      L, [&] { hi = from_decimal(x + s, L - s, basecase); }, [&] { lo = from_decimal(x, s, basecase); });
  if (hi.empty()) return lo;
  // hi * 10^m + lo = (hi * 5^m) << m + lo.
  std::vector<limb_t> prod(hi.size() + p.five.size());
  detail::mul_any(prod.data(), hi.data(), hi.size(), p.five.data(), p.five.size());
  hi = {};
  const std::size_t mw = p.m / 64;
  const unsigned mb = static_cast<unsigned>(p.m % 64);
  out.assign(mw + prod.size() + 1, 0);
  out[mw + prod.size()] = lshift(out.data() + mw, prod.data(), prod.size(), mb);
  if (!lo.empty()) add(out.data(), out.data(), out.size(), lo.data(), lo.size(), radix::binary);
  detail::trim(out);
  return out;
}

}  // namespace

namespace detail {

std::size_t decimal_limbs_bound(const limb_t* a, std::size_t n) {
  n = trimmed(a, n);
  if (n == 0) return 0;
  // bits * log10(2) / 19, rounded up, plus slack.
  const std::size_t bits = 64 * n - static_cast<std::size_t>(std::countl_zero(a[n - 1]));
  return static_cast<std::size_t>(static_cast<double>(bits) * 0.30102999566398120 / 19.0) + 2;
}

std::vector<limb_t> binary_to_decimal(const limb_t* a, std::size_t n, std::size_t basecase_limbs) {
  n = trimmed(a, n);
  if (n == 0) return {};
  const std::size_t L = decimal_limbs_bound(a, n);
  std::vector<limb_t> out(L);
  to_decimal(a, n, out.data(), L, std::max<std::size_t>(basecase_limbs, 1));
  trim(out);
  return out;
}

std::vector<limb_t> decimal_to_binary(const limb_t* a, std::size_t n, std::size_t basecase_limbs) {
  return from_decimal(a, n, std::max<std::size_t>(basecase_limbs, 1));
}

}  // namespace detail

std::vector<limb_t> binary_to_decimal(const limb_t* a, std::size_t n) {
  return detail::binary_to_decimal(a, n, detail::params_cpu::radix_to_decimal_basecase);
}

std::vector<limb_t> decimal_to_binary(const limb_t* a, std::size_t n) {
  return detail::decimal_to_binary(a, n, detail::params_cpu::radix_from_decimal_basecase);
}

}  // namespace bigmul
