// SPDX-License-Identifier: LGPL-3.0-or-later
// Algorithm names, both ways (mul/algorithm_table.hpp holds them).
#include <string>

#include "bigmul/mul.hpp"
#include "mul/algorithm_table.hpp"

namespace bigmul {

const char* algorithm_name(algorithm a) {
  const detail::algorithm_desc* d = detail::find_algorithm(a);
  return d ? d->name : "?";
}

bool parse_algorithm(const std::string& name, algorithm& out) {
  for (const auto& d : detail::algorithm_table)
    if (name == d.name) {
      out = d.algo;
      return true;
    }
  return false;
}

}  // namespace bigmul
