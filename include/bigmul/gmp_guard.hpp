// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief GMP with allocation functions that throw bigmul::error (kind resource)
/// instead of aborting. GMP's default allocator prints "GNU MP: Cannot allocate
/// memory" and calls abort(); bigmul's GMP bridge and the CLI's --verify run
/// GMP inside a gmp_guard instead, so running out of memory is an error the
/// caller can report. Header-only: the including program links GMP.
///
/// Why throwing is safe here, and what it costs:
///  * Unwinding crosses GMP's C frames. Debian's libgmp (and libgmp.a) carries
///    .eh_frame unwind tables for its C functions (x86-64 builds them by
///    default), and GMP's assembly routines never call the allocator, so no
///    frame without unwind information is between the allocator and the caller.
///    C frames have no destructors: unwinding only skips their remaining code.
///  * What that skipped code would have done is lost: GMP's temporary blocks
///    (TMP_ALLOC) of the failed call leak, and an mpz the failed call was
///    writing may be left inconsistent (mpz_mul records the new size before the
///    allocation that failed; clearing it then would free a freed block).
///    So after a failure nothing the guarded code wrote may be cleared:
///    guarded_mpz leaks instead, and the bridge grows its outputs with
///    mpz_realloc2 first (GMP assigns pointer and size only after a successful
///    reallocation), leaving them valid with an unspecified value.
///  * mp_set_memory_functions is process-wide. The guard installs its
///    functions only while GMP's defaults are in place (which are malloc,
///    realloc and free, so blocks move freely between the two), counts nested
///    and concurrent guards, and puts the previous functions back when the last
///    one ends. Threads without a guard keep GMP's behaviour (message, abort).
///    Functions a program installed itself are left alone: theirs decide.
#pragma once

#include <gmp.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "bigmul/error.hpp"

// GMP's default allocation functions (exported by libgmp, not declared in gmp.h).
/// @cond internal
extern "C" {
void* __gmp_default_allocate(std::size_t);
void* __gmp_default_reallocate(void*, std::size_t, std::size_t);
void __gmp_default_free(void*, std::size_t);
}
/// @endcond

namespace bigmul {
namespace detail {

struct gmp_guard_state {
  std::mutex mutex;
  unsigned users = 0;     ///< guards alive in the process
  bool installed = false;  ///< our functions are in place
};
inline gmp_guard_state& gmp_guard_global() {
  static gmp_guard_state s;
  return s;
}
inline thread_local unsigned gmp_guard_depth = 0;     // guards alive on this thread
inline thread_local bool gmp_guard_failed = false;    // an allocation failed under this thread's guard

[[noreturn]] inline void gmp_out_of_memory(std::size_t bytes) {
  if (gmp_guard_depth == 0) {
    // GMP called from a thread without a guard: what GMP itself would do.
    std::fputs("GNU MP: Cannot allocate memory\n", stderr);
    std::abort();
  }
  gmp_guard_failed = true;
  char what[96];
  std::snprintf(what, sizeof what, "out of memory (GMP could not allocate %zu bytes)", bytes);
  throw error(error::kind::resource, what);
}

inline void* gmp_guard_allocate(std::size_t n) {
  void* p = std::malloc(n);
  if (!p && n) gmp_out_of_memory(n);
  return p;
}
inline void* gmp_guard_reallocate(void* old, std::size_t, std::size_t n) {
  void* p = std::realloc(old, n);
  if (!p && n) gmp_out_of_memory(n);
  return p;
}
inline void gmp_guard_free(void* p, std::size_t) { std::free(p); }

}  // namespace detail

/// While alive (on this thread), GMP's allocation failures throw
/// bigmul::error{kind::resource, "out of memory (...)"}. Nests; restores GMP's
/// functions when the last guard in the process ends.
class gmp_guard {
 public:
  gmp_guard() {
    auto& g = detail::gmp_guard_global();
    std::lock_guard<std::mutex> lock(g.mutex);
    if (g.users++ == 0) {
      void* (*a)(std::size_t);
      void* (*r)(void*, std::size_t, std::size_t);
      void (*f)(void*, std::size_t);
      mp_get_memory_functions(&a, &r, &f);
      if (a == __gmp_default_allocate && r == __gmp_default_reallocate && f == __gmp_default_free) {
        mp_set_memory_functions(detail::gmp_guard_allocate, detail::gmp_guard_reallocate, detail::gmp_guard_free);
        g.installed = true;
      }
    }
    if (detail::gmp_guard_depth++ == 0) detail::gmp_guard_failed = false;
  }
  ~gmp_guard() {
    --detail::gmp_guard_depth;
    auto& g = detail::gmp_guard_global();
    std::lock_guard<std::mutex> lock(g.mutex);
    if (--g.users == 0 && g.installed) {
      // GMP's defaults free what ours allocated (both are malloc/free).
      mp_set_memory_functions(nullptr, nullptr, nullptr);
      g.installed = false;
    }
  }
  gmp_guard(const gmp_guard&) = delete;
  gmp_guard& operator=(const gmp_guard&) = delete;

  /// Whether an allocation failed under this thread's outermost guard.
  static bool failed() noexcept { return detail::gmp_guard_failed; }
};

/// An mpz_t for use under a gmp_guard: cleared on destruction unless an
/// allocation failed under the guard (then it may be inconsistent and is
/// leaked instead; see above).
class guarded_mpz {
 public:
  guarded_mpz() { mpz_init(v_); }
  ~guarded_mpz() {
    if (!gmp_guard::failed()) mpz_clear(v_);
  }
  guarded_mpz(const guarded_mpz&) = delete;
  guarded_mpz& operator=(const guarded_mpz&) = delete;
  /// The mpz_t, for GMP's functions.
  ///@{
  mpz_ptr get() noexcept { return v_; }
  operator mpz_ptr() noexcept { return v_; }               // NOLINT: passed where GMP takes mpz_ptr
  operator mpz_srcptr() const noexcept { return v_; }      // NOLINT
  ///@}

 private:
  mpz_t v_;
};

}  // namespace bigmul
