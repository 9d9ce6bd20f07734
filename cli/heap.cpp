// SPDX-License-Identifier: LGPL-3.0-or-later
// The process heap on huge pages: see cli/heap.hpp.
#include "cli/heap.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "prim/buffer.hpp"

namespace bigmul::cli {

bool use_huge_page_heap(std::size_t bytes) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__)
  constexpr std::size_t huge = prim::buffer<char>::huge_page;
  if (bytes < huge || bytes > heap_bytes_max) return false;
  bytes = std::min((bytes + huge - 1) / huge * huge, prim::buffer<char>::huge_page_max);
  // One heap for every thread (no per-thread arenas in mappings of their
  // own), blocks up to glibc's largest mmap threshold (32 MiB) from it,
  // nothing given back until exit; the next growth of the heap adds
  // `bytes` and a huge page (alignment) at once.
  constexpr int threshold_max = 32 << 20;
  if (!mallopt(M_ARENA_MAX, 1) || !mallopt(M_MMAP_THRESHOLD, threshold_max) ||
      !mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max()) ||
      !mallopt(M_TOP_PAD, static_cast<int>(bytes + huge)))
    return false;
  // A block larger than the heap's initial top grows it by the pad. The
  // growth's whole huge pages are advised; the head below its first huge
  // page boundary (where malloc would carve the next blocks) is taken by a
  // second block, and both stay allocated (reachable here) until exit. Only
  // a heap that did grow (the break moves; under a tight ulimit -v it may
  // not, and malloc maps elsewhere) is advised.
  static void* head[2] = {nullptr, nullptr};
  const auto before = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  head[0] = std::malloc(std::size_t{256} << 10);
  const auto end = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  const auto begin = (before + huge - 1) / huge * huge;
  const bool advised = head[0] && end >= begin + bytes &&
                 ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE) == 0;
  const auto taken = reinterpret_cast<std::uintptr_t>(head[0]) + (std::size_t{256} << 10);
  if (advised && begin > taken + 64) head[1] = std::malloc(begin - taken - 64);  // 64: chunk headers
  mallopt(M_TOP_PAD, 128 << 10);
  return advised;
#else
  static_cast<void>(bytes);
  return false;
#endif
}

}  // namespace bigmul::cli
