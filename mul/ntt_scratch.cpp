// SPDX-License-Identifier: LGPL-3.0-or-later
// The NTT multiply's per-thread transform buffers: see mul/ntt_scratch.hpp.
#include "mul/ntt_scratch.hpp"

#include <vector>

#include "mul/ntt_mul.hpp"
#include "prim/buffer.hpp"

namespace bigmul::detail {
namespace {

using fft::u64;

// The calling thread's transform buffers, kept between products: a 10^7-digit
// product touches tens of MB of fresh memory, and the kernel's zeroing of new
// pages is a sizeable part of its time (FLINT's fft_small keeps its buffers
// in its context the same way). release_scratch() gives them back. The arrays
// are carved from one slab: a 10^6-digit product's four arrays are each below
// prim::buffer's huge-page size, their slab is not, and 4 KiB first-touch
// faults are most of a cold product's extra time at that size.
struct scratch_cache {
  prim::buffer<u64> slab;
  std::vector<u64*> ptrs;
};
thread_local scratch_cache thread_scratch;

}  // namespace

u64* const* ntt_scratch(std::size_t count, std::size_t n) {
  scratch_cache& s = thread_scratch;
  const std::size_t stride = ntt_scratch_stride(n);
  if (s.slab.size() < count * stride) {
    s.slab = prim::buffer<u64>();  // free first: the peak holds one slab
    s.slab = prim::buffer<u64>(count * stride);
  }
  s.ptrs.resize(count);
  for (std::size_t i = 0; i < count; ++i) s.ptrs[i] = s.slab.data() + i * stride;
  return s.ptrs.data();
}

std::size_t ntt_scratch_bytes() { return thread_scratch.slab.size() * sizeof(u64); }

void ntt_release_scratch() { thread_scratch = scratch_cache{}; }

void* ntt_reserve_scratch(std::size_t bytes, bool& fresh) {
  const std::size_t words = (bytes + sizeof(u64) - 1) / sizeof(u64);
  fresh = thread_scratch.slab.size() < words;
  if (fresh) ntt_scratch(1, words);  // ntt_scratch() grows the slab as a product would
  return thread_scratch.slab.data();
}

}  // namespace bigmul::detail
