// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul.Integer: a Python number holding a bigmul::integer, so that a chain
// of operations stays in bigmul's representation (binary or decimal radix)
// and pays for one conversion at each end instead of one per operation.
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <compare>
#include <optional>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "bigmul/arith.hpp"
#include "bigmul/integer.hpp"
#include "python/common.hpp"
#include "python/pylong.hpp"

namespace bigmul::python {
namespace {

// An operand of a binary operation: an Integer (borrowed) or an int (converted, binary radix).
struct operand {
  const integer* borrowed = nullptr;
  integer owned;
  const integer& get() const { return borrowed ? *borrowed : owned; }
};

// False when `o` is neither (the operation then returns NotImplemented).
bool load(py::handle o, operand& out) {
  if (py::isinstance<integer>(o)) {
    out.borrowed = &o.cast<const integer&>();
    return true;
  }
  if (!is_int_like(o)) return false;
  out.owned = to_integer(read_int(o, "bigmul.Integer operand"));
  return true;
}

py::object not_implemented() { return py::reinterpret_borrow<py::object>(Py_NotImplemented); }

// Mixed radices: integer converts the smaller operand to the larger one's
// radix (subquadratic), in products and comparisons alike.
integer product(const integer& a, const integer& b) { return a * b; }

void check_divisor(const integer& d) {
  if (d.is_zero()) {
    PyErr_SetString(PyExc_ZeroDivisionError, "integer division or modulo by zero");
    throw py::error_already_set();
  }
}

// Python's floor division: the quotient rounds toward minus infinity, the
// remainder takes the divisor's sign (bigmul's divmod truncates).
std::pair<integer, integer> floor_divmod(const integer& a, const integer& b) {
  auto qr = divmod(a, b);
  if (!qr.second.is_zero() && qr.second.is_negative() != b.is_negative()) {
    --qr.first;
    qr.second += b;
  }
  return qr;
}

// a op b with the GIL released for large operands; `reflected`: b op a.
template <class F>
py::object binary(const integer& a, py::handle other, bool reflected, F f) {
  operand b;
  if (!load(other, b)) return not_implemented();
  const integer& x = reflected ? b.get() : a;
  const integer& y = reflected ? a : b.get();
  integer r;
  {
    maybe_release_gil nogil(x.size() + y.size());
    r = f(x, y);
  }
  return py::cast(std::move(r));
}

template <class F>
py::object division(const integer& a, py::handle other, bool reflected, F f) {
  operand b;
  if (!load(other, b)) return not_implemented();
  const integer& x = reflected ? b.get() : a;
  const integer& y = reflected ? a : b.get();
  check_divisor(y);
  std::pair<integer, integer> qr;
  {
    maybe_release_gil nogil(x.size() + y.size());
    qr = floor_divmod(x, y);
  }
  return f(std::move(qr));
}

// Whether int's own << by m would say "too many digits" (OverflowError): a
// result of more than PY_SSIZE_T_MAX / sizeof(digit) digits of PyLong_SHIFT bits.
bool int_shift_overflows(const magnitude& m) {
#if defined(PyLong_SHIFT)
  constexpr unsigned bits = PyLong_SHIFT;
  constexpr std::uint64_t most_digits = static_cast<std::uint64_t>(PY_SSIZE_T_MAX) / sizeof(digit);
#else
  constexpr unsigned bits = 30;
  constexpr std::uint64_t most_digits = static_cast<std::uint64_t>(PY_SSIZE_T_MAX) / 4;
#endif
  if (m.limbs.size() > 2) return true;
  unsigned __int128 k = m.limbs.empty() ? 0 : m.limbs[0];
  if (m.limbs.size() == 2) k |= static_cast<unsigned __int128>(m.limbs[1]) << 64;
  return k / bits > most_digits;
}

// x compared with a float exactly, as int compares with float: NaN is
// unordered, infinities beyond every integer, a finite f through floor(f)
// (exact as an int) and whether f had a fraction. Returns nullopt for NaN.
std::optional<std::strong_ordering> compare_with_float(const integer& x, double f) {
  if (std::isnan(f)) return std::nullopt;
  if (std::isinf(f)) return f > 0 ? std::strong_ordering::less : std::strong_ordering::greater;
  const double fl = std::floor(f);
  const py::object as_int = py::reinterpret_steal<py::object>(PyLong_FromDouble(fl));
  if (!as_int) throw py::error_already_set();
  const integer i = to_integer(read_int(as_int, "float"));
  const std::strong_ordering c = x <=> i;
  if (fl == f) return c;
  // floor(f) < f < floor(f) + 1: x <= floor(f) is below f, else above.
  return c <= 0 ? std::strong_ordering::less : std::strong_ordering::greater;
}

template <class F>
py::object compare(const integer& a, py::handle other, F f, bool unordered_result) {
  if (PyFloat_Check(other.ptr())) {
    const auto c = compare_with_float(a, PyFloat_AS_DOUBLE(other.ptr()));
    return py::bool_(c ? f(*c) : unordered_result);
  }
  operand b;
  if (!load(other, b)) return not_implemented();
  std::strong_ordering c = std::strong_ordering::equal;
  {
    maybe_release_gil nogil(a.get_radix() == b.get().get_radix() ? 0 : a.size() + b.get().size());
    c = a <=> b.get();
  }
  return py::bool_(f(c));
}

// a^k for k >= 0, left-to-right binary powering (r * r is bigmul's squaring path).
integer power(const integer& a, const magnitude& k) {
  if (k.negative) throw py::value_error("bigmul.Integer: negative exponent");
  integer r = 1;
  maybe_release_gil nogil(a.size());
  for (std::size_t i = k.limbs.size() * 64; i-- > 0;) {
    bigmul::mul(r, r, r);
    if ((k.limbs[i / 64] >> (i % 64)) & 1) r = product(r, a);
  }
  return r;
}

// pow(a, e, m) for an odd m > 0 and e >= 0 by Montgomery arithmetic, the
// result in [0, m) and in a's radix (like a's other results).
py::object modular_power(const integer& a, py::handle e, py::handle m) {
  operand k, mod;
  if (!load(e, k) || !load(m, mod)) return not_implemented();
  check_powmod_arguments(k.get(), mod.get(), "pow(bigmul.Integer, exp, mod)", -1);
  integer r;
  {
    py::gil_scoped_release nogil;
    r = powmod_integer(a, k.get(), mod.get(), false);
    if (r.get_radix() != a.get_radix()) r = r.to_radix(a.get_radix());
  }
  return py::cast(std::move(r));
}

// A shift count as int takes it: ValueError when negative; a count past
// PY_SSIZE_T_MAX gives nullopt (the caller answers as int would: >> gives 0 or -1,
// << of a non-zero value overflows).
std::optional<std::size_t> shift_count(py::handle n) {
  const magnitude m = read_int(n, "bigmul.Integer shift count");
  if (m.negative) throw py::value_error("negative shift count");
  // Past PY_SSIZE_T_MAX, as int's own limit for an OverflowError.
  if (m.limbs.size() > 1 || (m.limbs.size() == 1 && m.limbs[0] > static_cast<std::uint64_t>(PY_SSIZE_T_MAX)))
    return std::nullopt;
  return m.limbs.empty() ? 0 : static_cast<std::size_t>(m.limbs[0]);
}


// hash(int(x)) without converting: Python hashes an int by its value modulo
// P = 2^61 - 1 (the sign applied after, -1 becoming -2). Horner over the
// limbs, with the radix 2^64 or 10^19 reduced modulo P.
Py_hash_t hash_of(const integer& x) {
  constexpr std::uint64_t P = (std::uint64_t{1} << 61) - 1;
  static_assert(sizeof(Py_hash_t) == 8, "CPython's 64-bit hash modulus assumed");
  const auto reduce = [](unsigned __int128 v) {  // v < 2^125
    unsigned __int128 s = (v & P) + (v >> 61);
    std::uint64_t r = static_cast<std::uint64_t>((s & P) + (s >> 61));
    return r >= P ? r - P : r;
  };
  const std::uint64_t base = x.get_radix() == radix::binary ? reduce(static_cast<unsigned __int128>(1) << 64)
                                                            : decimal_limb_base % P;
  const auto mag = x.magnitude();
  std::uint64_t h = 0;
  for (std::size_t i = mag.size(); i-- > 0;) h = reduce(static_cast<unsigned __int128>(h) * base + mag[i]);
  Py_hash_t r = static_cast<Py_hash_t>(h);
  if (x.is_negative()) r = -r;
  return r == -1 ? -2 : r;
}

py::object to_int(const integer& x) {
  if (x.get_radix() == radix::binary) {
    const auto mag = x.magnitude();
    return make_int(mag.data(), mag.size(), x.is_negative());
  }
  integer b;
  {
    maybe_release_gil nogil(x.size());
    b = x.to_radix(radix::binary);
  }
  const auto mag = b.magnitude();
  return make_int(mag.data(), mag.size(), b.is_negative());
}

// The literal in the number's own radix (decimal or 0x hex): linear time, and
// Integer(literal) gives back the same radix.
py::str natural_literal(const integer& x) { return print_str(x, x.get_radix() == radix::decimal ? 10 : 16, true); }

py::str decimal_string(const integer& x) {
  if (x.get_radix() == radix::decimal) return print_str(x, 10, true);
  integer d;
  {
    maybe_release_gil nogil(x.size());
    d = x.to_radix(radix::decimal);
  }
  return print_str(d, 10, true);
}

radix parse_radix(const std::string& name) {
  if (name == "binary") return radix::binary;
  if (name == "decimal") return radix::decimal;
  throw py::value_error("radix must be 'binary' or 'decimal', not '" + name + "'");
}

integer construct(py::handle value, const py::object& rx) {
  integer x;
  if (py::isinstance<integer>(value)) {
    x = value.cast<const integer&>();
  } else if (is_int_like(value)) {
    x = to_integer(read_int(value, "bigmul.Integer() argument"));
  } else if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr())) {
    const std::string text = value.cast<std::string>();
    maybe_release_gil nogil(text.size() / 19);
    x = integer::from_string(text);
  } else {
    throw py::type_error(std::string("bigmul.Integer() argument must be int, str, bytes or Integer, not ") +
                         Py_TYPE(value.ptr())->tp_name);
  }
  if (!rx.is_none()) {
    const radix want = parse_radix(rx.cast<std::string>());
    maybe_release_gil nogil(x.size());
    if (x.get_radix() != want) x = x.to_radix(want);
  }
  return x;
}

}  // namespace

void bind_integer(py::module_& m) {
  py::class_<integer> c(m, "Integer",
                        "An immutable integer held in bigmul's representation.\n\n"
                        "Integer(value=0, *, radix=None): value is an int, a str/bytes literal (decimal, or\n"
                        "0x hex, optional sign) or an Integer. radix: 'binary' (base 2^64 limbs) or 'decimal'\n"
                        "(base 10^19 limbs: printing is linear); None keeps the value's own (decimal literals\n"
                        "are decimal, ints and hex literals binary). Supports * + - // % divmod ** << >> & | ^ ~,\n"
                        "pow(x, e, m) for an odd m > 0 (Montgomery arithmetic, in x's radix), comparisons, int(), str() and hash() (equal to the int's), with Integers and ints.\n"
                        "Mixed radices: the smaller operand is converted to the larger one's radix.");
  c.def(py::init(&construct), py::arg("value") = 0, py::kw_only(), py::arg("radix") = py::none());

  c.def_property_readonly(
      "radix", [](const integer& x) { return x.get_radix() == radix::binary ? "binary" : "decimal"; },
      "'binary' or 'decimal': how the limbs are weighted.");
  c.def(
      "to_radix",
      [](const integer& x, const std::string& name) {
        const radix want = parse_radix(name);
        maybe_release_gil nogil(x.size());
        return x.to_radix(want);
      },
      "to_radix(radix) -> Integer: the same value in 'binary' or 'decimal' radix (subquadratic).",
      py::arg("radix"));
  c.def(
      "bit_length",
      [](const integer& x) {
        if (x.get_radix() == radix::binary) return bit_length(x);
        maybe_release_gil nogil(x.size());
        return bit_length(x.to_radix(radix::binary));
      },
      "bit_length() -> int: as int.bit_length().");

  c.def("__int__", &to_int);
  c.def("__index__", &to_int);
  c.def("__str__", &decimal_string);
  c.def("__repr__", [](const integer& x) { return py::str("bigmul.Integer({})").format(decimal_string(x)); });
  c.def("__hash__", &hash_of);
  c.def("__bool__", [](const integer& x) { return !x.is_zero(); });
  c.def("__reduce__", [](py::handle self) {
    return py::make_tuple(py::type::of(self), py::make_tuple(natural_literal(self.cast<const integer&>())));
  });

  c.def("__neg__", [](const integer& x) { return -x; });
  c.def("__pos__", [](const integer& x) { return x; });
  c.def("__abs__", [](const integer& x) { return abs(x); });
  c.def("__invert__", [](const integer& x) { return ~x; });

  const auto times = [](const integer& a, const integer& b) { return product(a, b); };
  const auto add = [](const integer& a, const integer& b) { return a + b; };
  const auto sub = [](const integer& a, const integer& b) { return a - b; };
  const auto band = [](const integer& a, const integer& b) { return a & b; };
  const auto bor = [](const integer& a, const integer& b) { return a | b; };
  const auto bxor = [](const integer& a, const integer& b) { return a ^ b; };
  c.def("__mul__", [times](const integer& a, py::handle b) { return binary(a, b, false, times); });
  c.def("__rmul__", [times](const integer& a, py::handle b) { return binary(a, b, true, times); });
  c.def("__add__", [add](const integer& a, py::handle b) { return binary(a, b, false, add); });
  c.def("__radd__", [add](const integer& a, py::handle b) { return binary(a, b, true, add); });
  c.def("__sub__", [sub](const integer& a, py::handle b) { return binary(a, b, false, sub); });
  c.def("__rsub__", [sub](const integer& a, py::handle b) { return binary(a, b, true, sub); });
  c.def("__and__", [band](const integer& a, py::handle b) { return binary(a, b, false, band); });
  c.def("__rand__", [band](const integer& a, py::handle b) { return binary(a, b, true, band); });
  c.def("__or__", [bor](const integer& a, py::handle b) { return binary(a, b, false, bor); });
  c.def("__ror__", [bor](const integer& a, py::handle b) { return binary(a, b, true, bor); });
  c.def("__xor__", [bxor](const integer& a, py::handle b) { return binary(a, b, false, bxor); });
  c.def("__rxor__", [bxor](const integer& a, py::handle b) { return binary(a, b, true, bxor); });

  const auto quotient = [](std::pair<integer, integer>&& qr) { return py::cast(std::move(qr.first)); };
  const auto remainder = [](std::pair<integer, integer>&& qr) { return py::cast(std::move(qr.second)); };
  const auto both = [](std::pair<integer, integer>&& qr) {
    return py::object(py::make_tuple(std::move(qr.first), std::move(qr.second)));
  };
  c.def("__floordiv__", [quotient](const integer& a, py::handle b) { return division(a, b, false, quotient); });
  c.def("__rfloordiv__", [quotient](const integer& a, py::handle b) { return division(a, b, true, quotient); });
  c.def("__mod__", [remainder](const integer& a, py::handle b) { return division(a, b, false, remainder); });
  c.def("__rmod__", [remainder](const integer& a, py::handle b) { return division(a, b, true, remainder); });
  c.def("__divmod__", [both](const integer& a, py::handle b) { return division(a, b, false, both); });
  c.def("__rdivmod__", [both](const integer& a, py::handle b) { return division(a, b, true, both); });

  c.def("__lshift__", [](const integer& a, py::handle n) -> py::object {
    if (!is_int_like(n) || py::isinstance<integer>(n)) return not_implemented();
    const std::optional<std::size_t> k = shift_count(n);
    if (!k) {
      if (a.is_zero()) return py::cast(a);
      // int raises OverflowError past its largest digit count and
      // MemoryError below it (a result it could describe but not hold).
      if (int_shift_overflows(read_int(n, "bigmul.Integer shift count"))) throw std::overflow_error("too many digits in integer");
      throw std::bad_alloc();
    }
    maybe_release_gil nogil(a.size());
    integer r = a << *k;
    return py::cast(std::move(r));
  });
  c.def("__rshift__", [](const integer& a, py::handle n) -> py::object {
    if (!is_int_like(n) || py::isinstance<integer>(n)) return not_implemented();
    const std::optional<std::size_t> k = shift_count(n);
    if (!k) return py::cast(integer(a.is_negative() ? -1 : 0).to_radix(a.get_radix()));  // every bit shifted out: floor
    maybe_release_gil nogil(a.size());
    integer r = a >> *k;
    return py::cast(std::move(r));
  });
  c.def(
      "__pow__",
      [](const integer& a, py::handle e, py::handle mod) -> py::object {
        if (!mod.is_none()) return modular_power(a, e, mod);
        if (!is_int_like(e)) return not_implemented();
        return py::cast(power(a, read_int(e, "bigmul.Integer exponent")));
      },
      py::arg("exponent"), py::arg("modulus") = py::none());
  c.def("__rpow__", [](const integer& e, py::handle base) -> py::object {
    operand b;
    if (!load(base, b)) return not_implemented();
    const integer k = e.to_radix(radix::binary);
    const auto limbs = k.magnitude();
    return py::cast(power(b.get(), magnitude{{limbs.begin(), limbs.end()}, k.is_negative()}));
  });

  c.def("__eq__", [](const integer& a, py::handle b) { return compare(a, b, [](auto o) { return o == 0; }, false); });
  c.def("__ne__", [](const integer& a, py::handle b) { return compare(a, b, [](auto o) { return o != 0; }, true); });
  c.def("__lt__", [](const integer& a, py::handle b) { return compare(a, b, [](auto o) { return o < 0; }, false); });
  c.def("__le__", [](const integer& a, py::handle b) { return compare(a, b, [](auto o) { return o <= 0; }, false); });
  c.def("__gt__", [](const integer& a, py::handle b) { return compare(a, b, [](auto o) { return o > 0; }, false); });
  c.def("__ge__", [](const integer& a, py::handle b) { return compare(a, b, [](auto o) { return o >= 0; }, false); });
}

}  // namespace bigmul::python
