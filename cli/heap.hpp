// SPDX-License-Identifier: LGPL-3.0-or-later
// The process heap on huge pages, for one-shot runs of moderate size.
//
// Why: beside the CLI's own arrays (cli/arena.hpp), a 10^6-digit run with a
// radix conversion takes ~2700 4 KiB page faults in the library's vectors
// and scratch buffers (conversion levels, transform buffers, results),
// several ms of CPU where fresh pages are costly (prim/buffer.hpp), and as many
// pages to free at exit. Growing malloc's heap once by what the run will
// need and advising that range as huge pages turns them into a few huge
// faults. At 10^7 digits it halves the faults (the first 64 MB only).
#pragma once

#include <cstddef>

namespace bigmul::cli {

// Runs expected to need more heap than this are left alone: malloc's
// defaults (large blocks in their own mappings, given back when freed) keep
// the peak of 10^8-10^9-digit runs.
inline constexpr std::size_t heap_bytes_max = std::size_t{256} << 20;

// For a run expected to allocate `bytes` (from 2 MiB to heap_bytes_max):
// makes malloc serve blocks up to 32 MiB (all threads) from its main heap,
// keeps freed blocks there until exit, grows the heap at once by `bytes`
// capped at prim::buffer's huge_page_max (see there why not beyond) and
// advises that range as huge pages. Call it before a second thread
// allocates. Returns whether it did (advice only: a refusal leaves malloc
// serving the same blocks on 4 KiB pages). Always refuses outside glibc and
// under AddressSanitizer, whose allocator replaces malloc's heap.
bool use_huge_page_heap(std::size_t bytes);

}  // namespace bigmul::cli
