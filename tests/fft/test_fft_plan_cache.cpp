// SPDX-License-Identifier: LGPL-3.0-or-later
// The host bookkeeping of the GPU plan caches (fft/cuda/plan_cache.hpp), on the
// CPU: the bounded LRU cache of in-house FFT plans and the cuFFT plan cache whose
// executions each bind the caller's own work area, driven from 8 threads.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <vector>

#include "fft/cuda/plan_cache.hpp"

using bigmul::fft::cuda::exec_plan_cache;
using bigmul::fft::cuda::lru_cache;

namespace {

struct fake_plan {
  int id;
};

std::shared_ptr<const fake_plan> make_fake(int id, int& made) {
  ++made;
  return std::make_shared<const fake_plan>(fake_plan{id});
}

}  // namespace

TEST(LruPlanCache, EvictsLeastRecentlyUsedFirst) {
  lru_cache<int, fake_plan> c(3);
  int made = 0;
  for (int k : {1, 2, 3}) EXPECT_EQ(c.get(k, [&] { return make_fake(k, made); })->id, k);
  EXPECT_EQ(made, 3);
  EXPECT_EQ(c.keys(), (std::vector<int>{3, 2, 1}));
  // A hit makes the entry the most recent and builds nothing.
  EXPECT_EQ(c.get(1, [&] { return make_fake(-1, made); })->id, 1);
  EXPECT_EQ(made, 3);
  EXPECT_EQ(c.keys(), (std::vector<int>{1, 3, 2}));
  // A fourth key drops the least recently used (2), not the oldest inserted (1).
  c.get(4, [&] { return make_fake(4, made); });
  EXPECT_EQ(c.keys(), (std::vector<int>{4, 1, 3}));
  EXPECT_EQ(c.size(), 3u);
  c.get(2, [&] { return make_fake(2, made); });  // rebuilt after eviction
  EXPECT_EQ(made, 5);
  EXPECT_EQ(c.keys(), (std::vector<int>{2, 4, 1}));
}

TEST(LruPlanCache, TupleKeysAsTheDeviceCacheUsesThem) {
  using key = std::tuple<int, std::size_t, std::size_t>;  // device, n, G
  lru_cache<key, fake_plan> c(2);
  int made = 0;
  c.get(key{0, 1024, 1}, [&] { return make_fake(0, made); });
  c.get(key{1, 1024, 1}, [&] { return make_fake(1, made); });  // another device: another plan
  c.get(key{0, 1024, 1}, [&] { return make_fake(2, made); });
  EXPECT_EQ(made, 2);
  c.get(key{0, 1024, 2}, [&] { return make_fake(3, made); });  // another batch: evicts device 1's
  EXPECT_EQ(c.keys(), (std::vector<key>{key{0, 1024, 2}, key{0, 1024, 1}}));
}

TEST(LruPlanCache, ReleaseFreesUnheldPlansAndKeepsHeldOnesAlive) {
  lru_cache<int, fake_plan> c(4);
  int made = 0;
  std::weak_ptr<const fake_plan> unheld = c.get(1, [&] { return make_fake(1, made); });
  std::shared_ptr<const fake_plan> held = c.get(2, [&] { return make_fake(2, made); });
  std::weak_ptr<const fake_plan> evicted;
  {
    lru_cache<int, fake_plan> small(1);
    evicted = small.get(7, [&] { return make_fake(7, made); });
    small.get(8, [&] { return make_fake(8, made); });
    EXPECT_TRUE(evicted.expired()) << "an evicted plan nobody holds must be freed";
  }
  c.clear();
  EXPECT_EQ(c.size(), 0u);
  EXPECT_TRUE(unheld.expired()) << "release must free cached plans";
  ASSERT_TRUE(held);
  EXPECT_EQ(held->id, 2);  // a caller's plan outlives the release
  c.get(1, [&] { return make_fake(1, made); });
  EXPECT_EQ(made, 5);  // built again after the release
}

TEST(LruPlanCache, FailedBuildInsertsNothing) {
  lru_cache<int, fake_plan> c(2);
  EXPECT_THROW(c.get(1, []() -> std::shared_ptr<const fake_plan> { throw std::runtime_error("no memory"); }),
               std::runtime_error);
  EXPECT_EQ(c.size(), 0u);
}

TEST(LruPlanCache, BoundedUnderEightThreads) {
  lru_cache<int, fake_plan> c(4);
  std::atomic<int> made{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        const int k = (i * 7 + t) % 11;
        const auto p = c.get(k, [&] {
          ++made;
          return std::make_shared<const fake_plan>(fake_plan{k});
        });
        ASSERT_EQ(p->id, k);
        ASSERT_LE(c.size(), 4u);
      }
    });
  for (auto& th : pool) th.join();
  EXPECT_LE(c.size(), 4u);
  EXPECT_GT(made.load(), 11);  // more keys than room: plans were evicted and rebuilt
}

namespace {

// A stand-in for a cuFFT handle: the work area and stream bound to it, as
// cufftSetWorkArea / cufftSetStream do; a transform enqueued on it uses the
// work area bound at enqueue time.
struct fake_cufft {
  void* work = nullptr;
  int stream = -1;
};
using handle = fake_cufft*;
using key = std::tuple<int, int, std::size_t, std::size_t>;  // device, type, n, batch
using cache = exec_plan_cache<key, handle, int>;
constexpr int ok = 0, too_small = 1;
constexpr std::size_t work_bytes = 256;

}  // namespace

// 8 threads run the same (type, n, batch) at once, each on its own stream with its
// own work area. The plan is made once and shared; every execution must run in the
// caller's work area, so the "GPU" work of one thread (writing its pattern into the
// work area, after the cache's lock is released, as an asynchronous transform would)
// never meets another thread's.
TEST(CufftPlanCache, EightThreadsShareAPlanButNeverAWorkArea) {
  cache c(ok, too_small);
  std::atomic<int> made{0};
  std::vector<std::unique_ptr<fake_cufft>> handles;
  std::mutex handles_mu;
  const auto make = [&](cache::plan& p) {
    ++made;
    auto h = std::make_unique<fake_cufft>();
    p.handle = h.get();
    p.work_bytes = work_bytes;
    std::lock_guard<std::mutex> lock(handles_mu);
    handles.push_back(std::move(h));
    return ok;
  };
  std::atomic<int> corrupted{0}, foreign{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      std::vector<unsigned char> mine(work_bytes);
      for (int i = 0; i < 500; ++i) {
        void* used = nullptr;
        const int s = c.execute(key{0, 105, 1 << 12, 3}, make, mine.data(), mine.size(), [&](handle h, void* work) {
          h->stream = t;
          h->work = work;  // cufftSetWorkArea
          used = h->work;  // what the enqueued transform will read and write
          return ok;
        });
        ASSERT_EQ(s, ok);
        if (used != mine.data()) ++foreign;
        auto* w = static_cast<unsigned char*>(used);
        for (std::size_t j = 0; j < work_bytes; ++j) w[j] = static_cast<unsigned char>(t);
        std::this_thread::yield();
        for (std::size_t j = 0; j < work_bytes; ++j)
          if (w[j] != static_cast<unsigned char>(t)) {
            ++corrupted;
            break;
          }
      }
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(made.load(), 1) << "one plan per (device, type, n, batch), whatever the threads";
  EXPECT_EQ(c.size(), 1u);
  EXPECT_EQ(foreign.load(), 0) << "an execution ran outside the caller's work area";
  EXPECT_EQ(corrupted.load(), 0) << "two executions shared scratch";
}

TEST(CufftPlanCache, KeysPlansPerDeviceTypeLengthAndBatch) {
  cache c(ok, too_small);
  std::atomic<int> made{0};
  std::vector<std::unique_ptr<fake_cufft>> keep;
  std::mutex mu;
  const auto make = [&](cache::plan& p) {
    ++made;
    std::lock_guard<std::mutex> lock(mu);
    keep.push_back(std::make_unique<fake_cufft>());
    p.handle = keep.back().get();
    p.work_bytes = 0;  // some plans need no work area: a null one is accepted
    return ok;
  };
  const std::vector<key> keys = {key{0, 105, 64, 1}, key{1, 105, 64, 1}, key{0, 106, 64, 1}, key{0, 105, 128, 1},
                                 key{0, 105, 64, 2}};
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < 400; ++i) {
        const key& k = keys[(i + t) % keys.size()];
        std::size_t b = 99;
        ASSERT_EQ(c.work_bytes(k, make, b), ok);
        ASSERT_EQ(b, 0u);
        ASSERT_EQ(c.execute(k, make, nullptr, 0, [](handle, void*) { return ok; }), ok);
      }
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(made.load(), static_cast<int>(keys.size()));
  int destroyed = 0;
  c.clear([&](const key&, handle) { ++destroyed; });
  EXPECT_EQ(destroyed, static_cast<int>(keys.size()));
  EXPECT_EQ(c.size(), 0u);
}

TEST(CufftPlanCache, RefusesAMissingOrShortWorkAreaAndAFailedPlan) {
  cache c(ok, too_small);
  fake_cufft h;
  const auto make = [&](cache::plan& p) {
    p.handle = &h;
    p.work_bytes = work_bytes;
    return ok;
  };
  int runs = 0;
  const auto exec = [&](handle, void*) {
    ++runs;
    return ok;
  };
  std::vector<unsigned char> w(work_bytes);
  const key k{0, 105, 64, 1};
  EXPECT_EQ(c.execute(k, make, nullptr, 0, exec), too_small);
  EXPECT_EQ(c.execute(k, make, w.data(), work_bytes - 1, exec), too_small);
  EXPECT_EQ(runs, 0);
  EXPECT_EQ(c.execute(k, make, w.data(), work_bytes, exec), ok);
  EXPECT_EQ(runs, 1);
  std::size_t b = 0;
  EXPECT_EQ(c.work_bytes(k, make, b), ok);
  EXPECT_EQ(b, work_bytes);
  // A plan that cannot be made is not cached; the next call tries again.
  int tries = 0;
  const auto broken = [&](cache::plan&) {
    ++tries;
    return 7;
  };
  EXPECT_EQ(c.execute(key{0, 105, 3, 1}, broken, w.data(), work_bytes, exec), 7);
  EXPECT_EQ(c.work_bytes(key{0, 105, 3, 1}, broken, b), 7);
  EXPECT_EQ(tries, 2);
  EXPECT_EQ(c.size(), 1u);
}
