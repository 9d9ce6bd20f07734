// SPDX-License-Identifier: LGPL-3.0-or-later
// The GPU radix sort's passes (prim/cuda/device_radix_sort.cu) replayed on the
// CPU with the same index math (prim/cuda/radix_sort_hd.hpp): per block the
// digit counts into the digit-major table, its exclusive scan, and the
// scatter in rounds of 256 threads with each warp's match emulated (peers =
// lanes of the warp with the same digit). After every pass the keys must be
// stably sorted by the digits so far (std::stable_sort on the masked bits),
// the ping-pong must end in the output, and the result must equal std::sort:
// random keys, one repeated key, descending runs, signed extremes, few
// distinct digits, sizes around the tile and the warp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "prim/cuda/radix_sort_hd.hpp"

namespace rx = bigmul::prim::radix;

namespace {

// One pass of the device sort over digit p: src -> dst.
template <class U>
void emulate_pass(const std::vector<U>& src, std::vector<U>& dst, unsigned p, U in_flip, U out_flip) {
  const std::size_t n = src.size(), blocks = rx::tiles_for(n);
  std::vector<std::uint64_t> count(std::size_t{rx::radix} * blocks, 0), offset(count.size());
  for (std::size_t b = 0; b < blocks; ++b)  // count_kernel
    for (unsigned r = 0; r < rx::rounds; ++r)
      for (unsigned t = 0; t < rx::threads; ++t) {
        const std::size_t e = rx::element_of(b, r, t);
        if (e < n) ++count[rx::count_index(rx::digit(U(src[e] ^ in_flip), p), b, blocks)];
      }
  std::uint64_t acc = 0;  // the exclusive scan
  for (std::size_t i = 0; i < count.size(); ++i) {
    offset[i] = acc;
    acc += count[i];
  }
  for (std::size_t b = 0; b < blocks; ++b) {  // scatter_kernel
    std::uint64_t base[rx::radix];
    for (unsigned d = 0; d < rx::radix; ++d) base[d] = offset[rx::count_index(d, b, blocks)];
    for (unsigned r = 0; r < rx::rounds; ++r) {
      unsigned warp_count[rx::warps][rx::radix] = {};
      unsigned dig[rx::threads];
      bool valid[rx::threads];
      for (unsigned t = 0; t < rx::threads; ++t) {
        const std::size_t e = rx::element_of(b, r, t);
        valid[t] = e < n;
        dig[t] = valid[t] ? rx::digit(U(src[e] ^ in_flip), p) : rx::radix;
      }
      for (unsigned t = 0; t < rx::threads; ++t)
        if (valid[t]) ++warp_count[t / 32][dig[t]];
      for (unsigned t = 0; t < rx::threads; ++t) {
        if (!valid[t]) continue;
        const unsigned w = t / 32, lane = t % 32;
        unsigned earlier_lanes = 0, earlier_warps = 0;
        for (unsigned l = 0; l < lane; ++l) earlier_lanes += dig[w * 32 + l] == dig[t];  // the match's lower peers
        for (unsigned v = 0; v < w; ++v) earlier_warps += warp_count[v][dig[t]];
        const std::size_t pos = rx::scatter_position(base[dig[t]], earlier_warps, earlier_lanes);
        ASSERT_LT(pos, n);
        dst[pos] = U(src[rx::element_of(b, r, t)] ^ in_flip ^ out_flip);
      }
      for (unsigned d = 0; d < rx::radix; ++d)
        for (unsigned v = 0; v < rx::warps; ++v) base[d] += warp_count[v][d];
    }
  }
}

template <class K>
void check_sort(const std::vector<K>& keys, const std::string& what) {
  using U = rx::bits_of<K>;
  constexpr unsigned P = rx::passes<K>;
  const U flip = rx::sign_flip<K>();
  const std::size_t n = keys.size();
  std::vector<U> in(n), out(n, U(0x5a)), scratch(n, U(0xa5));
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<U>(keys[i]);
  // The sortable bits, for the per-pass stability check.
  std::vector<U> bits(n);
  for (std::size_t i = 0; i < n; ++i) bits[i] = U(in[i] ^ flip);
  const std::vector<U>* src = &in;
  for (unsigned p = 0; p < P; ++p) {
    const bool to_out = rx::pass_writes_output(p, P);
    std::vector<U>& dst = to_out ? out : scratch;
    ASSERT_NE(src, &dst) << what;
    emulate_pass(*src, dst, p, p == 0 ? flip : U(0), p + 1 == P ? flip : U(0));
    if (testing::Test::HasFatalFailure()) return;
    // Stably sorted by the low p + 1 digits.
    const U mask = p + 1 == P ? U(~U(0)) : U((U(1) << ((p + 1) * rx::digit_bits)) - 1);
    std::vector<U> want = bits;
    std::stable_sort(want.begin(), want.end(), [&](U a, U b) { return U(a & mask) < U(b & mask); });
    std::vector<U> got = dst;
    if (p + 1 == P)
      for (U& x : got) x = U(x ^ flip);
    ASSERT_TRUE(got == want) << what << ": pass " << p << " is not a stable sort by its digits";
    src = &dst;
  }
  ASSERT_EQ(src, &out) << what << ": the last pass did not write the output";
  std::vector<K> want = keys, got(n);
  std::sort(want.begin(), want.end());
  for (std::size_t i = 0; i < n; ++i) got[i] = static_cast<K>(out[i]);
  ASSERT_TRUE(got == want) << what;
}

template <class K>
void check_kinds(std::mt19937_64& g) {
  const K lo = std::numeric_limits<K>::min(), hi = std::numeric_limits<K>::max();
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{33}, rx::tile - 1, rx::tile,
                        rx::tile + 1, 3 * rx::tile + 257}) {
    std::vector<K> random(n), same(n, K(7)), descending(n), extremes(n), few(n);
    for (std::size_t i = 0; i < n; ++i) {
      random[i] = static_cast<K>(g());
      descending[i] = static_cast<K>(hi - K(i % 1000));
      const K pick[] = {lo, K(lo + 1), K(-1), K(0), K(1), K(hi - 1), hi};
      extremes[i] = std::is_signed_v<K> ? pick[g() % 7] : pick[3 + g() % 4];
      few[i] = static_cast<K>(K(g() % 3) << (8 * (g() % sizeof(K))));  // few distinct digits per pass
    }
    const std::string s = " n=" + std::to_string(n) + " " + std::to_string(sizeof(K) * 8) +
                          (std::is_signed_v<K> ? "-bit signed" : "-bit unsigned");
    check_sort(random, "random" + s);
    check_sort(same, "one key" + s);
    check_sort(descending, "descending" + s);
    check_sort(extremes, "extremes" + s);
    check_sort(few, "few digits" + s);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(RadixSortModel, PassesAreStableAndComposeIntoASort) {
  std::mt19937_64 g(77);
  check_kinds<std::int32_t>(g);
  check_kinds<std::uint32_t>(g);
  check_kinds<std::int64_t>(g);
  check_kinds<std::uint64_t>(g);
}

TEST(RadixSortModel, DigitsAndSignFlip) {
  EXPECT_EQ(rx::passes<std::int32_t>, 4u);
  EXPECT_EQ(rx::passes<std::uint64_t>, 8u);
  EXPECT_EQ(rx::sign_flip<std::int32_t>(), 0x80000000u);
  EXPECT_EQ(rx::sign_flip<std::uint32_t>(), 0u);
  EXPECT_EQ(rx::digit(std::uint32_t{0x12345678}, 1), 0x56u);
  EXPECT_TRUE(rx::pass_writes_output(3, 4));
  EXPECT_FALSE(rx::pass_writes_output(0, 4));
}

}  // namespace
