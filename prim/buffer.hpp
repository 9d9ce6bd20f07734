// SPDX-License-Identifier: LGPL-3.0-or-later
// Uninitialized scratch arrays for the big passes (FFT, rounding, carries).
//
// Why: a product of 10^6 digits touches tens of MB of fresh memory, and on
// 4 KiB pages the first touch of a page can cost more than the arithmetic
// done in it. Large buffers are therefore 2 MiB aligned and advised as huge
// pages (transparent huge pages in madvise mode: a fraction of the faults),
// and never zero-filled: every user writes each element first.
//
// Up to huge_page_max only. A virtual machine that returns free memory to
// its host in free 2 MiB blocks (virtio-balloon page reporting) hands back
// exactly the blocks a huge page takes, so past what was freed lately a huge
// page fault refills from the host and large huge-page buffers become slower
// than 4 KiB pages, which take pages freed in smaller pieces that stay with
// the guest.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bigmul::prim {

template <class T>
class buffer {
  static_assert(std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>,
                "prim::buffer holds plain values only");

 public:
  static constexpr std::size_t huge_page = std::size_t{2} << 20;
  static constexpr std::size_t huge_page_max = std::size_t{64} << 20;  // see above
  static bool advise_huge(std::size_t bytes) { return bytes >= huge_page && bytes <= huge_page_max; }

  buffer() = default;
  explicit buffer(std::size_t n) : n_(n) {
    if (n == 0) return;
    const std::size_t bytes = n * sizeof(T);
    // operator new (not aligned_alloc), so that memory accounting that
    // replaces it (bench/'s peak-heap counter) sees these blocks.
    p_ = static_cast<T*>(::operator new(bytes, std::align_val_t{bytes >= huge_page ? huge_page : 64}));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (advise_huge(bytes)) madvise(p_, bytes / huge_page * huge_page, MADV_HUGEPAGE);  // advice only
#endif
  }
  buffer(buffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  buffer& operator=(buffer&& o) noexcept {
    if (this != &o) {
      release();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer() { release(); }

  T* data() const { return p_; }
  std::size_t size() const { return n_; }
  T& operator[](std::size_t i) const { return p_[i]; }

 private:
  void release() {
    if (p_) ::operator delete(p_, std::align_val_t{n_ * sizeof(T) >= huge_page ? huge_page : 64});
  }

  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace bigmul::prim
