// SPDX-License-Identifier: LGPL-3.0-or-later
// Thread pool and parallel loops shared by every CPU algorithm in bigmul.
//
// Why our own pool: the FFT, carry and scan passes are short (sub-millisecond at
// 10^5 digits), so a fresh std::thread per pass would cost more than the work.
// Workers are created once; between jobs a worker spins for a short, bounded
// window (detail::spin_window) watching for the next job, then sleeps on a
// condition variable, because waking a sleeping thread costs as much as a
// whole short pass.
// Results never depend on the thread count: callers partition work by index,
// not by which thread runs it.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>

namespace bigmul::prim {

// Threads the library may use when a call passes threads = 0: BIGMUL_THREADS from
// the environment if set, otherwise std::thread::hardware_concurrency().
unsigned default_threads();

// Overrides default_threads() for the whole process (0 restores the default).
void set_default_threads(unsigned threads);

// Runs task(i) for every i in [0, tasks) on up to `threads` threads (0: the
// default); the calling thread takes part. Blocks until every task has run.
// A call made from inside a task runs its tasks serially on the calling thread,
// so nested parallel code is safe. An exception thrown by a task is rethrown
// here after the other tasks have finished.
void parallel_for(std::size_t tasks, unsigned threads,
                  const std::function<void(std::size_t)>& task);

// Number of chunks to split n items into so that each chunk has at least
// `grain` items and there are at most `threads` * 4 chunks (for balance).
std::size_t chunk_count(std::size_t n, std::size_t grain, unsigned threads);

// Splits [0, n) into chunk_count(n, grain, threads) contiguous chunks and runs
// body(begin, end) for each in parallel. Chunk boundaries depend only on n,
// grain and threads.
template <class Body>
void parallel_chunks(std::size_t n, std::size_t grain, unsigned threads, Body&& body) {
  const std::size_t chunks = chunk_count(n, grain, threads);
  if (chunks <= 1) {
    if (n) body(std::size_t{0}, n);
    return;
  }
  parallel_for(chunks, threads, [&](std::size_t c) {
    body(n * c / chunks, n * (c + 1) / chunks);
  });
}

// Resolves a thread request: 0 means default_threads(); never returns 0.
unsigned resolve_threads(unsigned threads);

namespace detail {
// How long an idle pool thread watches for the next job before it sleeps.
std::chrono::microseconds spin_window();
// Pool threads asleep on the condition variable right now, and whether that is
// every pool thread (tests use them to reach the sleep/wake path without
// relying on timing).
unsigned sleeping_workers();
bool all_workers_asleep();
}  // namespace detail

}  // namespace bigmul::prim
