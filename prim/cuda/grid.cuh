// SPDX-License-Identifier: LGPL-3.0-or-later
// Grid y extent for kernels that run one problem of a batch per y row: CUDA
// caps gridDim.y at 65535, so kernels loop over the rows past it.
#pragma once

#include <cstddef>

namespace bigmul::prim::cuda {

inline constexpr unsigned max_grid_y = 65535;

inline unsigned grid_y(std::size_t rows) {
  return static_cast<unsigned>(rows < max_grid_y ? rows : max_grid_y);
}

}  // namespace bigmul::prim::cuda
