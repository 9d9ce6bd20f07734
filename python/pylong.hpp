// SPDX-License-Identifier: LGPL-3.0-or-later
// Python int <-> bigmul limbs, in linear time through CPython's byte-array
// conversions (no per-digit Python loops). Callers hold the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "bigmul/config.hpp"
#include "bigmul/integer.hpp"

namespace bigmul::python {

namespace py = pybind11;

// A Python int as a sign and a binary magnitude (base 2^64 limbs, least
// significant first, no high zero limbs: zero is an empty vector).
struct magnitude {
  std::vector<limb_t> limbs;
  bool negative = false;
};

// Whether obj is an integer bigmul accepts: an int (bool included) or an
// object with __index__ (numpy and gmpy2 integers); floats are not.
bool is_int_like(py::handle obj);

// Reads an int-like object; anything else raises TypeError naming `what`
// (e.g. "bigmul.mul() argument 'a'").
magnitude read_int(py::handle obj, const char* what);

// The bigmul::integer of a magnitude (binary radix), taking the limbs over.
inline integer to_integer(magnitude&& m) { return integer(std::move(m.limbs), m.negative, radix::binary); }

// A Python int from binary limbs (high zero limbs allowed).
py::object make_int(const limb_t* limbs, std::size_t n, bool negative);

}  // namespace bigmul::python
