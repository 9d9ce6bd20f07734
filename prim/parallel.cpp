#include "prim/parallel.hpp"

#include "bigmul/error.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace bigmul::prim {
namespace {

std::atomic<unsigned> g_override{0};
thread_local bool t_inside_task = false;

unsigned env_threads() {
  static const unsigned value = [] {
    if (const char* s = std::getenv("BIGMUL_THREADS")) {
      char* end = nullptr;
      const long v = std::strtol(s, &end, 10);
      if (end != s && *end == '\0' && v > 0 && v <= 4096) return static_cast<unsigned>(v);
    }
    return std::max(1u, std::thread::hardware_concurrency());
  }();
  return value;
}

// One job at a time runs on the pool; concurrent callers from different
// threads queue on job_mutex_.
class pool {
 public:
  static pool& instance() {
    static pool p;
    return p;
  }

  void run(std::size_t tasks, unsigned threads, const std::function<void(std::size_t)>& task) {
    std::lock_guard<std::mutex> job_lock(job_mutex_);
    ensure_workers(threads - 1);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = &task;
      tasks_ = tasks;
      next_.store(0, std::memory_order_relaxed);
      helpers_wanted_ = threads - 1;
      helpers_active_ = 0;
      error_ = nullptr;
      ++generation_;
    }
    cv_.notify_all();
    work();
    std::unique_lock<std::mutex> lock(mutex_);
    helpers_wanted_ = 0;  // every task is claimed: workers still asleep need not wake
    done_cv_.wait(lock, [&] { return helpers_active_ == 0; });
    task_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

  ~pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }

 private:
  void ensure_workers(unsigned n) {
    while (workers_.size() < n) {
      try {
        workers_.emplace_back([this] { worker_loop(); });
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

  void work() {
    const bool was_inside = t_inside_task;
    t_inside_task = true;
    for (;;) {
      const std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
      if (i >= tasks_) break;
      try {
        (*task_)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
    }
    t_inside_task = was_inside;
  }

  void worker_loop() {
    std::uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || (generation_ != seen && helpers_wanted_ > 0); });
      if (stop_) return;
      seen = generation_;
      --helpers_wanted_;
      ++helpers_active_;
      lock.unlock();
      work();
      lock.lock();
      --helpers_active_;
      if (helpers_active_ == 0) done_cv_.notify_all();
    }
  }

  std::mutex job_mutex_;
  std::mutex mutex_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::thread> workers_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t tasks_ = 0;
  std::atomic<std::size_t> next_{0};
  unsigned helpers_wanted_ = 0, helpers_active_ = 0;
  std::uint64_t generation_ = 0;
  std::exception_ptr error_;
  bool stop_ = false;
};

}  // namespace

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
