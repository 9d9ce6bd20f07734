// SPDX-License-Identifier: LGPL-3.0-or-later
// One mapping for the command line's big arrays: the parsed operands' limbs,
// the product's limbs and the product's text.
//
// Why: a one-shot product of two 10^6-digit hex operands touches ~4 MB of
// fresh memory for these (0.5 MB per operand, 1 MB product, 2 MB text). In
// separate allocations under 2 MiB each that is ~1000 4 KiB page faults, a
// sizeable part of such a short process (prim/buffer.hpp), and as many pages
// to free at exit. One 2 MiB-aligned region advised as huge pages takes a
// few huge faults instead, and nothing is zero-filled: every byte handed out
// is written before it is read.
// Huge-page advice only up to prim::buffer's huge_page_max (see there why).
#pragma once

#include <cstddef>
#include <cstdint>

namespace bigmul::cli {

class arena {
 public:
  arena() = default;
  // Reserves `bytes` (rounded up to whole huge pages once it reaches half a
  // huge page: the rest of the page would be zeroed anyway). Throws
  // std::bad_alloc when the mapping fails.
  explicit arena(std::size_t bytes);
  ~arena();
  arena(arena&& o) noexcept;
  arena& operator=(arena&& o) noexcept;
  arena(const arena&) = delete;
  arena& operator=(const arena&) = delete;

  // n uninitialized T, 64-byte aligned, or nullptr when they do not fit.
  template <class T>
  T* take(std::size_t n) {
    return static_cast<T*>(take_bytes(n * sizeof(T)));
  }
  // Unmaps the whole pages inside [p, p + bytes), memory and address space:
  // they must not be used again. For operands no longer needed before a
  // large text is built.
  void discard(void* p, std::size_t bytes);

  // Writes one byte in every 4 KiB page of [p, p + bytes): takes their
  // first-touch page faults now (on the calling thread). Contents unspecified.
  static void touch(void* p, std::size_t bytes);

  std::size_t capacity() const { return size_; }
  bool huge() const { return huge_; }

 private:
  void* take_bytes(std::size_t bytes);
  void unmap();

  char* base_ = nullptr;  // the aligned start
  void* map_ = nullptr;   // what mmap returned
  std::size_t map_bytes_ = 0;
  std::size_t size_ = 0, used_ = 0;
  bool huge_ = false;
};

}  // namespace bigmul::cli
