// SPDX-License-Identifier: LGPL-3.0-or-later
// Heap accounting for the benchmarks that report peak heap: heap_count.cpp
// replaces the global operator new/delete with counting versions. It is an
// object library linked into exactly the programs that counted before, so
// the others allocate as they always did.
#pragma once

#include <cstddef>

namespace bigmul::bench {

// Heap bytes in use through operator new, and the peak since reset_peak().
std::size_t heap_in_use();
std::size_t heap_peak();
void reset_peak();

}  // namespace bigmul::bench
