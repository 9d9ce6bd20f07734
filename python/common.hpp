// SPDX-License-Identifier: LGPL-3.0-or-later
// Shared by the module's source files: keyword options -> mul_options, error
// mapping, and the Integer class's binding.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <optional>
#include <string>

#include "bigmul/integer.hpp"
#include "bigmul/mul.hpp"

namespace bigmul::python {

namespace py = pybind11;

// algorithm=None|"auto"|name, threads=None|n >= 0 (0 and None: all cores),
// backend="auto"|"cpu"|"cuda", check: the mod 2^61-1 check. Bad values raise
// ValueError / TypeError naming `fn`. backend="cuda" without a usable GPU
// raises RuntimeError with the reason.
mul_options make_options(const py::object& algorithm, const py::object& threads, const std::string& backend,
                         bool check, const char* fn);

// The GIL is released around work on this many limbs or more; below, the
// release/re-acquire costs more than the work.
inline constexpr std::size_t release_gil_limbs = 32;

// Releases the GIL for its lifetime when `limbs` is past release_gil_limbs.
class maybe_release_gil {
 public:
  explicit maybe_release_gil(std::size_t limbs) {
    if (limbs >= release_gil_limbs) release_.emplace();
  }

 private:
  std::optional<py::gil_scoped_release> release_;
};

// bigmul::error -> ValueError (bad literal or argument, domain) / MemoryError
// (resource) / RuntimeError (internal), with bigmul's message.
void register_errors(py::module_& m);

// str(x) in base 10 or 16 (to_string's text), written into the new str's
// buffer with the GIL released.
py::str print_str(const integer& x, int base, bool prefix);

// bigmul.Integer.
void bind_integer(py::module_& m);

// Modular powers (python/modular.cpp). ValueError naming `fn` (and item
// `index` when >= 0) for m <= 0, an even m or a negative exponent.
void check_powmod_arguments(const integer& exponent, const integer& modulus, const std::string& fn,
                            std::ptrdiff_t index);
// base mod m in [0, m) (floor division, as Python's %).
integer reduce_base(const integer& base, const integer& modulus);
// pow(base, exponent, modulus) for checked arguments; the result in the modulus's radix.
integer powmod_integer(const integer& base, const integer& exponent, const integer& modulus, bool constant_time);
// bigmul.powmod and bigmul.powmod_batched.
void bind_modular(py::module_& m);

}  // namespace bigmul::python
