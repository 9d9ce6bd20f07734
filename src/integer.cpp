// bigmul::integer: parsing and printing in the number's own radix (linear
// time), radix conversion (quadratic basecase; the subquadratic one lives in
// src/arith), and multiplication through bigmul::mul.
#include "bigmul/integer.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "mul/limb_ops.hpp"
#include "mul/limb_vec.hpp"
#include "prim/parallel.hpp"

namespace bigmul {
namespace {

constexpr std::size_t parse_grain = 1 << 14;  // limbs per parallel chunk

int hex_value(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

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

// Digits [begin, end) of `text`, most significant first, into limbs of
// `per_limb` digits in base `base`, least significant limb first.
// Throws at the first invalid byte.
void parse_digits(std::string_view text, std::size_t begin, std::size_t end, unsigned base,
                  std::vector<limb_t>& out) {
  const std::size_t ndigits = end - begin;
  const unsigned per_limb = base == 10 ? 19 : 16;
  const std::size_t nlimbs = (ndigits + per_limb - 1) / per_limb;
  out.assign(nlimbs, 0);
  const std::size_t chunks = prim::chunk_count(nlimbs, parse_grain, 0);
  std::vector<std::size_t> first_bad(std::max<std::size_t>(chunks, 1), std::string_view::npos);
  const auto work = [&](std::size_t chunk, std::size_t l0, std::size_t l1) {
    for (std::size_t l = l0; l < l1; ++l) {
      // Limb l covers digits [end - per_limb (l+1), end - per_limb l).
      const std::size_t hi = end - per_limb * l;
      const std::size_t lo = hi - std::min<std::size_t>(per_limb, hi - begin);
      limb_t v = 0;
      for (std::size_t i = lo; i < hi; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const int d = base == 10 ? (c >= '0' && c <= '9' ? c - '0' : -1) : hex_value(c);
        if (d < 0) {
          // Remember the lowest bad offset in this chunk (limbs run high to low offsets).
          first_bad[chunk] = std::min(first_bad[chunk], i);
          break;
        }
        v = base == 10 ? v * 10 + static_cast<limb_t>(d) : (v << 4) | static_cast<limb_t>(d);
      }
      out[l] = v;
    }
  };
  if (chunks <= 1) {
    work(0, 0, nlimbs);
  } else {
    prim::parallel_for(chunks, 0, [&](std::size_t c) { work(c, nlimbs * c / chunks, nlimbs * (c + 1) / chunks); });
  }
  const std::size_t bad = *std::min_element(first_bad.begin(), first_bad.end());
  if (bad != std::string_view::npos) bad_byte(text, bad, base == 10 ? "a decimal digit" : "a hex digit");
}

// Decimal digits of a decimal-radix magnitude (no sign). Linear time.
std::string decimal_digits(const std::vector<limb_t>& limbs) {
  if (limbs.empty()) return "0";
  const std::string top = std::to_string(limbs.back());
  const std::size_t n = limbs.size();
  std::string s(top.size() + 19 * (n - 1), '0');
  std::memcpy(s.data(), top.data(), top.size());
  prim::parallel_chunks(n - 1, parse_grain, 0, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      // limbs[n-2-i] goes to s[top + 19 i .. +19)
      limb_t v = limbs[n - 2 - i];
      char* p = s.data() + top.size() + 19 * i + 19;
      for (int k = 0; k < 19; ++k) {
        *--p = static_cast<char>('0' + v % 10);
        v /= 10;
      }
    }
  });
  return s;
}

std::string hex_digits(const std::vector<limb_t>& limbs) {
  if (limbs.empty()) return "0";
  static const char* hex = "0123456789abcdef";
  std::string top;
  for (limb_t v = limbs.back(); v; v >>= 4) top.insert(top.begin(), hex[v & 15]);
  const std::size_t n = limbs.size();
  std::string s(top.size() + 16 * (n - 1), '0');
  std::memcpy(s.data(), top.data(), top.size());
  prim::parallel_chunks(n - 1, parse_grain, 0, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      limb_t v = limbs[n - 2 - i];
      char* p = s.data() + top.size() + 16 * i + 16;
      for (int k = 0; k < 16; ++k, v >>= 4) *--p = hex[v & 15];
    }
  });
  return s;
}

// Quadratic radix conversions (schoolbook): binary -> decimal by repeated
// division by 10^19, decimal -> binary by Horner's rule.
std::vector<limb_t> binary_to_decimal(std::vector<limb_t> x) {
  std::vector<limb_t> out;
  out.reserve(x.size() + x.size() / 5 + 1);
  std::size_t n = x.size();
  while (n) {
    limb_t rem = 0;
    for (std::size_t i = n; i-- > 0;) {
      const auto qr = detail::div_1e19((static_cast<detail::u128>(rem) << 64) | x[i]);
      x[i] = qr.q;
      rem = qr.r;
    }
    out.push_back(rem);
    while (n && x[n - 1] == 0) --n;
  }
  return out;
}

std::vector<limb_t> decimal_to_binary(const std::vector<limb_t>& x) {
  std::vector<limb_t> out;
  out.reserve(x.size());
  for (std::size_t i = x.size(); i-- > 0;) {
    limb_t c = detail::mul_1(out.data(), out.data(), out.size(), decimal_limb_base, radix::binary);
    if (c) out.push_back(c);
    // add_1 returns what is left of the addend: the carry, or all of x[i] when out is empty.
    if (const limb_t left = detail::add_1(out.data(), out.size(), x[i], radix::binary)) out.push_back(left);
  }
  return out;
}

}  // namespace

integer::integer(long long v) : negative_(v < 0), radix_(radix::binary) {
  const unsigned long long m = v < 0 ? 0ull - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  if (m) limbs_.push_back(m);
}

integer::integer(unsigned long long v) {
  if (v) limbs_.push_back(v);
}

integer::integer(std::span<const limb_t> magnitude, bool negative, radix rx)
    : limbs_(magnitude.begin(), magnitude.end()), negative_(negative), radix_(rx) {
  if (rx == radix::decimal)
    for (std::size_t i = 0; i < limbs_.size(); ++i)
      if (limbs_[i] >= decimal_limb_base)
        throw error(error::kind::invalid_argument,
                    "bigmul::integer: limb " + std::to_string(i) + " is not a decimal limb (>= 10^19)");
  normalize();
}

void integer::normalize() {
  while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  if (limbs_.empty()) negative_ = false;
}

integer integer::from_string(std::string_view text) {
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
  parse_digits(text, pos, text.size(), base, r.limbs_);
  r.negative_ = negative;
  r.normalize();
  return r;
}

std::string integer::to_string(int base, bool prefix) const {
  if (base != 10 && base != 16)
    throw error(error::kind::invalid_argument, "bigmul::integer::to_string: base must be 10 or 16, not " +
                                                   std::to_string(base));
  const radix want = base == 10 ? radix::decimal : radix::binary;
  const std::vector<limb_t>& mag = radix_ == want ? limbs_ : to_radix(want).limbs_;
  std::string digits = base == 10 ? decimal_digits(mag) : hex_digits(mag);
  std::string head = negative_ ? "-" : "";
  if (base == 16 && prefix) head += "0x";
  return head.empty() ? digits : head + digits;
}

integer integer::to_radix(radix rx) const {
  if (rx == radix_) return *this;
  integer r;
  r.radix_ = rx;
  r.limbs_ = rx == radix::decimal ? binary_to_decimal(limbs_) : decimal_to_binary(limbs_);
  r.negative_ = negative_;
  r.normalize();
  return r;
}

integer integer::operator-() const {
  integer r = *this;
  if (!r.is_zero()) r.negative_ = !r.negative_;
  return r;
}

std::strong_ordering operator<=>(const integer& a, const integer& b) {
  if (a.radix_ != b.radix_) return a <=> b.to_radix(a.radix_);
  if (a.sign() != b.sign()) return a.sign() <=> b.sign();
  std::strong_ordering mag = a.limbs_.size() <=> b.limbs_.size();
  if (mag == 0) {
    for (std::size_t i = a.limbs_.size(); i-- > 0;)
      if (a.limbs_[i] != b.limbs_[i]) {
        mag = a.limbs_[i] <=> b.limbs_[i];
        break;
      }
  }
  return a.negative_ ? 0 <=> mag : mag;
}

bool operator==(const integer& a, const integer& b) { return (a <=> b) == 0; }

void mul(integer& r, const integer& a, const integer& b, const mul_options& options) {
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
