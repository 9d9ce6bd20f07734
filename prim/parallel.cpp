// SPDX-License-Identifier: LGPL-3.0-or-later
#include "prim/parallel.hpp"

#include "bigmul/error.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include <pthread.h>

#include <new>

namespace bigmul::prim {
namespace {

std::atomic<unsigned> g_override{0};
thread_local bool t_inside_task = false;

// BIGMUL_THREADS: unset or empty, or 0, all cores; else 1 .. 4096. Anything
// else is an error naming the variable (as BIGMUL_NTT_ENGINE's), not a silent
// fallback; thrown at each use, as a throwing static initializer runs again.
unsigned env_threads() {
  static const unsigned value = [] {
    const unsigned all = std::max(1u, std::thread::hardware_concurrency());
    const char* s = std::getenv("BIGMUL_THREADS");
    if (!s || !*s) return all;
    unsigned long v = 0;
    bool ok = true;
    for (const char* p = s; *p && ok; ++p) {
      ok = *p >= '0' && *p <= '9' && p - s < 8;
      if (ok) v = v * 10 + static_cast<unsigned long>(*p - '0');
    }
    if (!ok || v > 4096)
      throw error(error::kind::invalid_argument,
                  "BIGMUL_THREADS=" + std::string(s) + " is not a thread count (0 for all cores, or 1 to 4096)");
    return v == 0 ? all : static_cast<unsigned>(v);
  }();
  return value;
}

// How long a worker that has finished a job (or a caller waiting for its helpers) keeps watching for
// the next one before it sleeps on a condition variable. Waking a sleeping thread (futex wake plus
// scheduling) can take as long as a whole NTT level or carry pass at 10^4-10^5 digits, so a job whose
// helpers must be woken gains nothing. The window is long enough to catch back-to-back calls of a
// product's phases (bench/prim/bench_pool measures the trade-off).
// Bounded so that an idle pool burns at most this much of a core after its last job; past
// pause_only_length the spinner also yields, so on an oversubscribed machine (ctest -j2 on two cores,
// or a spinner sharing the caller's core) the runnable threads get the core.
constexpr std::chrono::microseconds spin_window_length{200};
constexpr std::chrono::microseconds pause_only_length{10};

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Polls ready() for up to spin_window_length; true as soon as it holds.
template <class Ready>
bool spin_until(Ready&& ready) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  for (;;) {
    if (ready()) return true;
    for (int k = 0; k < 8; ++k) cpu_relax();
    const auto elapsed = clock::now() - start;
    if (elapsed >= spin_window_length) return ready();
    if (elapsed >= pause_only_length) std::this_thread::yield();
  }
}

// One job at a time runs on the pool; concurrent callers from different threads queue on job_mutex_.
//
// Publishing a job: the caller writes the job's fields, then stores job_ = (generation + 1, helper slots)
// in one atomic word. A worker joins by taking a slot with a compare-exchange on that word, so it can only
// join the generation it read, and only while the job is open; the caller closes the job after its own
// share of the tasks by zeroing the slots (exchange), which tells it exactly how many helpers joined, and
// then waits until that many have reported finished_. The fields are rewritten only after that, so a
// slow worker never sees a half-written job.
//
// Sleeping without lost wake-ups: a worker that has spun spin_window_length without seeing a new generation
// takes mutex_, counts itself in sleepers_, re-reads job_ and only then waits on cv_; the caller stores
// job_ and then reads sleepers_ (all four accesses sequentially consistent). Either the worker's re-read
// sees the new generation, or the caller sees the sleeper and notifies -- after taking and releasing
// mutex_, so the worker is either still before its re-read (and will see the job) or already waiting
// (and gets the notification). The caller's wait for finished_ uses the same pattern with
// caller_waiting_ and done_cv_. Wake-ups only bring helpers; correctness never depends on them, since
// the caller runs every task no helper has claimed.
class pool {
 public:
  static pool& instance() {
    static pool p;
    return p;
  }

  void run(std::size_t tasks, unsigned threads, const std::function<void(std::size_t)>& task) {
    std::lock_guard<std::mutex> job_lock(job_mutex_);
    const std::uint64_t previous = generation(job_.load(std::memory_order_relaxed));
    ensure_workers(threads - 1, previous);
    task_ = &task;
    tasks_ = tasks;
    next_.store(0, std::memory_order_relaxed);
    finished_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    const std::uint64_t gen = (previous + 1) & slot_mask;  // wraps; workers only compare for inequality
    const unsigned wanted = threads - 1;
    job_.store(gen << 32 | wanted, std::memory_order_seq_cst);
    wake(wanted);
    work();
    const std::uint64_t left = job_.exchange(gen << 32, std::memory_order_acq_rel) & slot_mask;
    wait_finished(wanted - static_cast<unsigned>(left));
    task_ = nullptr;
    if (error_) {
      std::exception_ptr e = std::move(error_);
      error_ = nullptr;
      std::rethrow_exception(e);
    }
  }

  pool() { pthread_atfork(nullptr, nullptr, [] { instance().forget_after_fork(); }); }

  // In a forked child only the forking thread exists: the workers and any thread waiting on the
  // mutexes or condition variables are gone, so destroying or joining them would hang. Give the
  // child fresh synchronization objects and an empty pool (the old ones are leaked, never destroyed);
  // its next parallel job spawns new workers. The orphans stay reachable from a static list, so leak
  // checkers do not report them.
  void forget_after_fork() {
    static auto* orphans = new std::vector<std::thread>();
    for (auto& t : workers_) orphans->push_back(std::move(t));
    workers_.clear();
    new (&job_mutex_) std::mutex();
    new (&mutex_) std::mutex();
    new (&error_mutex_) std::mutex();
    new (&cv_) std::condition_variable();
    new (&done_cv_) std::condition_variable();
    task_ = nullptr;
    tasks_ = 0;
    next_.store(0);
    job_.store(0);
    finished_.store(0);
    sleepers_.store(0);
    worker_count_.store(0);
    caller_waiting_.store(false);
    stop_.store(false);
    new (&error_) std::exception_ptr();
  }

  unsigned sleepers() const { return sleepers_.load(std::memory_order_relaxed); }
  unsigned workers() const { return worker_count_.load(std::memory_order_relaxed); }

  ~pool() {
    stop_.store(true, std::memory_order_seq_cst);
    { std::lock_guard<std::mutex> lock(mutex_); }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

 private:
  static constexpr std::uint64_t slot_mask = 0xffffffffu;
  static std::uint64_t generation(std::uint64_t word) { return word >> 32; }

  void ensure_workers(unsigned n, std::uint64_t seen) {
    n = static_cast<unsigned>(std::min<std::uint64_t>(n, slot_mask));
    while (workers_.size() < n) {
      try {
        // `seen` is the generation before this call's job, so a worker that starts late still joins it.
        workers_.emplace_back([this, seen] { worker_loop(seen); });
        worker_count_.store(static_cast<unsigned>(workers_.size()), std::memory_order_relaxed);
      } catch (const std::system_error& e) {
        // Say what could not be created: "Resource temporarily unavailable"
        // alone reads like a transient glitch. The workers made so far stay.
        throw error(error::kind::resource,
                    "cannot create worker thread " + std::to_string(workers_.size() + 1) + " of " + std::to_string(n) +
                        " (" + e.code().message() +
                        "): out of memory or over the thread limit; fewer threads (--threads, BIGMUL_THREADS) need less");
      }
    }
  }

  void wake(unsigned wanted) {
    const unsigned asleep = sleepers_.load(std::memory_order_seq_cst);
    if (asleep == 0) return;
    { std::lock_guard<std::mutex> lock(mutex_); }
    for (unsigned i = 0; i < std::min(asleep, wanted); ++i) cv_.notify_one();
  }

  void work() {
    const bool was_inside = t_inside_task;
    t_inside_task = true;
    for (;;) {
      const std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
      if (i >= tasks_) break;
      try {
        (*task_)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex_);
        if (!error_) error_ = std::current_exception();
      }
    }
    t_inside_task = was_inside;
  }

  void wait_finished(unsigned joined) {
    const auto done = [&] { return finished_.load(std::memory_order_seq_cst) == joined; };
    if (spin_until(done)) return;
    std::unique_lock<std::mutex> lock(mutex_);
    caller_waiting_.store(true, std::memory_order_seq_cst);
    done_cv_.wait(lock, done);
    caller_waiting_.store(false, std::memory_order_relaxed);
  }

  // Takes a helper slot of generation `gen` if that job is still open.
  bool try_join(std::uint64_t word, std::uint64_t gen) {
    while (generation(word) == gen && (word & slot_mask) != 0) {
      if (job_.compare_exchange_weak(word, word - 1, std::memory_order_acquire, std::memory_order_relaxed))
        return true;
    }
    return false;
  }

  void worker_loop(std::uint64_t seen) {
    const auto news = [&] {
      return stop_.load(std::memory_order_seq_cst) || generation(job_.load(std::memory_order_seq_cst)) != seen;
    };
    for (;;) {
      if (!spin_until(news)) {
        std::unique_lock<std::mutex> lock(mutex_);
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        cv_.wait(lock, news);
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
      }
      if (stop_.load(std::memory_order_relaxed)) return;
      const std::uint64_t word = job_.load(std::memory_order_acquire);
      seen = generation(word);
      if (!try_join(word, seen)) continue;
      work();
      finished_.fetch_add(1, std::memory_order_seq_cst);
      if (caller_waiting_.load(std::memory_order_seq_cst)) {
        { std::lock_guard<std::mutex> lock(mutex_); }
        done_cv_.notify_all();
      }
    }
  }

  std::mutex job_mutex_;
  std::mutex mutex_;  // only for sleeping: cv_ (workers) and done_cv_ (the caller)
  std::mutex error_mutex_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::thread> workers_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t tasks_ = 0;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::uint64_t> job_{0};  // generation << 32 | helper slots still open
  std::atomic<unsigned> finished_{0}, sleepers_{0}, worker_count_{0};
  std::atomic<bool> caller_waiting_{false}, stop_{false};
  std::exception_ptr error_;
};

}  // namespace

namespace detail {
std::chrono::microseconds spin_window() { return spin_window_length; }
unsigned sleeping_workers() { return pool::instance().sleepers(); }
bool all_workers_asleep() {
  const pool& p = pool::instance();
  return p.sleepers() == p.workers();
}
}  // namespace detail

unsigned default_threads() {
  const unsigned o = g_override.load(std::memory_order_relaxed);
  return o ? o : env_threads();
}

void set_default_threads(unsigned threads) { g_override.store(threads, std::memory_order_relaxed); }

unsigned resolve_threads(unsigned threads) { return threads ? threads : default_threads(); }

std::size_t chunk_count(std::size_t n, std::size_t grain, unsigned threads) {
  if (n == 0) return 0;
  grain = std::max<std::size_t>(grain, 1);
  const std::size_t by_grain = (n + grain - 1) / grain;
  const std::size_t by_threads = std::size_t{resolve_threads(threads)} * 4;
  return std::max<std::size_t>(1, std::min(by_grain, resolve_threads(threads) == 1 ? 1 : by_threads));
}

void parallel_for(std::size_t tasks, unsigned threads, const std::function<void(std::size_t)>& task) {
  if (tasks == 0) return;
  threads = static_cast<unsigned>(std::min<std::size_t>(resolve_threads(threads), tasks));
  if (threads <= 1 || t_inside_task) {
    for (std::size_t i = 0; i < tasks; ++i) task(i);
    return;
  }
  pool::instance().run(tasks, threads, task);
}

}  // namespace bigmul::prim
