// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::integer operators: sign handling and radix agreement around the
// limb-level routines of src/arith. Part of the integer module (the bigmul
// library), through integer's public interface only.
#include <algorithm>
#include <bit>
#include <span>
#include <utility>
#include <vector>

#include "bigmul/arith.hpp"
#include "mul/limb_vec.hpp"
#include "src/arith/mul_helpers.hpp"

namespace bigmul {
namespace {

using limbs_t = std::vector<limb_t>;
using span_t = std::span<const limb_t>;

span_t mag(const integer& x) { return x.magnitude(); }

integer make(limbs_t&& limbs, bool negative, radix rx) { return integer(std::move(limbs), negative, rx); }

// Both operands in one radix: the smaller one is converted to the larger one's.
struct common_radix {
  integer converted;
  const integer* a;
  const integer* b;
  radix rx;
  common_radix(const integer& x, const integer& y) : a(&x), b(&y), rx(x.get_radix()) {
    if (x.get_radix() == y.get_radix()) return;
    if (x.size() >= y.size()) {
      converted = y.to_radix(x.get_radix());
      b = &converted;
    } else {
      converted = x.to_radix(y.get_radix());
      a = &converted;
      rx = y.get_radix();
    }
  }
};

// |a| + |b| or |a| - |b| (|a| >= |b| for the difference), in radix rx.
limbs_t add_magnitudes(span_t a, span_t b, radix rx) {
  const span_t big = a.size() >= b.size() ? a : b;
  const span_t small = a.size() >= b.size() ? b : a;
  limbs_t r(big.size() + 1);
  r[big.size()] = detail::add(r.data(), big.data(), big.size(), small.data(), small.size(), rx);
  return r;
}

limbs_t sub_magnitudes(span_t a, span_t b, radix rx) {
  limbs_t r(a.size());
  detail::sub(r.data(), a.data(), a.size(), b.data(), b.size(), rx);
  return r;
}

int compare_magnitudes(span_t a, span_t b) {
  return compare(a.data(), a.size(), b.data(), b.size());
}

// a + b where b's sign is flipped when `negate_b`.
integer add_signed(const integer& x, const integer& y, bool negate_b) {
  const common_radix c(x, y);
  const integer& a = *c.a;
  const integer& b = *c.b;
  const bool an = a.is_negative();
  const bool bn = b.is_negative() != negate_b && !b.is_zero();
  if (an == bn) return make(add_magnitudes(mag(a), mag(b), c.rx), an, c.rx);
  const int cmp = compare_magnitudes(mag(a), mag(b));
  if (cmp >= 0) return make(sub_magnitudes(mag(a), mag(b), c.rx), an, c.rx);
  return make(sub_magnitudes(mag(b), mag(a), c.rx), bn, c.rx);
}

integer one() { return integer(1); }

integer negated(const integer& x) { return -x; }

// x itself when it is binary (no copy of a large operand), else its
// conversion, held in `keep`.
const integer& to_binary(const integer& x, integer& keep) {
  if (x.get_radix() == radix::binary) return x;
  keep = x.to_radix(radix::binary);
  return keep;
}

integer in_radix(integer&& x, radix rx) {
  if (x.get_radix() == rx) return std::move(x);
  return x.to_radix(rx);
}

// Two's complement of x on n limbs (n > x.size(), so the top limb carries the sign).
limbs_t twos_complement(const integer& x, std::size_t n) {
  limbs_t t(n, 0);
  const span_t m = mag(x);
  std::copy(m.begin(), m.end(), t.begin());
  if (x.is_negative()) {
    detail::sub_1_in_place(t.data(), n);
    for (auto& v : t) v = ~v;
  }
  return t;
}

// The integer whose n-limb two's complement is t.
integer from_twos_complement(limbs_t&& t) {
  const bool negative = !t.empty() && (t.back() >> 63) != 0;
  if (negative) {
    for (auto& v : t) v = ~v;
    detail::add_1_in_place(t.data(), t.size());
  }
  return make(std::move(t), negative, radix::binary);
}

template <class Op>
integer bitwise(const integer& x, const integer& y, Op op) {
  const radix rx = x.size() >= y.size() ? x.get_radix() : y.get_radix();
  integer ka, kb;
  const integer &a = to_binary(x, ka), &b = to_binary(y, kb);
  const std::size_t n = std::max(a.size(), b.size()) + 1;
  limbs_t ta = twos_complement(a, n);
  const limbs_t tb = twos_complement(b, n);
  for (std::size_t i = 0; i < n; ++i) ta[i] = op(ta[i], tb[i]);
  return in_radix(from_twos_complement(std::move(ta)), rx);
}

limbs_t shift_left(span_t m, std::size_t bits) {
  if (m.empty()) return {};
  const std::size_t w = bits / 64;
  const unsigned b = static_cast<unsigned>(bits % 64);
  limbs_t r(m.size() + w + 1, 0);
  r[m.size() + w] = lshift(r.data() + w, m.data(), m.size(), b);
  return r;
}

limbs_t shift_right(span_t m, std::size_t bits) {
  const std::size_t w = bits / 64;
  if (w >= m.size()) return {};
  limbs_t r(m.size() - w);
  rshift(r.data(), m.data() + w, r.size(), static_cast<unsigned>(bits % 64));
  return r;
}

}  // namespace

// Each entry point that allocates ends in the one translation of allocation
// failure (bigmul/error.hpp): std::bad_alloc -> bigmul::error kind resource.
// Those that only delegate (/, %, the compound assignments, ++, --, abs)
// get it from the operator or copy they call.
integer operator+(const integer& a, const integer& b) try {
  return add_signed(a, b, false);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::operator+");
}
integer operator-(const integer& a, const integer& b) try {
  return add_signed(a, b, true);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::operator-");
}

void divmod(integer& q, integer& r, const integer& x, const integer& y) try {
  if (y.is_zero()) throw error(error::kind::domain, "bigmul::integer: division by zero");
  const radix rx = x.size() >= y.size() ? x.get_radix() : y.get_radix();
  integer ka, kb;
  const integer &a = to_binary(x, ka), &b = to_binary(y, kb);
  const bool qneg = a.is_negative() != b.is_negative(), rneg = a.is_negative();
  const span_t am = mag(a);
  const span_t bm = mag(b);
  if (compare_magnitudes(am, bm) < 0) {
    integer rem = a;
    q = make(limbs_t{}, false, rx);
    r = in_radix(std::move(rem), rx);
    return;
  }
  limbs_t qm(am.size() - bm.size() + 1), rm(bm.size());
  div_qr(qm.data(), rm.data(), am.data(), am.size(), bm.data(), bm.size());
  integer qi = make(std::move(qm), qneg, radix::binary);
  integer ri = make(std::move(rm), rneg, radix::binary);
  q = in_radix(std::move(qi), rx);
  r = in_radix(std::move(ri), rx);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::divmod");
}

std::pair<integer, integer> divmod(const integer& a, const integer& b) {
  std::pair<integer, integer> qr;
  divmod(qr.first, qr.second, a, b);
  return qr;
}

integer operator/(const integer& a, const integer& b) { return divmod(a, b).first; }
integer operator%(const integer& a, const integer& b) { return divmod(a, b).second; }

integer operator<<(const integer& x, std::size_t bits) try {
  integer ka;
  const integer& a = to_binary(x, ka);
  return in_radix(make(shift_left(mag(a), bits), a.is_negative(), radix::binary), x.get_radix());
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::operator<<");
}

integer operator>>(const integer& x, std::size_t bits) try {
  integer ka;
  const integer& a = to_binary(x, ka);
  if (!a.is_negative())
    return in_radix(make(shift_right(mag(a), bits), false, radix::binary), x.get_radix());
  // floor(-m / 2^bits) = -(((m - 1) >> bits) + 1)
  limbs_t m(mag(a).begin(), mag(a).end());
  detail::sub_1_in_place(m.data(), m.size());
  limbs_t s = shift_right(m, bits);
  s.push_back(0);
  detail::add_1_in_place(s.data(), s.size());
  return in_radix(make(std::move(s), true, radix::binary), x.get_radix());
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::operator>>");
}

integer operator&(const integer& a, const integer& b) try {
  return bitwise(a, b, [](limb_t x, limb_t y) { return x & y; });
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::operator&");
}
integer operator|(const integer& a, const integer& b) try {
  return bitwise(a, b, [](limb_t x, limb_t y) { return x | y; });
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::operator|");
}
integer operator^(const integer& a, const integer& b) try {
  return bitwise(a, b, [](limb_t x, limb_t y) { return x ^ y; });
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::operator^");
}
integer operator~(const integer& a) try {
  return negated(a) - one();
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::operator~");
}

integer& operator+=(integer& a, const integer& b) { return a = a + b; }
integer& operator-=(integer& a, const integer& b) { return a = a - b; }
integer& operator/=(integer& a, const integer& b) { return a = a / b; }
integer& operator%=(integer& a, const integer& b) { return a = a % b; }
integer& operator<<=(integer& a, std::size_t bits) { return a = a << bits; }
integer& operator>>=(integer& a, std::size_t bits) { return a = a >> bits; }
integer& operator&=(integer& a, const integer& b) { return a = a & b; }
integer& operator|=(integer& a, const integer& b) { return a = a | b; }
integer& operator^=(integer& a, const integer& b) { return a = a ^ b; }
integer& operator++(integer& a) { return a = a + one(); }
integer& operator--(integer& a) { return a = a - one(); }
integer operator++(integer& a, int) {
  integer old = a;
  ++a;
  return old;
}
integer operator--(integer& a, int) {
  integer old = a;
  --a;
  return old;
}

integer abs(const integer& a) { return a.is_negative() ? negated(a) : a; }

std::size_t bit_length(const integer& x) try {
  integer ka;
  const integer& a = to_binary(x, ka);
  const span_t m = mag(a);
  if (m.empty()) return 0;
  return 64 * m.size() - static_cast<std::size_t>(std::countl_zero(m.back()));
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::bit_length");
}

std::size_t lowest_set_bit(const integer& x) try {
  if (x.is_zero()) throw error(error::kind::domain, "bigmul::lowest_set_bit: the value is zero");
  integer ka;
  const integer& a = to_binary(x, ka);
  const span_t m = mag(a);
  std::size_t i = 0;
  while (m[i] == 0) ++i;
  return 64 * i + static_cast<std::size_t>(std::countr_zero(m[i]));
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::lowest_set_bit");
}

bool test_bit(const integer& x, std::size_t index) try {
  integer ka;
  const integer& a = to_binary(x, ka);
  const span_t m = mag(a);
  const auto bit = [&](std::size_t i) { return i / 64 < m.size() && ((m[i / 64] >> (i % 64)) & 1) != 0; };
  if (!a.is_negative()) return bit(index);
  // -m in two's complement: bits below the lowest set bit are 0, that bit is 1, the rest are inverted.
  const std::size_t z = lowest_set_bit(a);
  if (index < z) return false;
  if (index == z) return true;
  return !bit(index);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::test_bit");
}

}  // namespace bigmul
