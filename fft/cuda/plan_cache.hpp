// SPDX-License-Identifier: LGPL-3.0-or-later
// Host-side bookkeeping of the GPU plan caches, apart from any CUDA call so
// that tests/fft/test_fft_plan_cache.cpp drives it on the CPU from many threads.
//
//   lru_cache        the in-house FFT plans (device, n, G -> plan with its
//                    twiddle tables in device memory): a few entries, least
//                    recently used dropped first, clear() on release_scratch().
//                    Callers hold a shared_ptr, so an entry dropped while in
//                    use lives until its last user is done.
//   exec_plan_cache  the cuFFT plans (device, type, n, batch -> handle). A
//                    handle is shared by every thread and stream, so it owns
//                    no work area: each execution binds the caller's own work
//                    area (cufftSetWorkArea, automatic allocation off) and
//                    its stream under the cache's lock, then launches. Two
//                    threads running the same size at once thus never share
//                    scratch on the GPU.
// Plain C++17 (included by .cu files).
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace bigmul::fft::cuda {

template <class Key, class Value>
class lru_cache {
 public:
  explicit lru_cache(std::size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

  // The value for k; make() (returning std::shared_ptr<const Value>, may
  // throw: nothing is inserted then) builds it when absent. The entry becomes
  // the most recent; entries past the capacity are dropped, oldest first.
  template <class Make>
  std::shared_ptr<const Value> get(const Key& k, Make&& make) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = items_.begin(); it != items_.end(); ++it)
      if (it->first == k) {
        items_.splice(items_.begin(), items_, it);
        return items_.front().second;
      }
    std::shared_ptr<const Value> v = make();
    items_.emplace_front(k, v);
    while (items_.size() > capacity_) items_.pop_back();
    return v;
  }

  // Drops every entry (values still held by callers live until released).
  void clear() {
    std::list<std::pair<Key, std::shared_ptr<const Value>>> gone;
    {
      std::lock_guard<std::mutex> lock(mu_);
      gone.swap(items_);
    }
    // Destroyed here, outside the lock (a plan's destructor frees device memory).
  }

  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return items_.size();
  }
  std::size_t capacity() const { return capacity_; }
  // Keys, most recently used first.
  std::vector<Key> keys() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Key> out;
    for (const auto& kv : items_) out.push_back(kv.first);
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::size_t capacity_;
  std::list<std::pair<Key, std::shared_ptr<const Value>>> items_;  // front: most recent
};

// Plan: a handle plus the work-area bytes its executions need.
template <class Handle>
struct exec_plan {
  Handle handle{};
  std::size_t work_bytes = 0;
};

// Status codes are the caller's (cudaError_t for the cuFFT adapter): `ok` is
// success, `too_small` what execute returns for a work area below the plan's
// need.
template <class Key, class Handle, class Status>
class exec_plan_cache {
 public:
  using plan = exec_plan<Handle>;
  exec_plan_cache(Status ok, Status too_small) : ok_(ok), too_small_(too_small) {}

  // The plan's work-area bytes; make(plan&) -> Status creates it on first use
  // (once per key, whatever the number of threads asking).
  template <class Make>
  Status work_bytes(const Key& k, Make&& make, std::size_t& bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    plan* p = nullptr;
    const Status s = find(k, make, p);
    bytes = s == ok_ ? p->work_bytes : 0;
    return s;
  }

  // Runs exec(handle, work) with the cache locked, after checking that `work`
  // (work_size bytes, the caller's own) covers the plan: exec binds stream and
  // work area to the handle and enqueues the transform, which then reads only
  // the caller's memory.
  template <class Make, class Exec>
  Status execute(const Key& k, Make&& make, void* work, std::size_t work_size, Exec&& exec) {
    std::lock_guard<std::mutex> lock(mu_);
    plan* p = nullptr;
    const Status s = find(k, make, p);
    if (s != ok_) return s;
    if (p->work_bytes > 0 && (work == nullptr || work_size < p->work_bytes)) return too_small_;
    return exec(p->handle, work);
  }

  // Calls destroy(key, handle) for every plan and forgets them; no plan may be
  // executing (enqueued work keeps its own work area, so only host calls count).
  template <class Destroy>
  void clear(Destroy&& destroy) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& kv : plans_) destroy(kv.first, kv.second.handle);
    plans_.clear();
  }

  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return plans_.size();
  }

 private:
  template <class Make>
  Status find(const Key& k, Make&& make, plan*& out) {
    auto it = plans_.find(k);
    if (it == plans_.end()) {
      plan p;
      const Status s = make(p);
      if (s != ok_) return s;
      it = plans_.emplace(k, p).first;
    }
    out = &it->second;
    return ok_;
  }

  mutable std::mutex mu_;
  std::map<Key, plan> plans_;
  Status ok_, too_small_;
};

}  // namespace bigmul::fft::cuda
