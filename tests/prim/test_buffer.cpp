// SPDX-License-Identifier: LGPL-3.0-or-later
// prim::buffer (prim/buffer.hpp): the NTT's scratch and the shared twiddle
// tables live in it; small and huge-page-sized blocks must behave alike.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "prim/buffer.hpp"

namespace {

using bigmul::prim::buffer;
using u64 = std::uint64_t;

bool aligned(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

TEST(Buffer, EmptyAndZeroSizeHoldNothing) {
  buffer<u64> a, b(0);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(b.size(), 0u);
}

// Below the huge-page size: cache-line aligned; from it on (and one element
// either side of it): 2 MiB aligned, the whole range writable.
TEST(Buffer, AlignmentAndFullRangeAroundTheHugePageSize) {
  constexpr std::size_t huge = buffer<u64>::huge_page / sizeof(u64);
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, huge - 1, huge, huge + 1, 5 * huge + 3}) {
    buffer<u64> b(n);
    ASSERT_NE(b.data(), nullptr);
    ASSERT_EQ(b.size(), n);
    EXPECT_TRUE(aligned(b.data(), n * sizeof(u64) >= buffer<u64>::huge_page ? buffer<u64>::huge_page : 64)) << n;
    for (std::size_t i = 0; i < n; ++i) b[i] = i * 0x9e3779b97f4a7c15ull;
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(b[i], i * 0x9e3779b97f4a7c15ull) << n << " " << i;
  }
}

TEST(Buffer, MovesTransferOwnershipSmallAndHuge) {
  for (std::size_t n : {std::size_t{100}, buffer<u64>::huge_page / sizeof(u64) + 1}) {
    buffer<u64> a(n);
    a[0] = 1;
    a[n - 1] = 2;
    u64* p = a.data();
    buffer<u64> b(std::move(a));
    EXPECT_EQ(a.data(), nullptr);
    EXPECT_EQ(a.size(), 0u);
    EXPECT_EQ(b.data(), p);
    EXPECT_EQ(b.size(), n);
    buffer<u64> c(3);
    c = std::move(b);  // c's old block freed, b's taken
    EXPECT_EQ(c.data(), p);
    EXPECT_EQ(c[0], 1u);
    EXPECT_EQ(c[n - 1], 2u);
    EXPECT_EQ(b.data(), nullptr);
    buffer<u64>& self = c;
    c = std::move(self);  // self-move keeps the block
    EXPECT_EQ(c.data(), p);
    EXPECT_EQ(c.size(), n);
    c = buffer<u64>();  // freed
    EXPECT_EQ(c.data(), nullptr);
  }
}

// The huge-page advice covers [2 MiB, 64 MiB] (prim/buffer.hpp says why);
// blocks past it still get the 2 MiB alignment and hold their values.
TEST(Buffer, HugePageAdviceOnlyBetweenTheBounds) {
  using B = buffer<u64>;
  EXPECT_FALSE(B::advise_huge(0));
  EXPECT_FALSE(B::advise_huge(B::huge_page - 1));
  EXPECT_TRUE(B::advise_huge(B::huge_page));
  EXPECT_TRUE(B::advise_huge(B::huge_page_max));
  EXPECT_FALSE(B::advise_huge(B::huge_page_max + 1));
  EXPECT_FALSE(B::advise_huge(std::size_t{1} << 34));
  const std::size_t n = B::huge_page_max / sizeof(u64) + 9;
  B b(n);
  EXPECT_TRUE(aligned(b.data(), B::huge_page));
  for (std::size_t i = 0; i < n; i += 4096) b[i] = i;
  b[n - 1] = 7;
  for (std::size_t i = 0; i < n - 1; i += 4096) ASSERT_EQ(b[i], i);
  EXPECT_EQ(b[n - 1], 7u);
}

}  // namespace
