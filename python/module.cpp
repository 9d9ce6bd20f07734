// SPDX-License-Identifier: LGPL-3.0-or-later
// The Python module `bigmul`: products of Python ints and decimal / hex
// conversions through bigmul, the GIL released while bigmul works.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/error.hpp"
#include "bigmul/integer.hpp"
#include "bigmul/mul.hpp"
#include "bigmul/version.hpp"
#include "python/common.hpp"
#include "python/pylong.hpp"

namespace bigmul::python {

void bind_fixed_factor(py::module_& m);  // bigmul.FixedFactor (python/fixed_factor.cpp)

mul_options make_options(const py::object& algorithm, const py::object& threads, const std::string& backend,
                         bool check, const char* fn) {
  mul_options o;
  if (!algorithm.is_none()) {
    if (!PyUnicode_Check(algorithm.ptr()))
      throw py::type_error(std::string(fn) + ": algorithm must be a str or None");
    const std::string name = algorithm.cast<std::string>();
    if (name != "auto" && !parse_algorithm(name, o.algo)) {
      std::string known = "auto";
      for (unsigned a = 1; a <= static_cast<unsigned>(bigmul::algorithm::toom3); ++a)
        known += std::string(", ") + algorithm_name(static_cast<bigmul::algorithm>(a));
      throw py::value_error(std::string(fn) + ": unknown algorithm '" + name + "' (known: " + known + ")");
    }
  }
  if (!threads.is_none()) {
    if (!PyLong_Check(threads.ptr()) || PyBool_Check(threads.ptr()))
      throw py::type_error(std::string(fn) + ": threads must be an int or None");
    // Any int: one past long long (10**30) is out of range like any other,
    // a ValueError, not pybind11's cast error.
    int overflow = 0;
    const long long t = PyLong_AsLongLongAndOverflow(threads.ptr(), &overflow);
    if (t == -1 && !overflow && PyErr_Occurred()) throw py::error_already_set();
    if (overflow != 0 || t < 0 || t > 1 << 16)
      throw py::value_error(std::string(fn) + ": threads must be in [0, 65536]");
    o.threads = static_cast<unsigned>(t);
  }
  if (backend == "auto") {
    o.where = bigmul::backend::automatic;
  } else if (backend == "cpu") {
    o.where = bigmul::backend::cpu;
  } else if (backend == "cuda") {
    // Said here rather than by the library's resource error, which would read as MemoryError.
    std::string why;
    if (!cuda_usable(&why)) throw std::runtime_error(std::string(fn) + ": backend 'cuda' is not usable: " + why);
    o.where = bigmul::backend::cuda;
  } else {
    throw py::value_error(std::string(fn) + ": backend must be 'auto', 'cpu' or 'cuda', not '" + backend + "'");
  }
  o.modular_check = check;
  return o;
}

void register_errors(py::module_& m) {
  (void)m;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const bigmul::error& e) {
      switch (e.code()) {
        case error::kind::parse:
        case error::kind::invalid_argument:
        case error::kind::domain:
          PyErr_SetString(PyExc_ValueError, e.what());
          break;
        case error::kind::resource:
          PyErr_SetString(PyExc_MemoryError, e.what());
          break;
        case error::kind::internal:
          PyErr_SetString(PyExc_RuntimeError, e.what());
          break;
      }
    }
  });
}

namespace {

// r = a * b for magnitudes (either may be empty: zero); the GIL is released
// while bigmul multiplies. `square`: a and b are the same object.
py::object product(const magnitude& a, const magnitude& b, const mul_options& opt) {
  if (a.limbs.empty() || b.limbs.empty()) return py::int_(0);
  const magnitude& big = a.limbs.size() >= b.limbs.size() ? a : b;
  const magnitude& small = &big == &a ? b : a;
  std::vector<limb_t> r;
  {
    maybe_release_gil nogil(big.limbs.size() + small.limbs.size());
    r.resize(big.limbs.size() + small.limbs.size());
    bigmul::mul(r.data(), big.limbs.data(), big.limbs.size(), small.limbs.data(), small.limbs.size(),
                radix::binary, opt);
  }
  return make_int(r.data(), r.size(), a.negative != b.negative);
}

py::object mul_py(py::handle a, py::handle b, const py::object& algorithm, const py::object& threads,
                  const std::string& backend, bool check) {
  const mul_options opt = make_options(algorithm, threads, backend, check, "bigmul.mul()");
  const magnitude x = read_int(a, "bigmul.mul() argument 'a'");
  if (a.is(b)) return product(x, x, opt);  // one object: the squaring path (one forward transform)
  const magnitude y = read_int(b, "bigmul.mul() argument 'b'");
  return product(x, y, opt);
}

py::object sqr_py(py::handle a, const py::object& algorithm, const py::object& threads, const std::string& backend,
                  bool check) {
  const mul_options opt = make_options(algorithm, threads, backend, check, "bigmul.sqr()");
  const magnitude x = read_int(a, "bigmul.sqr() argument 'a'");
  return product(x, x, opt);
}

py::list mul_batched_py(py::handle list_a, py::handle list_b, const py::object& threads, const std::string& backend) {
  const char* fn = "bigmul.mul_batched()";
  const mul_options opt = make_options(py::none(), threads, backend, false, fn);
  py::object fa = py::reinterpret_steal<py::object>(PySequence_Fast(list_a.ptr(), "bigmul.mul_batched() argument "
                                                                                  "'list_a' must be a sequence of ints"));
  if (!fa) throw py::error_already_set();
  py::object fb = py::reinterpret_steal<py::object>(PySequence_Fast(list_b.ptr(), "bigmul.mul_batched() argument "
                                                                                  "'list_b' must be a sequence of ints"));
  if (!fb) throw py::error_already_set();
  const std::size_t G = static_cast<std::size_t>(PySequence_Fast_GET_SIZE(fa.ptr()));
  if (static_cast<std::size_t>(PySequence_Fast_GET_SIZE(fb.ptr())) != G)
    throw py::value_error(std::string(fn) + ": list_a and list_b must have the same length");
  std::vector<magnitude> a(G), b(G);
  std::size_t n = 1;
  for (std::size_t g = 0; g < G; ++g) {
    a[g] = read_int(PySequence_Fast_GET_ITEM(fa.ptr(), g), "bigmul.mul_batched() list_a's items");
    b[g] = read_int(PySequence_Fast_GET_ITEM(fb.ptr(), g), "bigmul.mul_batched() list_b's items");
    n = std::max({n, a[g].limbs.size(), b[g].limbs.size()});
  }
  py::list out(G);
  if (G == 0) return out;
  // Equal sizes back to back, as mul_batched wants: each operand zero-padded to n limbs.
  std::vector<limb_t> A(G * n, 0), B(G * n, 0), R;
  for (std::size_t g = 0; g < G; ++g) {
    std::copy(a[g].limbs.begin(), a[g].limbs.end(), A.begin() + g * n);
    std::copy(b[g].limbs.begin(), b[g].limbs.end(), B.begin() + g * n);
  }
  {
    maybe_release_gil nogil(G * n);
    R.resize(2 * G * n);
    bigmul::mul_batched(R.data(), A.data(), B.data(), n, G, radix::binary, opt);
  }
  for (std::size_t g = 0; g < G; ++g)
    out[g] = make_int(R.data() + 2 * g * n, 2 * n, a[g].negative != b[g].negative);
  return out;
}

}  // namespace

py::str print_str(const integer& x, int base, bool prefix) {
  // The digits go straight into the new str's buffer (ASCII: one byte a
  // character); the str is not shared yet, so bigmul fills it without the GIL.
  PyObject* o = PyUnicode_New(static_cast<Py_ssize_t>(x.printed_size(base, prefix)), 127);
  if (o == nullptr) throw py::error_already_set();
  py::str s = py::reinterpret_steal<py::str>(o);
  {
    maybe_release_gil nogil(x.size());
    x.print(reinterpret_cast<char*>(PyUnicode_1BYTE_DATA(o)), base, prefix);
  }
  return s;
}

namespace {

// The text of a str (its UTF-8 form, cached by CPython) or bytes object.
// Both are immutable, so the view stays valid while the GIL is released.
std::string_view text_of(py::handle s, const char* fn) {
  if (PyUnicode_Check(s.ptr())) {
    Py_ssize_t n = 0;
    const char* p = PyUnicode_AsUTF8AndSize(s.ptr(), &n);
    if (p == nullptr) throw py::error_already_set();
    return {p, static_cast<std::size_t>(n)};
  }
  if (PyBytes_Check(s.ptr())) return {PyBytes_AS_STRING(s.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(s.ptr()))};
  throw py::type_error(std::string(fn) + " argument must be str or bytes, not " + Py_TYPE(s.ptr())->tp_name);
}

// Offset of the digits after an optional sign.
std::size_t after_sign(std::string_view t) { return !t.empty() && (t[0] == '+' || t[0] == '-') ? 1 : 0; }

bool has_hex_prefix(std::string_view t, std::size_t pos) {
  return t.size() >= pos + 2 && t[pos] == '0' && (t[pos + 1] == 'x' || t[pos + 1] == 'X');
}

py::str to_decimal_py(py::handle n) {
  integer x = to_integer(read_int(n, "bigmul.to_decimal() argument"));
  {
    maybe_release_gil nogil(x.size());
    x = x.to_radix(radix::decimal);  // subquadratic; printing is then linear
  }
  return print_str(x, 10, true);
}

py::str to_hex_py(py::handle n, bool prefix) {
  return print_str(to_integer(read_int(n, "bigmul.to_hex() argument")), 16, prefix);
}

py::object int_of(const integer& x) {
  const auto limbs = x.magnitude();
  return make_int(limbs.data(), limbs.size(), x.is_negative());
}

py::object from_decimal_py(py::handle s) {
  const std::string_view t = text_of(s, "bigmul.from_decimal()");
  if (has_hex_prefix(t, after_sign(t)))
    throw py::value_error("bigmul.from_decimal(): hex literal (use bigmul.from_hex)");
  integer x;
  {
    maybe_release_gil nogil(t.size() / 19);
    x = integer::from_string(t).to_radix(radix::binary);
  }
  return int_of(x);
}

py::object from_hex_py(py::handle s) {
  const std::string_view t = text_of(s, "bigmul.from_hex()");
  const std::size_t pos = after_sign(t);
  integer x;
  {
    maybe_release_gil nogil(t.size() / 16);
    if (has_hex_prefix(t, pos)) {
      x = integer::from_string(t);
    } else {
      // bigmul reads hex after "0x": put one in, and report offsets in the caller's text.
      std::string with_prefix;
      with_prefix.reserve(t.size() + 2);
      with_prefix.append(t.substr(0, pos)).append("0x").append(t.substr(pos));
      try {
        x = integer::from_string(with_prefix);
      } catch (const parse_error& e) {
        const std::size_t off = e.offset() >= pos + 2 ? e.offset() - 2 : pos;
        const std::string what = off < t.size() ? "invalid byte 0x" + [&] {
          static const char* hex = "0123456789abcdef";
          const unsigned char c = static_cast<unsigned char>(t[off]);
          return std::string{hex[c >> 4], hex[c & 15]};
        }() : std::string("no hex digits");
        throw parse_error("bigmul.from_hex(): " + what + " at byte offset " + std::to_string(off) +
                              " (expected an optional sign, an optional 0x, then hex digits)",
                          off);
      }
    }
  }
  return int_of(x);
}

}  // namespace
}  // namespace bigmul::python

namespace py = pybind11;
using namespace pybind11::literals;

PYBIND11_MODULE(bigmul, m) {
  using namespace bigmul::python;
  py::options options;
  options.disable_function_signatures();  // the docstrings state them, with the types of bigmul.pyi
  m.doc() =
      "Exact products of huge integers and fast decimal conversion, by the bigmul library.\n\n"
      "bigmul.mul(a, b) multiplies Python ints (an NTT past ~10^4 digits, all cores);\n"
      "bigmul.to_decimal / from_decimal convert to and from decimal strings in subquadratic\n"
      "time with no digit limit; bigmul.Integer keeps a number in bigmul's own form\n"
      "(binary or decimal radix) between operations; bigmul.powmod computes pow(b, e, m) for an\n"
      "odd modulus by Montgomery arithmetic. The GIL is released while bigmul works.";
  m.attr("__version__") = BIGMUL_VERSION_STRING;
  register_errors(m);

  m.def("mul", &mul_py,
        "mul(a, b, *, algorithm=None, threads=None, backend='auto', check=False) -> int\n\n"
        "The exact product a * b of two ints (any sign, any size).\n\n"
        "algorithm: None or 'auto' for the size-tuned choice, or one of 'basecase', 'karatsuba',\n"
        "  'tiled', 'fft_complex', 'fft_real', 'fft_complex_f32', 'fft_real_f32', 'ntt'.\n"
        "threads: None or 0 for all cores, else the thread count.\n"
        "backend: 'auto' (the GPU past its crossover when one is usable), 'cpu' or 'cuda'.\n"
        "check: also verify the product modulo 2^61-1 (RuntimeError on a mismatch; no wrong product is returned).\n"
        "Raises TypeError for a non-integer argument.",
        py::arg("a"), py::arg("b"), py::kw_only(), py::arg("algorithm") = py::none(),
        py::arg("threads") = py::none(), py::arg("backend") = "auto", py::arg("check") = false);
  m.def("sqr", &sqr_py,
        "sqr(a, *, algorithm=None, threads=None, backend='auto', check=False) -> int\n\n"
        "a * a by the squaring path (one forward transform instead of two). Options as for mul().",
        py::arg("a"), py::kw_only(), py::arg("algorithm") = py::none(), py::arg("threads") = py::none(),
        py::arg("backend") = "auto", py::arg("check") = false);
  m.def("mul_batched", &mul_batched_py,
        "mul_batched(list_a, list_b, *, threads=None, backend='auto') -> list[int]\n\n"
        "[a * b for a, b in zip(list_a, list_b)] as one batch: the operands are padded to the\n"
        "largest one's size and multiplied together (spread over the threads on the CPU, one\n"
        "launch on the GPU). Meant for many crypto-size (1024-8192-bit) products.\n"
        "Raises ValueError when the lists' lengths differ.",
        py::arg("list_a"), py::arg("list_b"), py::kw_only(), py::arg("threads") = py::none(),
        py::arg("backend") = "auto");
  m.def("to_decimal", &to_decimal_py,
        "to_decimal(n) -> str\n\n"
        "str(n) in subquadratic time and without Python's digit limit\n"
        "(sys.set_int_max_str_digits does not apply).",
        py::arg("n"));
  m.def("from_decimal", &from_decimal_py,
        "from_decimal(s) -> int\n\n"
        "int(s) for a decimal literal (str or bytes): an optional '+' or '-', then digits 0-9;\n"
        "no whitespace, underscores or 0x prefix. Subquadratic, no digit limit.\n"
        "Raises ValueError naming the byte offset of the first bad byte.",
        py::arg("s"));
  m.def("to_hex", &to_hex_py,
        "to_hex(n, prefix=True) -> str\n\n"
        "hex(n): lowercase digits, '0x' after the sign unless prefix is False. Linear time.",
        py::arg("n"), py::arg("prefix") = true);
  m.def("from_hex", &from_hex_py,
        "from_hex(s) -> int\n\n"
        "int(s, 16) for str or bytes: an optional sign, an optional '0x'/'0X', then hex digits\n"
        "(either case); no whitespace or underscores. Linear time.\n"
        "Raises ValueError naming the byte offset of the first bad byte.",
        py::arg("s"));
  m.def(
      "cuda_usable", [] {
        std::string why;
        const bool ok = bigmul::cuda_usable(&why);
        return py::make_tuple(ok, why);
      },
      "cuda_usable() -> tuple[bool, str]\n\n"
      "Whether backend='cuda' can be used, and if not, why.");
  m.def(
      "release_scratch", [] { bigmul::release_scratch(); },
      "release_scratch() -> None\n\n"
      "Frees the transform buffers the calling thread keeps between large products.");
  bind_modular(m);
  bind_fixed_factor(m);
  bind_integer(m);
}
