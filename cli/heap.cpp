// The process heap on huge pages: see cli/heap.hpp.
#include "cli/heap.hpp"

#include <malloc.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>

#include "prim/buffer.hpp"

namespace bigmul::cli {

bool use_huge_page_heap(std::size_t bytes) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX) && defined(MADV_HUGEPAGE)
  constexpr std::size_t huge = prim::buffer<char>::huge_page;
  bytes = (bytes + huge - 1) / huge * huge;
  // glibc takes no mmap threshold over 32 MiB (64-bit); the block below
  // is a huge page longer than the range it advises (alignment).
  constexpr std::size_t threshold_max = std::size_t{32} << 20;
  const std::size_t block = bytes + huge, threshold = block + 4096;
  if (bytes < huge || bytes > prim::buffer<char>::huge_page_max || threshold > threshold_max) return false;
  // One heap for every thread (no per-thread arenas of their own mappings),
  // blocks under the threshold from it, nothing given back until exit.
  if (!mallopt(M_ARENA_MAX, 1) || !mallopt(M_MMAP_THRESHOLD, static_cast<int>(threshold)) ||
      !mallopt(M_TRIM_THRESHOLD, static_cast<int>(threshold_max)))
    return false;
  // A block of `bytes` and a huge page grows the heap; advise the whole
  // huge pages inside it and give it back to malloc, which hands the range
  // out again.
  void* p = std::malloc(block);
  if (!p) return false;
  const auto b = (reinterpret_cast<std::uintptr_t>(p) + huge - 1) / huge * huge;
  const bool advised = ::madvise(reinterpret_cast<void*>(b), bytes, MADV_HUGEPAGE) == 0;
  std::free(p);
  return advised;
#else
  static_cast<void>(bytes);
  return false;
#endif
}

}  // namespace bigmul::cli
