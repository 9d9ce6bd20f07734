// SPDX-License-Identifier: LGPL-3.0-or-later
// Python int <-> limbs through _PyLong_AsByteArray / _PyLong_FromByteArray:
// little-endian bytes are the limbs' own memory on little-endian hosts, so a
// conversion is one linear pass inside CPython.
#include "python/pylong.hpp"

#include <bit>
#include <cstring>
#include <string>

namespace bigmul::python {
namespace {

// CPython 3.13 added a with_exceptions argument to the byte-array reader.
int as_byte_array(PyObject* v, unsigned char* bytes, std::size_t n) {
#if PY_VERSION_HEX >= 0x030D0000
  return _PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(v), bytes, n, 1, 0, 1);
#else
  return _PyLong_AsByteArray(reinterpret_cast<PyLongObject*>(v), bytes, n, 1, 0);
#endif
}

void to_native_order(limb_t* p, std::size_t n) {
  if constexpr (std::endian::native == std::endian::big) {
    for (std::size_t i = 0; i < n; ++i) p[i] = __builtin_bswap64(p[i]);
  }
}

py::object steal_or_throw(PyObject* o) {
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

}  // namespace

bool is_int_like(py::handle obj) {
  PyObject* o = obj.ptr();
  return PyLong_Check(o) || (!PyFloat_Check(o) && PyIndex_Check(o));
}

magnitude read_int(py::handle obj, const char* what) {
  if (!is_int_like(obj)) {
    throw py::type_error(std::string(what) + " must be an int, not " + Py_TYPE(obj.ptr())->tp_name);
  }
  py::object value = PyLong_Check(obj.ptr()) ? py::reinterpret_borrow<py::object>(obj)
                                              : steal_or_throw(PyNumber_Index(obj.ptr()));
  magnitude m;
  const int sign = _PyLong_Sign(value.ptr());
  if (sign == 0) return m;
  if (sign < 0) {
    // The reader wants the magnitude: negate once (a linear copy).
    value = steal_or_throw(PyNumber_Negative(value.ptr()));
    m.negative = true;
  }
  const std::size_t bits = _PyLong_NumBits(value.ptr());
  if (bits == static_cast<std::size_t>(-1) && PyErr_Occurred()) throw py::error_already_set();
  m.limbs.resize((bits + 63) / 64);
  if (as_byte_array(value.ptr(), reinterpret_cast<unsigned char*>(m.limbs.data()), m.limbs.size() * 8) < 0) {
    throw py::error_already_set();
  }
  to_native_order(m.limbs.data(), m.limbs.size());
  return m;
}

py::object make_int(const limb_t* limbs, std::size_t n, bool negative) {
  while (n > 0 && limbs[n - 1] == 0) --n;
  if (n == 0) return py::int_(0);
  std::vector<limb_t> swapped;
  if constexpr (std::endian::native == std::endian::big) {
    swapped.assign(limbs, limbs + n);
    to_native_order(swapped.data(), n);  // byte swap: little-endian bytes for CPython
    limbs = swapped.data();
  }
  py::object r = steal_or_throw(_PyLong_FromByteArray(reinterpret_cast<const unsigned char*>(limbs), n * 8, 1, 0));
  if (negative) r = steal_or_throw(PyNumber_Negative(r.ptr()));
  return r;
}

}  // namespace bigmul::python
