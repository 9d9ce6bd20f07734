// SPDX-License-Identifier: LGPL-3.0-or-later
// The command line's big arrays in one huge-page-advised mapping: see cli/arena.hpp.
#include "cli/arena.hpp"

#include <sys/mman.h>

#include <new>
#include <utility>

#include "prim/buffer.hpp"

namespace bigmul::cli {
namespace {

constexpr std::size_t huge_page = prim::buffer<char>::huge_page;
constexpr std::size_t page = 4096;

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

}  // namespace

arena::arena(std::size_t bytes) {
  if (bytes == 0) return;
  bytes = round_up(bytes, 64);
  huge_ = bytes >= huge_page / 2 && round_up(bytes, huge_page) <= prim::buffer<char>::huge_page_max;
  size_ = huge_ ? round_up(bytes, huge_page) : bytes;
  // Over-reserve by a huge page to place the start on a 2 MiB boundary
  // (address space only: untouched pages cost nothing).
  map_bytes_ = round_up(size_, page) + (huge_ ? huge_page : 0);
  map_ = ::mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map_ == MAP_FAILED) {
    map_ = nullptr;
    throw std::bad_alloc();
  }
  const auto at = reinterpret_cast<std::uintptr_t>(map_);
  base_ = static_cast<char*>(map_) + (huge_ ? round_up(at, huge_page) - at : 0);
#if defined(MADV_HUGEPAGE)
  if (huge_) ::madvise(base_, size_, MADV_HUGEPAGE);  // advice only: 4 KiB pages if refused
#endif
}

arena::~arena() { unmap(); }

arena::arena(arena&& o) noexcept
    : base_(std::exchange(o.base_, nullptr)),
      map_(std::exchange(o.map_, nullptr)),
      map_bytes_(std::exchange(o.map_bytes_, 0)),
      size_(std::exchange(o.size_, 0)),
      used_(std::exchange(o.used_, 0)),
      huge_(std::exchange(o.huge_, false)) {}

arena& arena::operator=(arena&& o) noexcept {
  if (this != &o) {
    unmap();
    base_ = std::exchange(o.base_, nullptr);
    map_ = std::exchange(o.map_, nullptr);
    map_bytes_ = std::exchange(o.map_bytes_, 0);
    size_ = std::exchange(o.size_, 0);
    used_ = std::exchange(o.used_, 0);
    huge_ = std::exchange(o.huge_, false);
  }
  return *this;
}

void arena::unmap() {
  if (map_) ::munmap(map_, map_bytes_);
  map_ = nullptr;
  base_ = nullptr;
  size_ = used_ = 0;
}

void* arena::take_bytes(std::size_t bytes) {
  bytes = round_up(bytes == 0 ? 1 : bytes, 64);
  if (!base_ || bytes > size_ - used_) return nullptr;
  void* p = base_ + used_;
  used_ += bytes;
  return p;
}

void arena::touch(void* p, std::size_t bytes) {
  if (!p || bytes == 0) return;
  auto* c = static_cast<volatile char*>(p);
  for (std::size_t i = 0; i < bytes; i += page) c[i] = 0;
  c[bytes - 1] = 0;
}

void arena::discard(void* p, std::size_t bytes) {
  const auto b = round_up(reinterpret_cast<std::uintptr_t>(p), page);
  const auto e = (reinterpret_cast<std::uintptr_t>(p) + bytes) / page * page;
  // Unmapped (address space too, for ulimit -v); the destructor's munmap of
  // the whole range skips the hole.
  if (e > b) ::munmap(reinterpret_cast<void*>(b), e - b);
}

}  // namespace bigmul::cli
