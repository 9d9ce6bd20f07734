// SPDX-License-Identifier: LGPL-3.0-or-later
// CPU block emulator of the packed decoupled look-back
// (prim/cuda/lookback_packed.hpp, the scan_algorithm::lookback_packed
// kernel): blocks are state machines whose every 64-bit load or store of a
// tile descriptor is one step, the two words of a descriptor written and read
// in either order (a 128-bit vector access is two unordered 64-bit ones), and
// a scheduler interleaves the steps adversarially: uniformly at random, the
// latest tiles first, or pausing every writer between its two stores while
// the others read (torn descriptors). Each tile's carry-in must equal the
// sequential fold of the earlier tiles, for a one-word type (int32 plus) and
// two-word ones (int64 plus across the halves, and affine maps: not
// commutative). The encode / decode / window fold / backoff are the very
// functions the kernel calls; the warp's ballot and reduction are replaced by
// their sequential meaning.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "prim/cuda/lookback_packed.hpp"

namespace lb = bigmul::prim::lookback;

namespace {

struct affine {  // x -> a x + b (mod 2^32)
  std::uint32_t a, b;
  bool operator==(const affine& o) const { return a == o.a && b == o.b; }
};
struct affine_op {  // earlier, later: apply earlier first
  affine operator()(const affine& e, const affine& l) const { return {l.a * e.a, l.a * e.b + l.b}; }
};
struct plus32 {
  std::int32_t operator()(std::int32_t x, std::int32_t y) const {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) + static_cast<std::uint32_t>(y));
  }
};
struct plus64 {
  std::int64_t operator()(std::int64_t x, std::int64_t y) const {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(y));
  }
};

enum class schedule { random, latest_first, tear };

constexpr unsigned lanes = 32;

template <class T, class Op>
class emulator {
  static constexpr unsigned W = lb::words<T>;

  struct block {
    int pc = 0;  // 0 take a tile, 1 publish the aggregate, 2 look back, 3 publish the prefix, 4 done
    long long tile = -1;
    unsigned sub = 0, lane = 0;
    bool swap = false;  // this access's two words in the other order
    long long window = 0;
    std::uint64_t seen[lanes][2] = {};
    T running{}, before{};
  };

 public:
  emulator(std::vector<T> aggregates, Op op, T identity, schedule how, std::uint64_t seed)
      : agg_(std::move(aggregates)), op_(op), id_(identity), how_(how), g_(seed),
        mem_(agg_.size() * W, 0), blocks_(agg_.size()) {}

  // Runs every block to the end; false if the step budget ran out (livelock).
  bool run() {
    const std::size_t budget = 4000000;
    for (std::size_t s = 0; s < budget; ++s) {
      const int b = pick();
      if (b < 0) return true;
      step(blocks_[std::size_t(b)]);
    }
    return false;
  }

  // Carry-in of each tile (the total of the tiles before it).
  std::vector<T> carry_ins() const {
    std::vector<T> c(agg_.size());
    for (const block& b : blocks_) c[std::size_t(b.tile)] = b.before;
    return c;
  }
  std::size_t torn_reads() const { return torn_; }
  std::size_t retries() const { return retries_; }

 private:
  int pick() {
    std::vector<int> live;
    for (std::size_t i = 0; i < blocks_.size(); ++i)
      if (blocks_[i].pc != 4) live.push_back(int(i));
    if (live.empty()) return -1;
    std::uniform_int_distribution<std::size_t> any(0, live.size() - 1);
    if (how_ == schedule::latest_first && g_() % 16) {
      int best = live[0];  // the block holding the latest tile (or still without one)
      for (int i : live) {
        const long long t = blocks_[std::size_t(i)].tile;
        if (t < 0 || t > blocks_[std::size_t(best)].tile) best = i;
      }
      return best;
    }
    if (how_ == schedule::tear) {  // a writer between its two stores waits while others run
      std::vector<int> others;
      for (int i : live) {
        const block& b = blocks_[std::size_t(i)];
        if (!((b.pc == 1 || b.pc == 3) && b.sub == 1)) others.push_back(i);
      }
      if (!others.empty() && g_() % 64) return others[g_() % others.size()];
    }
    return live[any(g_)];
  }

  void store_word(block& b, std::uint32_t status, const T& v) {
    if (b.sub == 0) b.swap = W == 2 && (g_() & 1);
    std::uint64_t w[W];
    lb::encode(status, v, w);
    const unsigned k = b.swap ? W - 1 - b.sub : b.sub;
    mem_[std::size_t(b.tile) * W + k] = w[k];
    ++b.sub;
  }

  void step(block& b) {
    switch (b.pc) {
      case 0:
        b.tile = next_tile_++;
        b.pc = 1;
        b.sub = 0;
        return;
      case 1:
        store_word(b, b.tile == 0 ? lb::status_prefix : lb::status_aggregate, agg_[std::size_t(b.tile)]);
        if (b.sub < W) return;
        if (b.tile == 0) {
          b.before = id_;
          b.pc = 4;
          return;
        }
        b.pc = 2;
        b.window = b.tile - 1;
        b.lane = b.sub = 0;
        b.running = id_;
        return;
      case 2: look_back_step(b); return;
      case 3:
        store_word(b, lb::status_prefix, op_(b.before, agg_[std::size_t(b.tile)]));
        if (b.sub == W) b.pc = 4;
        return;
      default: return;
    }
  }

  // One load of one lane's word; after the last lane, the warp's decision.
  void look_back_step(block& b) {
    const long long idx = b.window - static_cast<long long>(b.lane);
    if (idx >= 0) {
      if (b.sub == 0) b.swap = W == 2 && (g_() & 1);
      const unsigned k = b.swap ? W - 1 - b.sub : b.sub;
      b.seen[b.lane][k] = mem_[std::size_t(idx) * W + k];
      if (++b.sub < W) return;
    }
    b.sub = 0;
    if (++b.lane < lanes) return;
    b.lane = 0;
    std::uint32_t st[lanes];
    T v[lanes];
    bool any_invalid = false;
    for (unsigned i = 0; i < lanes; ++i) {
      v[i] = id_;
      st[i] = lb::status_prefix;
      if (b.window - static_cast<long long>(i) < 0) continue;
      std::uint64_t w[W];
      for (unsigned k = 0; k < W; ++k) w[k] = b.seen[i][k];
      st[i] = lb::decode(w, v[i]);
      if (W == 2 && (w[0] >> 32) != (w[1] >> 32)) ++torn_;
      any_invalid |= st[i] == lb::status_invalid;
    }
    if (any_invalid) {
      ++retries_;
      backoff_ = lb::next_backoff(backoff_);
      return;  // read the same window again
    }
    T fold;
    const bool done = lb::fold_window(st, v, lanes, op_, id_, fold);
    b.running = op_(fold, b.running);
    if (done) {
      b.before = b.running;
      b.pc = 3;
      return;
    }
    b.window -= lanes;
  }

  std::vector<T> agg_;
  Op op_;
  T id_;
  schedule how_;
  std::mt19937_64 g_;
  std::vector<std::uint64_t> mem_;
  std::vector<block> blocks_;
  long long next_tile_ = 0;
  std::size_t torn_ = 0, retries_ = 0;
  unsigned backoff_ = 0;
};

template <class T, class Op>
void check_all_schedules(const std::vector<T>& agg, Op op, T identity, const std::string& what) {
  std::vector<T> want(agg.size());
  T acc = identity;
  for (std::size_t t = 0; t < agg.size(); ++t) {
    want[t] = acc;
    acc = op(acc, agg[t]);
  }
  std::size_t torn = 0;
  for (schedule how : {schedule::random, schedule::latest_first, schedule::tear}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      emulator<T, Op> e(agg, op, identity, how, seed * 7919 + agg.size());
      ASSERT_TRUE(e.run()) << what << ": livelock, schedule " << int(how) << " seed " << seed;
      const std::vector<T> got = e.carry_ins();
      for (std::size_t t = 0; t < agg.size(); ++t)
        ASSERT_TRUE(got[t] == want[t]) << what << ": tile " << t << ", schedule " << int(how) << " seed " << seed;
      if (how == schedule::tear) torn += e.torn_reads();
      if (how == schedule::latest_first && agg.size() > lanes) {
        EXPECT_GT(e.retries(), 0u) << what << ": no reader ever waited";
      }
    }
  }
  // The two-word descriptors were read torn (and survived it).
  if (lb::words<T> == 2 && agg.size() > 2) {
    EXPECT_GT(torn, 0u) << what;
  }
}

TEST(LookbackModel, EncodeDecodeRoundTripsAndRejectsTears) {
  std::uint64_t w[2];
  const std::int64_t v = -0x123456789abcdefLL;
  lb::encode(lb::status_aggregate, v, w);
  std::int64_t r = 0;
  EXPECT_EQ(lb::decode(w, r), lb::status_aggregate);
  EXPECT_EQ(r, v);
  std::uint64_t p[2];
  lb::encode(lb::status_prefix, std::int64_t{7}, p);
  std::uint64_t torn[2] = {p[0], w[1]};
  EXPECT_EQ(lb::decode(torn, r), lb::status_invalid);
  std::uint64_t half[2] = {w[0], 0};
  EXPECT_EQ(lb::decode(half, r), lb::status_invalid);
  std::uint64_t zero[1] = {0};
  std::int32_t x = 5;
  EXPECT_EQ(lb::decode(zero, x), lb::status_invalid);
  EXPECT_EQ(lb::next_backoff(0), 32u);
  EXPECT_EQ(lb::next_backoff(32), 64u);
  EXPECT_EQ(lb::next_backoff(1024), 1024u);
}

TEST(LookbackModel, OneWordInt32) {
  std::mt19937_64 g(41);
  for (std::size_t tiles : {1u, 2u, 33u, 70u}) {
    std::vector<std::int32_t> agg(tiles);
    for (auto& x : agg) x = static_cast<std::int32_t>(g());
    check_all_schedules(agg, plus32{}, std::int32_t{0}, "int32 x" + std::to_string(tiles));
  }
}

TEST(LookbackModel, TwoWordInt64) {
  std::mt19937_64 g(42);
  for (std::size_t tiles : {2u, 70u}) {
    std::vector<std::int64_t> agg(tiles);
    for (auto& x : agg) x = static_cast<std::int64_t>(g());
    check_all_schedules(agg, plus64{}, std::int64_t{0}, "int64 x" + std::to_string(tiles));
  }
}

TEST(LookbackModel, TwoWordAffineNotCommutative) {
  std::mt19937_64 g(43);
  for (std::size_t tiles : {3u, 67u}) {
    std::vector<affine> agg(tiles);
    for (auto& x : agg) x = {static_cast<std::uint32_t>(g()) | 1u, static_cast<std::uint32_t>(g())};
    check_all_schedules(agg, affine_op{}, affine{1, 0}, "affine x" + std::to_string(tiles));
  }
}

}  // namespace
