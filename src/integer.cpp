// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul::integer: parsing and printing in the number's own radix (linear
// time, src/digits), radix conversion (the one converter: src/arith's divide
// and conquer), comparisons, and multiplication through bigmul::mul.
#include "bigmul/integer.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <utility>

#include "bigmul/arith.hpp"
#include "src/digits/digits.hpp"

namespace bigmul {
namespace {

std::string describe_byte(unsigned char c) {
  if (c >= 0x21 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  static const char* hex = "0123456789abcdef";
  std::string s = "byte 0x";
  s += hex[c >> 4];
  s += hex[c & 15];
  if (c == ' ') s += " (space)";
  else if (c == '\t') s += " (tab)";
  else if (c == '\n') s += " (newline)";
  else if (c == '\r') s += " (carriage return)";
  return s;
}

[[noreturn]] void bad_byte(std::string_view text, std::size_t offset, const char* expected) {
  throw parse_error("invalid " + describe_byte(static_cast<unsigned char>(text[offset])) + " at byte offset " +
                        std::to_string(offset) + " (expected " + expected + ")",
                    offset);
}

void check_decimal_limbs(const std::vector<limb_t>& limbs) {
  for (std::size_t i = 0; i < limbs.size(); ++i)
    if (limbs[i] >= decimal_limb_base)
      throw error(error::kind::invalid_argument,
                  "bigmul::integer: limb " + std::to_string(i) + " is not a decimal limb (>= 10^19)");
}

unsigned checked_base(int base) {
  if (base != 10 && base != 16)
    throw error(error::kind::invalid_argument,
                "bigmul::integer::to_string: base must be 10 or 16, not " + std::to_string(base));
  return static_cast<unsigned>(base);
}

// floor(log2 |x|) to within one bit, as a double (x != 0): enough to order
// numbers whose sizes differ by more than a couple of bits without converting.
double log2_magnitude(const integer& x) {
  const auto m = x.magnitude();
  const double top = static_cast<double>(m.back());
  const double per_limb = x.get_radix() == radix::decimal ? 63.116633802859894 : 64.0;  // log2(10^19)
  return static_cast<double>(m.size() - 1) * per_limb + std::log2(top);
}

std::strong_ordering compare_same_radix(const integer& a, const integer& b) {
  if (a.sign() != b.sign()) return a.sign() <=> b.sign();
  const int mag = compare(a.magnitude().data(), a.size(), b.magnitude().data(), b.size());
  const std::strong_ordering m = mag <=> 0;
  return a.is_negative() ? 0 <=> m : m;
}

}  // namespace

// Every entry point that can allocate ends in the one translation of
// allocation failure (bigmul/error.hpp): std::bad_alloc -> bigmul::error
// kind resource.
integer::integer(long long v) try : negative_(v < 0), radix_(radix::binary) {
  const unsigned long long m = v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  if (m) limbs_.push_back(m);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer");
}

integer::integer(unsigned long long v) try {
  if (v) limbs_.push_back(v);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer");
}

integer::integer(const integer& o) try : limbs_(o.limbs_), negative_(o.negative_), radix_(o.radix_) {
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer (copy)");
}

integer& integer::operator=(const integer& o) try {
  // Strong guarantee: *this is unchanged when the copy does not fit.
  if (this != &o) {
    limbs_ = o.limbs_;
    negative_ = o.negative_;
    radix_ = o.radix_;
  }
  return *this;
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer::operator= (copy)");
}

integer::integer(std::span<const limb_t> magnitude, bool negative, radix rx) try
    : limbs_(magnitude.begin(), magnitude.end()), negative_(negative), radix_(rx) {
  if (rx == radix::decimal) check_decimal_limbs(limbs_);
  normalize();
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer");
}

integer::integer(std::vector<limb_t>&& magnitude, bool negative, radix rx)
    : limbs_(std::move(magnitude)), negative_(negative), radix_(rx) {
  if (rx == radix::decimal) check_decimal_limbs(limbs_);
  normalize();
}

void integer::normalize() {
  while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  if (limbs_.empty()) negative_ = false;
}

integer integer::from_string(std::string_view text) try {
  if (text.empty()) throw parse_error("empty literal at byte offset 0", 0);
  std::size_t pos = 0;
  bool negative = false;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    pos = 1;
    if (pos == text.size()) throw parse_error("no digits after the sign at byte offset 1", 1);
  }
  unsigned base = 10;
  if (text.size() - pos >= 2 && text[pos] == '0' && (text[pos + 1] == 'x' || text[pos + 1] == 'X')) {
    base = 16;
    pos += 2;
    if (pos == text.size())
      throw parse_error("no hex digits after '0x' at byte offset " + std::to_string(pos), pos);
  }
  integer r;
  r.radix_ = base == 10 ? radix::decimal : radix::binary;
  const std::string_view digits_text = text.substr(pos);
  r.limbs_.resize(digits::limbs_for(digits_text.size(), base));
  const std::size_t bad = digits::parse(digits_text, base, r.limbs_.data());
  if (bad != digits::no_error) bad_byte(text, pos + bad, base == 10 ? "a decimal digit" : "a hex digit");
  r.negative_ = negative;
  r.normalize();
  return r;
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer::from_string");
}

std::size_t integer::printed_size(int base, bool prefix) const try {
  const unsigned b = checked_base(base);
  const radix want = b == 10 ? radix::decimal : radix::binary;
  const std::size_t head = (negative_ ? 1 : 0) + (b == 16 && prefix ? 2 : 0);
  if (radix_ == want) return head + digits::printed_size(limbs_.data(), limbs_.size(), b);
  const integer c = to_radix(want);
  return head + digits::printed_size(c.limbs_.data(), c.limbs_.size(), b);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer::printed_size");
}

void integer::print(char* out, int base, bool prefix) const try {
  const unsigned b = checked_base(base);
  const radix want = b == 10 ? radix::decimal : radix::binary;
  if (radix_ != want) return to_radix(want).print(out, base, prefix);
  if (negative_) *out++ = '-';
  if (b == 16 && prefix) {
    *out++ = '0';
    *out++ = 'x';
  }
  digits::print(limbs_.data(), limbs_.size(), b, out);
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer::print");
}

std::string integer::to_string(int base, bool prefix) const try {
  const unsigned b = checked_base(base);
  const radix want = b == 10 ? radix::decimal : radix::binary;
  if (radix_ != want) return to_radix(want).to_string(base, prefix);
  std::string s(printed_size(base, prefix), '\0');
  print(s.data(), base, prefix);
  return s;
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer::to_string");
}

integer integer::to_radix(radix rx) const try {
  if (rx == radix_) return *this;
  integer r;
  r.radix_ = rx;
  r.limbs_ = rx == radix::decimal ? binary_to_decimal(limbs_.data(), limbs_.size())
                                  : decimal_to_binary(limbs_.data(), limbs_.size());
  r.negative_ = negative_;
  r.normalize();
  return r;
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::integer::to_radix");
}

integer integer::operator-() const {
  integer r = *this;  // the copy constructor translates allocation failure
  if (!r.is_zero()) r.negative_ = !r.negative_;
  return r;
}

std::strong_ordering operator<=>(const integer& a, const integer& b) try {
  if (a.radix_ == b.radix_) return compare_same_radix(a, b);
  if (a.sign() != b.sign() || a.is_zero()) return a.sign() <=> b.sign();
  // Same sign, both nonzero: sizes that differ by more than the estimate's
  // slack decide without a conversion.
  const double la = log2_magnitude(a), lb = log2_magnitude(b);
  if (la > lb + 2 || lb > la + 2) {
    const std::strong_ordering m = la < lb ? std::strong_ordering::less : std::strong_ordering::greater;
    return a.is_negative() ? 0 <=> m : m;
  }
  // Close in size: convert the one with fewer limbs.
  return a.size() <= b.size() ? compare_same_radix(a.to_radix(b.radix_), b)
                              : compare_same_radix(a, b.to_radix(a.radix_));
} catch (...) {
  detail::rethrow_allocation_failure("bigmul::operator<=>");
}

bool operator==(const integer& a, const integer& b) {
  if (a.radix_ == b.radix_) return a.negative_ == b.negative_ && a.limbs_ == b.limbs_;
  return (a <=> b) == 0;  // the conversion's failure is <=>'s
}

void mul(integer& r, const integer& a, const integer& b, const mul_options& options) try {
  if (a.is_zero() || b.is_zero()) {
    r.limbs_.clear();
    r.negative_ = false;
    r.radix_ = a.radix_;
    return;
  }
  // Mixed radices: convert the smaller operand (the conversion is the cost).
  if (a.radix_ != b.radix_) {
    if (a.size() >= b.size()) {
      mul(r, a, b.to_radix(a.radix_), options);
    } else {
      mul(r, a.to_radix(b.radix_), b, options);
    }
    return;
  }
  const integer& big = a.size() >= b.size() ? a : b;
  const integer& small = a.size() >= b.size() ? b : a;
  std::vector<limb_t> out(big.size() + small.size());
  bigmul::mul(out.data(), big.limbs_.data(), big.size(), small.limbs_.data(), small.size(), a.radix_, options);
  // Assign only after the product is complete: r may alias a or b.
  const bool negative = a.negative_ != b.negative_;
  r.radix_ = a.radix_;
  r.limbs_ = std::move(out);
  r.negative_ = negative;
  r.normalize();
} catch (...) {
  // The product's vector (or a conversion) did not fit: bigmul's error, like the limb level's.
  detail::rethrow_allocation_failure("bigmul::mul");
}

integer operator*(const integer& a, const integer& b) {
  integer r;
  mul(r, a, b);
  return r;
}

integer& integer::operator*=(const integer& b) {
  mul(*this, *this, b);
  return *this;
}

}  // namespace bigmul
