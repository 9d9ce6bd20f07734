// SPDX-License-Identifier: LGPL-3.0-or-later
// Getting an NTT product ready before its operands are (bigmul::prepare_mul).
//
// Why: the first product of a process pays for what later ones reuse: the
// plans and twiddle tables, and above all the fresh pages of its transform
// scratch. Where freed memory goes back to a hypervisor's host (page
// reporting), a first touch can cost more than the arithmetic of the
// product. A caller that knows the sizes early (the CLI, right
// after reading the operands' text) pays that while it parses.
#pragma once

#include <cstddef>

#include "bigmul/config.hpp"
#include "mul/ntt_mul.hpp"

namespace bigmul::detail {

// Builds the plans (and through them the twiddle tables) of the product of
// an x bn limbs on engine e, and grows the calling thread's transform scratch
// to the size that product takes on `threads` threads (0: the default), every
// page touched by the calling thread. Nothing of the product is computed: a
// product of any other size stays exact and grows what it needs itself.
void ntt_prepare(ntt_engine e, std::size_t an, std::size_t bn, radix rx, unsigned threads);

// Writes one zero per 4 KiB page of [p, p + bytes) from up to `threads`
// threads: the pages are faulted in now rather than by the first pass that
// writes them. For memory whose contents are not needed (scratch).
void prefault_pages(void* p, std::size_t bytes, unsigned threads);

}  // namespace bigmul::detail
