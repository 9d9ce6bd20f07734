// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul.FixedFactor: one int prepared once for many products
// (<bigmul/fixed_factor.hpp>), the GIL released while bigmul works.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bigmul/fixed_factor.hpp"
#include "bigmul/integer.hpp"
#include "python/common.hpp"
#include "python/pylong.hpp"

namespace bigmul::python {
namespace {

unsigned read_threads(const py::object& threads, const char* fn) {
  return make_options(py::none(), threads, "auto", false, fn).threads;
}

// The Python object: the prepared factor and the promise made at
// construction (operands of at most max_bits bits).
struct py_fixed_factor {
  std::unique_ptr<fixed_factor> f;
  std::size_t max_bits = 0;
  std::size_t b_limbs = 0;

  const fixed_factor& get(const char* fn) const {
    if (!f) throw py::value_error(std::string(fn) + ": the FixedFactor was released");
    return *f;
  }
  integer operand(py::handle a, const char* what, const char* fn) const {
    magnitude m = read_int(a, what);
    std::size_t bits = 0;
    if (!m.limbs.empty()) bits = 64 * m.limbs.size() - static_cast<std::size_t>(__builtin_clzll(m.limbs.back()));
    if (bits > max_bits)
      throw py::value_error(std::string(fn) + ": " + what + " has " + std::to_string(bits) +
                            " bits, the FixedFactor was prepared for at most " + std::to_string(max_bits));
    return to_integer(std::move(m));
  }
};

py::object int_of(const integer& x) {
  const auto limbs = x.magnitude();
  return make_int(limbs.data(), limbs.size(), x.is_negative());
}

}  // namespace

void bind_fixed_factor(py::module_& m) {
  py::class_<py_fixed_factor>(m, "FixedFactor",
                              "FixedFactor(b, max_bits, *, threads=None)\n\n"
                              "b (a nonzero int) prepared once for many products b * a by ints a of at most\n"
                              "max_bits bits: its NTT transforms are computed here and kept, so each product\n"
                              "transforms only a (two transforms where bigmul.mul takes three). Exact, as\n"
                              "bigmul.mul. ValueError for b == 0, max_bits < 1, an a longer than prepared for\n"
                              "or a released object; MemoryError when memory runs out.")
      .def(py::init([](py::handle b, py::handle max_bits, const py::object& threads) {
             const char* fn = "bigmul.FixedFactor()";
             const unsigned t = read_threads(threads, fn);
             if (!PyLong_Check(max_bits.ptr()) || PyBool_Check(max_bits.ptr()))
               throw py::type_error(std::string(fn) + ": max_bits must be an int");
             int overflow = 0;
             const long long bits = PyLong_AsLongLongAndOverflow(max_bits.ptr(), &overflow);
             if (bits == -1 && !overflow && PyErr_Occurred()) throw py::error_already_set();
             if (overflow != 0 || bits < 1 || bits > (1LL << 46))
               throw py::value_error(std::string(fn) + ": max_bits must be in [1, 2**46]");
             integer x = to_integer(read_int(b, "bigmul.FixedFactor() argument 'b'"));
             if (x.is_zero()) throw py::value_error(std::string(fn) + ": b must not be 0");
             auto self = std::make_unique<py_fixed_factor>();
             self->max_bits = static_cast<std::size_t>(bits);
             self->b_limbs = x.size();
             const std::size_t max_an = (self->max_bits + 63) / 64;
             {
               maybe_release_gil nogil(max_an + x.size());
               self->f = std::make_unique<fixed_factor>(x, max_an, t);
             }
             return self;
           }),
           py::arg("b"), py::arg("max_bits"), py::kw_only(), py::arg("threads") = py::none())
      .def(
          "mul",
          [](const py_fixed_factor& self, py::handle a, const py::object& threads) {
            const char* fn = "bigmul.FixedFactor.mul()";
            const fixed_factor& f = self.get(fn);
            const unsigned t = read_threads(threads, fn);
            const integer x = self.operand(a, "argument 'a'", fn);
            integer r;
            {
              maybe_release_gil nogil(x.size() + self.b_limbs);
              r = f.mul(x, t);
            }
            return int_of(r);
          },
          py::arg("a"), py::kw_only(), py::arg("threads") = py::none(),
          "mul(a, *, threads=None) -> int\n\nb * a, for an int a of at most max_bits bits.")
      .def(
          "mul_many",
          [](const py_fixed_factor& self, const py::sequence& values, const py::object& threads) {
            const char* fn = "bigmul.FixedFactor.mul_many()";
            const fixed_factor& f = self.get(fn);
            const unsigned t = read_threads(threads, fn);
            std::vector<integer> xs;
            xs.reserve(values.size());
            std::size_t limbs = 0;
            for (std::size_t i = 0; i < values.size(); ++i) {
              const std::string what = "item " + std::to_string(i);
              xs.push_back(self.operand(values[i], what.c_str(), fn));
              limbs += xs.back().size() + self.b_limbs;
            }
            std::vector<integer> rs;
            {
              maybe_release_gil nogil(limbs);
              rs = f.mul(xs, t);
            }
            py::list out(rs.size());
            for (std::size_t i = 0; i < rs.size(); ++i) out[i] = int_of(rs[i]);
            return out;
          },
          py::arg("values"), py::kw_only(), py::arg("threads") = py::none(),
          "mul_many(values, *, threads=None) -> list[int]\n\n"
          "[b * a for a in values] as one batch, spread over the threads.")
      .def(
          "release", [](py_fixed_factor& self) { self.f.reset(); },
          "release() -> None\n\nFrees the kept transforms now; later products raise ValueError.")
      .def_property_readonly(
          "prepared", [](const py_fixed_factor& self) { return self.f != nullptr; },
          "Whether the transforms are held (False after release()).")
      .def_property_readonly(
          "max_bits", [](const py_fixed_factor& self) { return self.max_bits; },
          "The longest operand prepared for, in bits.")
      .def_property_readonly(
          "transform_length",
          [](const py_fixed_factor& self) { return self.f ? self.f->transform_length() : std::size_t{0}; },
          "The kept transforms' length in points (0: products go to bigmul.mul).")
      .def("__enter__", [](py::object self) { return self; })
      .def(
          "__exit__",
          [](py_fixed_factor& self, py::handle, py::handle, py::handle) {
            self.f.reset();
            return false;
          },
          "Releases the transforms at the end of a with block.");
}

}  // namespace bigmul::python
