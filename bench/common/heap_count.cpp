// SPDX-License-Identifier: LGPL-3.0-or-later
#include "heap_count.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::size_t> g_in_use{0}, g_peak{0};

void* counted_alloc(std::size_t n) {
  // A size header in front of every block lets delete subtract it.
  void* p = std::malloc(n + 16);
  if (!p) throw std::bad_alloc();
  *static_cast<std::size_t*>(p) = n;
  const std::size_t now = g_in_use.fetch_add(n) + n;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return static_cast<char*>(p) + 16;
}
void counted_free(void* p) noexcept {
  if (!p) return;
  char* base = static_cast<char*>(p) - 16;
  g_in_use.fetch_sub(*reinterpret_cast<std::size_t*>(base));
  std::free(base);
}
// Aligned blocks: the header sits just below the aligned pointer, and the
// offset back to the malloc'd base is stored next to the size.
void* counted_alloc_aligned(std::size_t n, std::size_t align) {
  align = std::max<std::size_t>(align, 16);
  void* raw = std::malloc(n + align + 16);
  if (!raw) throw std::bad_alloc();
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t user = (base + 16 + align - 1) & ~(static_cast<std::uintptr_t>(align) - 1);
  reinterpret_cast<std::size_t*>(user)[-2] = n;
  reinterpret_cast<std::size_t*>(user)[-1] = user - base;
  const std::size_t now = g_in_use.fetch_add(n) + n;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return reinterpret_cast<void*>(user);
}
void counted_free_aligned(void* p) noexcept {
  if (!p) return;
  const auto user = reinterpret_cast<std::uintptr_t>(p);
  g_in_use.fetch_sub(reinterpret_cast<std::size_t*>(user)[-2]);
  std::free(reinterpret_cast<void*>(user - reinterpret_cast<std::size_t*>(user)[-1]));
}
}  // namespace

void* operator new(std::size_t n, std::align_val_t a) { return counted_alloc_aligned(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_alloc_aligned(n, static_cast<std::size_t>(a)); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free_aligned(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free_aligned(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free_aligned(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free_aligned(p); }
void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }

namespace bigmul::bench {

std::size_t heap_in_use() { return g_in_use.load(); }
std::size_t heap_peak() { return g_peak.load(); }
void reset_peak() { g_peak.store(g_in_use.load()); }

}  // namespace bigmul::bench
