// SPDX-License-Identifier: LGPL-3.0-or-later
// The key of a captured GPU FFT pass (mul/cuda/pass_graph_key.hpp), on the
// CPU in every build: a graph replays fixed kernel arguments, so keys that
// differ in any shape field, flag, device, stream or buffer must differ (a
// hit would replay the wrong pass); equal fields must hit. The cache itself
// is fft/cuda/plan_cache.hpp's lru_cache (tests/fft/test_fft_plan_cache.cpp);
// here it holds graph keys, and clear() (cuda_release_plans) empties it.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "fft/cuda/plan_cache.hpp"
#include "mul/cuda/pass_graph_key.hpp"

using bigmul::detail::cuda::pass_graph_key;

namespace {

pass_graph_key base_key() {
  static int buffers[6];
  pass_graph_key k;
  k.device = 1;
  k.stream = &buffers[0];
  k.temp = &buffers[1];
  k.r = &buffers[2];
  k.a = &buffers[3];
  k.b = &buffers[4];
  k.algo = 2;
  k.engine = 1;
  k.rx = 1;
  k.digits = 16;
  k.an = 1000;
  k.bn = 900;
  k.G = 3;
  return k;
}

TEST(PassGraphKey, EveryFieldTellsKeysApart) {
  static int other;
  const std::vector<std::function<void(pass_graph_key&)>> changes = {
      [](pass_graph_key& k) { k.device = 0; },        [](pass_graph_key& k) { k.stream = &other; },
      [](pass_graph_key& k) { k.temp = &other; },     [](pass_graph_key& k) { k.r = &other; },
      [](pass_graph_key& k) { k.a = &other; },        [](pass_graph_key& k) { k.b = &other; },
      [](pass_graph_key& k) { k.algo = 3; },          [](pass_graph_key& k) { k.engine = 0; },
      [](pass_graph_key& k) { k.rx = 0; },            [](pass_graph_key& k) { k.digits = 15; },
      [](pass_graph_key& k) { k.an = 1001; },         [](pass_graph_key& k) { k.bn = 899; },
      [](pass_graph_key& k) { k.G = 4; },             [](pass_graph_key& k) { k.square = true; },
      [](pass_graph_key& k) { k.fused_split = true; }, [](pass_graph_key& k) { k.fused_carry = true; },
      [](pass_graph_key& k) { k.fused_join = true; }, [](pass_graph_key& k) { k.fused_tail = true; },
      [](pass_graph_key& k) { k.two_pass = true; }};
  EXPECT_TRUE(base_key() == base_key());
  for (std::size_t i = 0; i < changes.size(); ++i) {
    pass_graph_key k = base_key();
    changes[i](k);
    EXPECT_TRUE(k != base_key()) << "field change " << i;
    EXPECT_FALSE(k == base_key()) << "field change " << i;
  }
}

TEST(PassGraphKey, CacheHitsEqualKeysAndClears) {
  bigmul::fft::cuda::lru_cache<pass_graph_key, int> cache(16);
  int made = 0;
  const auto make = [&] { return std::make_shared<const int>(++made); };
  const auto first = cache.get(base_key(), make);
  EXPECT_EQ(*cache.get(base_key(), make), *first);  // same shape, same buffers: the captured pass
  pass_graph_key moved = base_key();
  moved.r = &made;  // another product buffer: another graph
  EXPECT_NE(*cache.get(moved, make), *first);
  EXPECT_EQ(made, 2);
  cache.clear();  // cuda_release_plans: every graph goes with the plans it names
  EXPECT_NE(*cache.get(base_key(), make), *first);
  EXPECT_EQ(made, 3);
}

}  // namespace
