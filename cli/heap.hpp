// The process heap on huge pages, for one-shot runs of moderate size.
//
// Why: beside the CLI's own arrays (cli/arena.hpp), a 10^6-digit run with a
// radix conversion takes ~2700 4 KiB page faults in the library's vectors
// and scratch buffers (conversion levels, transform buffers, results), at
// ~0.4 ms a MB on this VM (prim/buffer.hpp) several ms of CPU, and as many
// pages to free at exit. Growing malloc's heap once by what the run will
// need and advising that range as huge pages turns them into a few huge
// faults.
#pragma once

#include <cstddef>

namespace bigmul::cli {

// Makes malloc serve blocks up to `bytes` (all threads) from its main heap,
// grows that heap by `bytes` now and advises the new range as huge pages;
// freed blocks stay in the heap for the rest of the run. Only from 2 MiB to
// prim::buffer's huge_page_max (see there why not beyond), and only before
// a second thread allocates. Returns whether it did so (advice only: a
// refusal anywhere leaves malloc as it was, or as fast).
bool use_huge_page_heap(std::size_t bytes);

}  // namespace bigmul::cli
