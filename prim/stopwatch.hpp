// SPDX-License-Identifier: LGPL-3.0-or-later
// Elapsed wall time for phase timings (-t, progress lines, tuning), one
// definition for every layer that reports how long a step took.
#pragma once

#include <chrono>

namespace bigmul::prim {

using steady_clock = std::chrono::steady_clock;

inline double seconds_since(steady_clock::time_point t0) {
  return std::chrono::duration<double>(steady_clock::now() - t0).count();
}

}  // namespace bigmul::prim
