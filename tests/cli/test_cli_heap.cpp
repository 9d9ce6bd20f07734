// SPDX-License-Identifier: LGPL-3.0-or-later
// cli/heap's huge-page heap, in child processes (it changes malloc for the
// whole process): the size bounds, the heap grown and advised (the range's
// VMA carries the "hg" flag in /proc/self/smaps), blocks from every thread
// served there and their contents intact.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/heap.hpp"

namespace bigmul::test {
namespace {

// Runs body() in a child; its exit status (0: passed).
template <class F>
int in_child(F body) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(body());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Whether the mapping holding p is advised as huge pages ("hg" in VmFlags).
bool advised_huge(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    if (std::sscanf(line.c_str(), "%lx%c%lx", &lo, &dash, &hi) == 3 && dash == '-') {
      inside = at >= lo && at < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line.find(" hg") != std::string::npos;
    }
  }
  return false;
}

bool transparent_huge_pages() { return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good(); }

TEST(CliHeap, SizesOutsideTheBoundsLeaveMallocAlone) {
  EXPECT_EQ(in_child([] { return cli::use_huge_page_heap(std::size_t{1} << 20) ? 1 : 0; }), 0);
  EXPECT_EQ(in_child([] { return cli::use_huge_page_heap(cli::heap_bytes_max + 1) ? 1 : 0; }), 0);
}

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer's allocator replaces malloc's heap: the CLI's call must
// refuse, and malloc must keep serving blocks from every thread.
TEST(CliHeap, RefusedUnderAddressSanitizerAndMallocStillServes) {
  const int status = in_child([] {
    if (cli::use_huge_page_heap(std::size_t{8} << 20)) return 1;
    std::vector<char*> blocks(4, nullptr);
    std::thread other([&] { blocks[0] = static_cast<char*>(std::malloc(1 << 20)); });
    other.join();
    for (std::size_t i = 1; i < blocks.size(); ++i) blocks[i] = static_cast<char*>(std::malloc(1 << 20));
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (!blocks[i]) return 2;
      std::memset(blocks[i], static_cast<int>(i + 1), 1 << 20);
    }
    for (std::size_t i = 0; i < blocks.size(); ++i)
      if (blocks[i][(1 << 20) - 1] != static_cast<char>(i + 1)) return 4;
    for (char* b : blocks) std::free(b);
    return 0;
  });
  EXPECT_EQ(status, 0);
}
#else
TEST(CliHeap, BlocksFromEveryThreadComeFromTheAdvisedHeap) {
  if (!transparent_huge_pages()) GTEST_SKIP() << "no transparent huge pages in this kernel";
  for (const std::size_t bytes : {std::size_t{8} << 20, std::size_t{200} << 20}) {
    const int status = in_child([bytes] {
      if (!cli::use_huge_page_heap(bytes)) return 1;
      // Blocks of 1 MB (over malloc's default mmap threshold) on this thread and another.
      std::vector<char*> blocks(4, nullptr);
      std::thread other([&] { blocks[0] = static_cast<char*>(std::malloc(1 << 20)); });
      other.join();
      for (std::size_t i = 1; i < blocks.size(); ++i) blocks[i] = static_cast<char*>(std::malloc(1 << 20));
      const auto brk_end = reinterpret_cast<std::uintptr_t>(::sbrk(0));
      for (std::size_t i = 0; i < blocks.size(); ++i) {
        if (!blocks[i] || reinterpret_cast<std::uintptr_t>(blocks[i]) >= brk_end) return 2;  // not from the heap
        if (!advised_huge(blocks[i])) return 3;
        std::memset(blocks[i], static_cast<int>(i + 1), 1 << 20);
      }
      for (std::size_t i = 0; i < blocks.size(); ++i)
        for (std::size_t k = 0; k < (1u << 20); k += 4093)
          if (blocks[i][k] != static_cast<char>(i + 1)) return 4;
      for (char* b : blocks) std::free(b);
      return 0;
    });
    EXPECT_EQ(status, 0) << bytes << " bytes";
  }
}
#endif

}  // namespace
}  // namespace bigmul::test
