// Pieces of the distributed product (dist/product.cpp) that tests reach.
#pragma once

#include <cstddef>
#include <vector>

#include "dist/shape.hpp"

namespace bigmul::dist {

// The global layout of a product: the operands' blocks and the transform.
struct plan_layout {
  std::vector<std::size_t> a_off, a_len, b_off, b_len;  // per rank
  std::size_t an = 0, bn = 0;
  shape s;
};

// Words each buffer of this rank needs (preflight_bytes sums their peak).
struct buffer_words {
  std::size_t cols = 0, rows = 0, send = 0, recv = 0, out = 0, piece_recv = 0;
  std::size_t peak_bytes() const;
};
buffer_words plan_buffers(const plan_layout& L, int size, int rank);

}  // namespace bigmul::dist
