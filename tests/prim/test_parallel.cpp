#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "prim/parallel.hpp"

using namespace bigmul::prim;

TEST(Parallel, EveryTaskRunsOnce) {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    for (std::size_t tasks : {0u, 1u, 2u, 7u, 1000u}) {
      std::vector<std::atomic<int>> hits(tasks);
      parallel_for(tasks, threads, [&](std::size_t i) { hits[i].fetch_add(1); });
      for (std::size_t i = 0; i < tasks; ++i) EXPECT_EQ(hits[i].load(), 1) << "task " << i;
    }
  }
}

TEST(Parallel, NestedCallsRunSerially) {
  std::atomic<int> total{0};
  parallel_for(4, 4, [&](std::size_t) {
    parallel_for(10, 4, [&](std::size_t) { total.fetch_add(1); });
  });
  EXPECT_EQ(total.load(), 40);
}

TEST(Parallel, ExceptionIsRethrownAfterAllTasks) {
  std::atomic<int> ran{0};
  EXPECT_THROW(parallel_for(100, 4,
                            [&](std::size_t i) {
                              ran.fetch_add(1);
                              if (i == 17) throw std::runtime_error("boom");
                            }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 100);
}

TEST(Parallel, ChunksCoverRangeExactly) {
  for (unsigned threads : {1u, 2u, 5u}) {
    for (std::size_t n : {0u, 1u, 100u, 12345u}) {
      std::vector<int> seen(n, 0);
      parallel_chunks(n, 10, threads, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) seen[i]++;
      });
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i], 1);
    }
  }
}
