// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul.powmod / bigmul.powmod_batched and Integer's three-argument pow():
// Python's pow(b, e, m) by bigmul's Montgomery arithmetic (<bigmul/modular.hpp>).
//
// Python's semantics where the library is stricter: a base outside [0, m) is
// reduced here first (floor division, as pow() does), because the library
// refuses it rather than guess. What Montgomery arithmetic cannot do is
// refused with ValueError: an even modulus, a negative exponent (pow() would
// compute an inverse), m <= 0.
#include <pybind11/pybind11.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bigmul/arith.hpp"
#include "bigmul/integer.hpp"
#include "bigmul/modular.hpp"
#include "python/common.hpp"
#include "python/pylong.hpp"

namespace bigmul::python {
namespace {

// " 3" after an argument's name for batched items, nothing for single ones.
std::string item(std::ptrdiff_t index) { return index < 0 ? std::string() : " " + std::to_string(index); }

}  // namespace

void check_powmod_arguments(const integer& exponent, const integer& modulus, const std::string& fn,
                            std::ptrdiff_t index) {
  // The library says this too, but naming the Python call and "only odd" is clearer than its C++ wording.
  if (modulus.sign() <= 0)
    throw py::value_error(fn + ": mod" + item(index) + " must be positive (got " +
                          (modulus.is_zero() ? "0" : "a negative modulus") + ")");
  // Parity is the low limb's in both radices (10^19 is even).
  if ((modulus.magnitude()[0] & 1) == 0)
    throw py::value_error(fn + ": mod" + item(index) +
                          " is even; only odd moduli are supported (bigmul uses Montgomery arithmetic)");
  if (exponent.sign() < 0)
    throw py::value_error(fn + ": exp" + item(index) +
                          " is negative; only exponents >= 0 are supported (no modular inverse is computed)");
}

integer reduce_base(const integer& base, const integer& modulus) {
  if (base.sign() >= 0 && base < modulus) return base;
  integer r = base % modulus;  // truncating: the dividend's sign
  if (r.is_negative()) r += modulus;
  return r;
}

integer powmod_integer(const integer& base, const integer& exponent, const integer& modulus, bool constant_time) {
  const integer b = reduce_base(base, modulus);
  return constant_time ? bigmul::mod_pow_sec(b, exponent, modulus) : bigmul::mod_pow(b, exponent, modulus);
}

namespace {

py::object int_of(const integer& x) {
  if (x.get_radix() == radix::binary) {
    const auto limbs = x.magnitude();
    return make_int(limbs.data(), limbs.size(), x.is_negative());
  }
  const integer b = x.to_radix(radix::binary);
  const auto limbs = b.magnitude();
  return make_int(limbs.data(), limbs.size(), b.is_negative());
}

py::object powmod_py(py::handle base, py::handle exp, py::handle mod, bool constant_time) {
  const std::string fn = "bigmul.powmod()";
  const integer b = to_integer(read_int(base, "bigmul.powmod() argument 'base'"));
  const integer e = to_integer(read_int(exp, "bigmul.powmod() argument 'exp'"));
  const integer m = to_integer(read_int(mod, "bigmul.powmod() argument 'mod'"));
  check_powmod_arguments(e, m, fn, -1);
  integer r;
  {
    // Always released: even a one-limb modulus with a long exponent is real work.
    py::gil_scoped_release nogil;
    r = powmod_integer(b, e, m, constant_time);
  }
  return int_of(r);
}

// A sequence's items as integers (binary radix), TypeError naming `what` otherwise.
std::vector<integer> read_ints(py::handle seq, const char* fn, const char* name) {
  const std::string msg = std::string(fn) + " argument '" + name + "' must be a sequence of ints";
  py::object fast = py::reinterpret_steal<py::object>(PySequence_Fast(seq.ptr(), msg.c_str()));
  if (!fast) throw py::error_already_set();
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.ptr());
  const std::string what = std::string(fn) + " " + name + "'s items";
  std::vector<integer> out;
  out.reserve(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i)
    out.push_back(to_integer(read_int(PySequence_Fast_GET_ITEM(fast.ptr(), i), what.c_str())));
  return out;
}

py::list powmod_batched_py(py::handle bases, py::handle exps, py::handle mod_or_mods, bool constant_time,
                           const py::object& threads) {
  const char* fn = "bigmul.powmod_batched()";
  const unsigned nthreads = make_options(py::none(), threads, "cpu", false, fn).threads;
  std::vector<integer> b = read_ints(bases, fn, "bases");
  const std::vector<integer> e = read_ints(exps, fn, "exps");
  const std::size_t G = b.size();
  if (e.size() != G)
    throw py::value_error(std::string(fn) + ": bases and exps must have the same length (got " +
                          std::to_string(G) + " and " + std::to_string(e.size()) + ")");
  // One int: the same modulus for all (one Montgomery context); a sequence: one per operation.
  const bool shared = is_int_like(mod_or_mods);
  std::vector<integer> m;
  if (shared) {
    m.push_back(to_integer(read_int(mod_or_mods, "bigmul.powmod_batched() argument 'mod_or_mods'")));
  } else {
    if (!PySequence_Check(mod_or_mods.ptr()) || PyUnicode_Check(mod_or_mods.ptr()) ||
        PyBytes_Check(mod_or_mods.ptr()))
      throw py::type_error(std::string(fn) + " argument 'mod_or_mods' must be an int or a sequence of ints, not " +
                           Py_TYPE(mod_or_mods.ptr())->tp_name);
    m = read_ints(mod_or_mods, fn, "mod_or_mods");
    if (m.size() != G)
      throw py::value_error(std::string(fn) + ": mod_or_mods must be one int or a sequence as long as bases (got " +
                            std::to_string(m.size()) + " moduli for " + std::to_string(G) + " bases)");
  }
  for (std::size_t g = 0; g < G; ++g)
    check_powmod_arguments(e[g], m[shared ? 0 : g], fn, shared && G == 1 ? -1 : static_cast<std::ptrdiff_t>(g));
  if (shared && G == 0) check_powmod_arguments(integer(), m[0], fn, -1);  // a bad modulus is refused even so
  std::vector<integer> r;
  {
    py::gil_scoped_release nogil;
    for (std::size_t g = 0; g < G; ++g) b[g] = reduce_base(b[g], m[shared ? 0 : g]);
    r = constant_time ? bigmul::mod_pow_sec_batched(b, e, m, nthreads) : bigmul::mod_pow_batched(b, e, m, nthreads);
  }
  py::list out(G);
  for (std::size_t g = 0; g < G; ++g) out[g] = int_of(r[g]);
  return out;
}

}  // namespace

void bind_modular(py::module_& m) {
  m.def("powmod", &powmod_py,
        "powmod(base, exp, mod, *, constant_time=False) -> int\n\n"
        "pow(base, exp, mod) for an odd modulus by Montgomery arithmetic: the result lies in\n"
        "[0, mod); a base outside [0, mod) (negative or too large) is reduced first, as pow() does.\n"
        "constant_time: a fixed-window ladder whose branches and memory addresses do not depend\n"
        "on the base's or the exponent's value (run time depends on their sizes in 64-bit words\n"
        "and the modulus's); use it for secret exponents. Otherwise a sliding window (faster).\n"
        "Raises ValueError for an even modulus (only odd moduli are supported), mod <= 0 or a\n"
        "negative exponent; TypeError for a non-integer argument.",
        py::arg("base"), py::arg("exp"), py::arg("mod"), py::kw_only(), py::arg("constant_time") = false);
  m.def("powmod_batched", &powmod_batched_py,
        "powmod_batched(bases, exps, mod_or_mods, *, constant_time=False, threads=None) -> list[int]\n\n"
        "[powmod(b, e, m) ...] for equal-length sequences bases and exps, with one odd modulus for\n"
        "all (mod_or_mods an int) or one per operation (a sequence as long as bases). Run as one\n"
        "batch: eight operations per AVX-512 IFMA vector where the processor has it, spread over\n"
        "the threads (None or 0: all cores). Bases are reduced into [0, m) first. constant_time and\n"
        "errors as for powmod() (ValueError naming the item); ValueError for unequal lengths.",
        py::arg("bases"), py::arg("exps"), py::arg("mod_or_mods"), py::kw_only(), py::arg("constant_time") = false,
        py::arg("threads") = py::none());
}

}  // namespace bigmul::python
