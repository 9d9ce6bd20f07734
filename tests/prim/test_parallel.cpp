// SPDX-License-Identifier: LGPL-3.0-or-later
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <thread>
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

// ---- The pool's spin-then-sleep handoff: every job, whichever path its helpers took to it (still
// spinning, asleep and woken, or joining late), must give the serial loop's results.

namespace {

// A value that depends on the job and the task index, so a task run twice, skipped, or run with
// another job's inputs shows up as a mismatch.
std::uint64_t mix(std::uint64_t job, std::uint64_t i) {
  std::uint64_t x = job * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull + 1;
  x ^= x >> 31;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 29);
}

// Runs job `job` with `tasks` tasks on `threads` threads and checks it against the serial loop.
void expect_job_matches_serial(std::uint64_t job, std::size_t tasks, unsigned threads) {
  std::vector<std::uint64_t> out(tasks, 0), want(tasks);
  for (std::size_t i = 0; i < tasks; ++i) want[i] = mix(job, i);
  parallel_for(tasks, threads, [&](std::size_t i) { out[i] += mix(job, i); });
  ASSERT_EQ(out, want) << "job " << job << ", " << tasks << " tasks on " << threads << " threads";
}

// Waits until every pool thread sleeps: a worker that spins forever is a bug (the spin must be
// bounded), and the next job then reaches its helpers only through a wake-up, without guessing how
// long the spin lasts under load.
void wait_until_every_worker_sleeps() {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!detail::all_workers_asleep()) {
    ASSERT_LT(std::chrono::steady_clock::now(), give_up) << "no pool thread went to sleep: unbounded spin";
    std::this_thread::sleep_for(detail::spin_window());
  }
}

}  // namespace

TEST(ParallelPool, BackToBackJobsWithGapsAcrossTheSpinWindow) {
  const auto w = detail::spin_window();
  const std::chrono::microseconds gaps[] = {std::chrono::microseconds(0), w / 4, w * 2, w * 20};
  std::uint64_t job = 0;
  for (unsigned threads : {2u, 3u, 8u}) {
    for (const auto gap : gaps) {
      for (std::size_t tasks : {2u, 3u, 17u, 300u}) {
        for (int r = 0; r < (gap > w ? 5 : 20); ++r) {
          expect_job_matches_serial(++job, tasks, threads);
          if (gap.count()) std::this_thread::sleep_for(gap);
        }
      }
    }
  }
}

TEST(ParallelPool, JobAfterEveryWorkerSleptStillRunsEveryTask) {
  for (unsigned threads : {2u, 4u}) {
    expect_job_matches_serial(1, 64, threads);
    wait_until_every_worker_sleeps();
    ASSERT_GT(detail::sleeping_workers(), 0u);
    expect_job_matches_serial(2, 64, threads);  // wakes a sleeper (or runs on the caller alone)
    expect_job_matches_serial(3, 64, threads);  // right after: helpers still spinning
  }
}

TEST(ParallelPool, CallerWaitsForAHelperPastTheSpinWindow) {
  // The caller takes task 0 first; while it sleeps a window, a helper takes task 1, which outlasts the
  // caller's spin, so the caller ends up asleep waiting for it (a lost wake-up there hangs this test).
  for (int r = 0; r < 10; ++r) {
    std::vector<int> out(2, 0);
    parallel_for(2, 2, [&](std::size_t i) {
      std::this_thread::sleep_for(detail::spin_window() * (i == 0 ? 1 : 5));
      out[i] = static_cast<int>(i) + 1;
    });
    EXPECT_EQ(out, (std::vector<int>{1, 2}));
  }
}

TEST(ParallelPool, ExceptionAfterASpinAndAfterASleep) {
  for (int path = 0; path < 2; ++path) {
    expect_job_matches_serial(10 + path, 32, 2);
    if (path == 1) wait_until_every_worker_sleeps();
    std::vector<std::atomic<int>> hits(100);
    EXPECT_THROW(parallel_for(100, 2,
                              [&](std::size_t i) {
                                hits[i].fetch_add(1);
                                if (i == 3 || i == 71) throw std::runtime_error("task failed");
                              }),
                 std::runtime_error);
    for (std::size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].load(), 1) << "task " << i;
    // The failed job leaves no state behind: the next one, at once, is whole and throws nothing.
    expect_job_matches_serial(20 + path, 100, 2);
  }
}

TEST(ParallelPool, NestedCallsAfterSpinsMatchSerial) {
  for (int r = 0; r < 50; ++r) {
    std::vector<std::uint64_t> out(6 * 9, 0), want(6 * 9);
    for (std::size_t i = 0; i < want.size(); ++i) want[i] = mix(r, i);
    parallel_for(6, 2, [&](std::size_t outer) {
      parallel_for(9, 2, [&](std::size_t inner) { out[outer * 9 + inner] += mix(r, outer * 9 + inner); });
    });
    ASSERT_EQ(out, want) << "round " << r;
  }
}

TEST(ParallelPool, ManyShortJobsFromTwoUserThreadsAtOnce) {
  // Two threads share one pool: their jobs queue on it and must not see each other's tasks.
  std::atomic<int> failures{0};
  auto user = [&](std::uint64_t base, unsigned threads) {
    for (std::uint64_t j = 0; j < 1500; ++j) {
      const std::size_t tasks = 1 + (j * 7) % 40;
      std::vector<std::uint64_t> out(tasks, 0);
      parallel_for(tasks, threads, [&](std::size_t i) { out[i] += mix(base + j, i); });
      for (std::size_t i = 0; i < tasks; ++i)
        if (out[i] != mix(base + j, i)) failures.fetch_add(1);
      if (j % 100 == 99) std::this_thread::sleep_for(detail::spin_window() * 2);
    }
  };
  std::thread a(user, 1u << 20, 2u), b(user, 2u << 20, 3u);
  a.join();
  b.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(ParallelPool, DefaultThreadsChangesBetweenJobs) {
  for (unsigned t : {2u, 5u, 1u, 3u, 0u}) {
    set_default_threads(t);
    expect_job_matches_serial(100 + t, 50, 0);
  }
  set_default_threads(0);
}
