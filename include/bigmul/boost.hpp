// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief Boost.Multiprecision backend over bigmul::integer (integer category):
/// every operator, string construction and str(), conversions to and from
/// built-in types; multiplication goes through bigmul's dispatcher.
///   bigmul::boost_int x("123456789"), y = x * x;
#pragma once

#include <boost/multiprecision/number.hpp>
#include <boost/version.hpp>
#if BOOST_VERSION < 107600
#include <boost/mpl/list.hpp>
#endif

#include <cmath>
#include <cstddef>
#include <ios>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "bigmul/arith.hpp"
#include "bigmul/integer.hpp"

namespace bigmul {

/// A Boost.Multiprecision integer backend over bigmul::integer (always in
/// binary radix); use it as bigmul::boost_int.
class boost_backend {
 public:
  /// Built-in types Boost converts from, smallest first (Boost's backend requirements).
  ///@{
#if BOOST_VERSION >= 107600
  using signed_types = std::tuple<long, long long>;
  using unsigned_types = std::tuple<unsigned long, unsigned long long>;
  using float_types = std::tuple<double, long double>;
#else
  using signed_types = boost::mpl::list<long, long long>;
  using unsigned_types = boost::mpl::list<unsigned long, unsigned long long>;
  using float_types = boost::mpl::list<double, long double>;
#endif
  ///@}

  /// Zero.
  boost_backend() = default;
  /// Copies allocate (out of memory: bigmul::error kind resource); moves never do.
  ///@{
  boost_backend(const boost_backend&) = default;
  boost_backend(boost_backend&&) noexcept = default;
  boost_backend& operator=(const boost_backend&) = default;
  boost_backend& operator=(boost_backend&&) noexcept = default;
  ///@}
  /// A backend holding v (no constructor from integer: one would make Boost
  /// treat built-in types as only explicitly convertible).
  static boost_backend from_integer(integer v) {
    boost_backend b;
    b.value_ = binary(std::move(v));
    return b;
  }

  /// Assignment from a built-in integer, exact.
  ///@{
  boost_backend& operator=(long long v) {
    value_ = integer(v);
    return *this;
  }
  boost_backend& operator=(unsigned long long v) {
    value_ = integer(v);
    return *this;
  }
  boost_backend& operator=(long v) { return *this = static_cast<long long>(v); }
  boost_backend& operator=(unsigned long v) { return *this = static_cast<unsigned long long>(v); }
  ///@}
  /// Assignment from a floating-point value: truncates toward zero, like mpz_set_d; NaN and infinities throw std::runtime_error.
  ///@{
  boost_backend& operator=(double v) { return *this = static_cast<long double>(v); }
  boost_backend& operator=(long double v) {
    if (!std::isfinite(v)) throw std::runtime_error("bigmul::boost_backend: cannot assign a NaN or an infinity");
    const bool negative = v < 0;
    int exp = 0;
    const long double frac = std::frexp(negative ? -v : v, &exp);  // v = frac * 2^exp, frac in [0.5, 1)
    if (exp <= 0) {
      value_ = integer();
      return *this;
    }
    // 64 bits of the significand, then scale by 2^(exp - 64).
    const auto top = static_cast<unsigned long long>(std::ldexp(frac, 64));
    integer m(top);
    m = exp >= 64 ? m << static_cast<std::size_t>(exp - 64) : m >> static_cast<std::size_t>(64 - exp);
    value_ = negative ? -m : m;
    return *this;
  }
  ///@}
  /// Like Boost's gmp_int: "0x..." hex, a leading "0" octal, else decimal; an
  /// optional sign first. Throws std::runtime_error (bigmul::parse_error) on bad input.
  boost_backend& operator=(const char* s) try {
    value_ = parse(s ? std::string_view(s) : std::string_view());
    return *this;
  } catch (...) {
    detail::rethrow_allocation_failure("bigmul::boost_backend (from a string)");
  }

  /// Exchanges the values.
  void swap(boost_backend& o) noexcept { std::swap(value_, o.value_); }

  /// The value as text: decimal, or hex / octal (non-negative values only,
  /// else std::runtime_error) as the flags ask; showbase, showpos and
  /// uppercase are honoured. The digit count is ignored (integers print whole).
  std::string str(std::streamsize /*digits*/, std::ios_base::fmtflags f) const try {
    const bool hex = (f & std::ios_base::hex) == std::ios_base::hex;
    const bool oct = (f & std::ios_base::oct) == std::ios_base::oct;
    if ((hex || oct) && value_.is_negative())
      throw std::runtime_error("Formatted output in bases 8 or 16 is only available for positive numbers");
    std::string s;
    if (oct) {
      s = octal_digits();
    } else if (hex) {
      s = value_.to_string(16, false);
    } else {
      s = convert_radix(value_, radix::decimal).to_string(10);
    }
    if (f & std::ios_base::uppercase)
      for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if ((hex || oct) && (f & std::ios_base::showbase))
      s.insert(0, oct ? "0" : (f & std::ios_base::uppercase) ? "0X" : "0x");
    if ((f & std::ios_base::showpos) && s[0] != '-') s.insert(0, 1, '+');
    return s;
  } catch (...) {
    detail::rethrow_allocation_failure("bigmul::boost_backend::str");
  }

  /// value = -value.
  void negate() { value_ = -value_; }
  /// Comparison: -1, 0 or 1 as this value is below, equal to or above the other.
  ///@{
  int compare(const boost_backend& o) const {
    const auto c = value_ <=> o.value_;
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  int compare(T v) const {
    boost_backend t;
    t = static_cast<std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>(v);
    return compare(t);
  }
  ///@}

  /// The bigmul::integer inside (binary radix; keep it so when writing through it).
  ///@{
  const integer& value() const noexcept { return value_; }
  integer& value() noexcept { return value_; }
  ///@}

 private:
  static integer binary(integer v) {
    return v.get_radix() == radix::binary ? v : convert_radix(v, radix::binary);
  }

  static integer parse(std::string_view s) {
    std::size_t pos = 0;
    bool negative = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
      negative = s[0] == '-';
      pos = 1;
    }
    std::string_view body = s.substr(pos);
    if (body.empty()) {
      if (pos) throw std::runtime_error("bigmul::boost_backend: no digits after the sign");
      return integer();
    }
    integer m;
    if (body.size() > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
      m = integer::from_string(body);
    } else if (body[0] == '0') {
      m = parse_octal(body.substr(1));
    } else {
      m = binary(integer::from_string(body));
    }
    return negative ? -m : m;
  }

  static integer parse_octal(std::string_view d) {
    std::vector<limb_t> limbs((3 * d.size() + 63) / 64 + 1, 0);
    std::size_t bit = 0;
    for (std::size_t i = d.size(); i-- > 0; bit += 3) {
      if (d[i] < '0' || d[i] > '7')
        throw std::runtime_error("bigmul::boost_backend: invalid octal digit in \"" + std::string(d) + "\"");
      const limb_t v = static_cast<limb_t>(d[i] - '0');
      limbs[bit / 64] |= v << (bit % 64);
      if (bit % 64 > 61) limbs[bit / 64 + 1] |= v >> (64 - bit % 64);
    }
    return integer(std::span<const limb_t>(limbs), false, radix::binary);
  }

  std::string octal_digits() const {
    const auto m = value_.magnitude();
    if (m.empty()) return "0";
    const std::size_t bits = bit_length(value_);
    std::string s((bits + 2) / 3, '0');
    for (std::size_t i = 0, bit = 0; i < s.size(); ++i, bit += 3) {
      limb_t v = m[bit / 64] >> (bit % 64);
      if (bit % 64 > 61 && bit / 64 + 1 < m.size()) v |= m[bit / 64 + 1] << (64 - bit % 64);
      s[s.size() - 1 - i] = static_cast<char>('0' + (v & 7));
    }
    return s;
  }

  integer value_;  ///< always binary radix
};

/// Boost.Multiprecision backend operations.
/// Arithmetic (found by argument-dependent lookup): r = r op a, or r = a op b.
/// Division by zero throws std::overflow_error, bit queries on negative
/// values std::range_error, as Boost's gmp_int does. Running out of memory
/// throws bigmul::error kind resource: the integer operators, integer's copy
/// (the defaulted copies here) and the string functions above translate it.
///@{
inline void eval_add(boost_backend& r, const boost_backend& a) { r.value() = r.value() + a.value(); }
inline void eval_add(boost_backend& r, const boost_backend& a, const boost_backend& b) { r.value() = a.value() + b.value(); }
inline void eval_subtract(boost_backend& r, const boost_backend& a) { r.value() = r.value() - a.value(); }
inline void eval_subtract(boost_backend& r, const boost_backend& a, const boost_backend& b) {
  r.value() = a.value() - b.value();
}
inline void eval_multiply(boost_backend& r, const boost_backend& a) { mul(r.value(), r.value(), a.value()); }
inline void eval_multiply(boost_backend& r, const boost_backend& a, const boost_backend& b) {
  mul(r.value(), a.value(), b.value());
}
inline void check_divisor(const boost_backend& d) {
  if (d.value().is_zero()) throw std::overflow_error("Division by zero.");
}
inline void eval_divide(boost_backend& r, const boost_backend& a) {
  check_divisor(a);
  r.value() = r.value() / a.value();
}
inline void eval_divide(boost_backend& r, const boost_backend& a, const boost_backend& b) {
  check_divisor(b);
  r.value() = a.value() / b.value();
}
inline void eval_modulus(boost_backend& r, const boost_backend& a) {
  check_divisor(a);
  r.value() = r.value() % a.value();
}
inline void eval_modulus(boost_backend& r, const boost_backend& a, const boost_backend& b) {
  check_divisor(b);
  r.value() = a.value() % b.value();
}
inline void eval_qr(const boost_backend& x, const boost_backend& y, boost_backend& q, boost_backend& r) {
  check_divisor(y);
  divmod(q.value(), r.value(), x.value(), y.value());
}

inline void eval_bitwise_and(boost_backend& r, const boost_backend& a) { r.value() = r.value() & a.value(); }
inline void eval_bitwise_or(boost_backend& r, const boost_backend& a) { r.value() = r.value() | a.value(); }
inline void eval_bitwise_xor(boost_backend& r, const boost_backend& a) { r.value() = r.value() ^ a.value(); }
inline void eval_bitwise_and(boost_backend& r, const boost_backend& a, const boost_backend& b) {
  r.value() = a.value() & b.value();
}
inline void eval_bitwise_or(boost_backend& r, const boost_backend& a, const boost_backend& b) {
  r.value() = a.value() | b.value();
}
inline void eval_bitwise_xor(boost_backend& r, const boost_backend& a, const boost_backend& b) {
  r.value() = a.value() ^ b.value();
}
inline void eval_complement(boost_backend& r, const boost_backend& a) { r.value() = ~a.value(); }
// >> rounds toward minus infinity, like mpz_fdiv_q_2exp (Boost's gmp_int).
inline void eval_left_shift(boost_backend& r, std::size_t bits) { r.value() = r.value() << bits; }
inline void eval_right_shift(boost_backend& r, std::size_t bits) { r.value() = r.value() >> bits; }
inline void eval_left_shift(boost_backend& r, const boost_backend& a, std::size_t bits) { r.value() = a.value() << bits; }
inline void eval_right_shift(boost_backend& r, const boost_backend& a, std::size_t bits) { r.value() = a.value() >> bits; }

inline bool eval_is_zero(const boost_backend& a) { return a.value().is_zero(); }
inline int eval_get_sign(const boost_backend& a) { return a.value().sign(); }
inline void eval_abs(boost_backend& r, const boost_backend& a) { r.value() = abs(a.value()); }
inline bool eval_eq(const boost_backend& a, const boost_backend& b) { return a.value() == b.value(); }

inline void check_bit_query(const boost_backend& a) {
  if (a.value().is_negative())
    throw std::range_error("Testing individual bits in negative values is not supported - results are undefined.");
}
inline unsigned eval_msb(const boost_backend& a) {
  if (a.value().is_zero()) throw std::range_error("No bits were set in the operand.");
  check_bit_query(a);
  return static_cast<unsigned>(bit_length(a.value()) - 1);
}
inline unsigned eval_lsb(const boost_backend& a) {
  if (a.value().is_zero()) throw std::range_error("No bits were set in the operand.");
  check_bit_query(a);
  return static_cast<unsigned>(lowest_set_bit(a.value()));
}
inline bool eval_bit_test(const boost_backend& a, unsigned index) { return test_bit(a.value(), index); }

/// Conversions to built-in types (eval_convert_to): signed ones saturate, negative values to
/// unsigned types throw std::range_error (like Boost's gmp_int).
inline void eval_convert_to(unsigned long long* out, const boost_backend& a) {
  if (a.value().is_negative())
    throw std::range_error("Conversion from negative integer to an unsigned type results in undefined behaviour");
  const auto m = a.value().magnitude();
  *out = m.empty() ? 0 : (m.size() > 1 ? std::numeric_limits<unsigned long long>::max() : m[0]);
}
inline void eval_convert_to(long long* out, const boost_backend& a) {
  const auto m = a.value().magnitude();
  constexpr unsigned long long max = std::numeric_limits<long long>::max();
  const bool negative = a.value().is_negative();
  if (m.empty()) {
    *out = 0;
  } else if (m.size() > 1 || m[0] > max + (negative ? 1 : 0)) {
    *out = negative ? std::numeric_limits<long long>::min() : std::numeric_limits<long long>::max();
  } else {
    *out = negative ? static_cast<long long>(0ull - m[0]) : static_cast<long long>(m[0]);
  }
}
inline void eval_convert_to(unsigned long* out, const boost_backend& a) {
  unsigned long long v;
  eval_convert_to(&v, a);
  *out = static_cast<unsigned long>(v);
}
inline void eval_convert_to(long* out, const boost_backend& a) {
  long long v;
  eval_convert_to(&v, a);
  *out = static_cast<long>(v);
}
inline void eval_convert_to(long double* out, const boost_backend& a) {
  const auto m = a.value().magnitude();
  long double v = 0;
  // The top two limbs carry more bits than a long double keeps.
  const std::size_t n = m.size();
  if (n == 1) v = static_cast<long double>(m[0]);
  if (n >= 2) {
    v = std::ldexp(static_cast<long double>(m[n - 1]), 64) + static_cast<long double>(m[n - 2]);
    v = std::ldexp(v, static_cast<int>(std::min<std::size_t>(64 * (n - 2), 1 << 20)));
  }
  *out = a.value().is_negative() ? -v : v;
}
inline void eval_convert_to(double* out, const boost_backend& a) {
  long double v;
  eval_convert_to(&v, a);
  *out = static_cast<double>(v);
}
inline void eval_convert_to(float* out, const boost_backend& a) {
  long double v;
  eval_convert_to(&v, a);
  *out = static_cast<float>(v);
}

///@}

/// Hash of the value (std::hash and Boost's hashing use it).
inline std::size_t hash_value(const boost_backend& a) {
  std::size_t h = std::hash<bool>()(a.value().is_negative());
  for (limb_t v : a.value().magnitude()) h = h * 1099511628211ull ^ std::hash<limb_t>()(v);
  return h;
}

}  // namespace bigmul

namespace boost::multiprecision {
template <>
struct number_category<bigmul::boost_backend> : public std::integral_constant<int, number_kind_integer> {};
}  // namespace boost::multiprecision

namespace bigmul {
/// The Boost.Multiprecision integer backed by bigmul (expression templates off).
using boost_int = boost::multiprecision::number<boost_backend, boost::multiprecision::et_off>;
}  // namespace bigmul
