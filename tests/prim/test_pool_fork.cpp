// SPDX-License-Identifier: LGPL-3.0-or-later
// A forked child of a process whose pool has workers must run parallel jobs and exit: before the
// pthread_atfork handler its exit hung joining workers that do not exist in the child.
#include "prim/parallel.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

std::uint64_t parallel_sum(std::size_t n, unsigned threads) {
  std::vector<std::uint64_t> v(n);
  bigmul::prim::parallel_for(n, threads, [&](std::size_t i) { v[i] = i * i + 1; });
  std::uint64_t s = 0;
  for (auto x : v) s += x;
  return s;
}

// Forks only once every worker sleeps. GCC 12's AddressSanitizer allocator takes no lock around fork(),
// so a worker still inside its start-up allocation would leave the child's allocator locked for ever
// (glibc's malloc is fork-safe; the deadlock is the sanitizer runtime's, not the pool's).
pid_t fork_with_pool_at_rest() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!bigmul::prim::detail::all_workers_asleep() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return fork();
}

std::uint64_t expected_sum(std::size_t n) {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += i * i + 1;
  return s;
}

TEST(PoolFork, ChildRunsParallelJobsAndExits) {
  ASSERT_EQ(parallel_sum(1000, 4), expected_sum(1000));  // the parent's pool now has workers
  const pid_t pid = fork_with_pool_at_rest();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(20);  // a hang kills the child with SIGALRM, which the parent reports
    bool ok = true;
    for (int k = 0; k < 50; ++k) ok = ok && parallel_sum(1000 + k, 4) == expected_sum(1000 + k);
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(PoolFork, ChildExitRunsPoolDestructor) {
  ASSERT_EQ(parallel_sum(1000, 4), expected_sum(1000));
  const pid_t pid = fork_with_pool_at_rest();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(20);
    const bool ok = parallel_sum(5000, 4) == expected_sum(5000);
    std::exit(ok ? 0 : 1);  // runs static destructors, the pool's included
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(parallel_sum(3000, 4), expected_sum(3000));  // the parent's pool still works
}

}  // namespace
