// SPDX-License-Identifier: LGPL-3.0-or-later
#include "preload/real_gmp.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace bigmul::preload {
namespace {

// GMP's definition of `name`. RTLD_NEXT finds it when libgmp is in the
// global scope (linked by the program); a libgmp that a module loaded with
// RTLD_LOCAL (Python's extension modules: gmpy2) is reached through its own
// handle, whose scope is libgmp and its dependencies, never this preload.
void* find(const char* name) {
  if (void* p = dlsym(RTLD_NEXT, name)) return p;
  for (const char* soname : {"libgmp.so.10", "libgmp.so"}) {
    if (void* h = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD)) {
      void* p = dlsym(h, name);
      dlclose(h);  // NOLOAD took a reference on a library that stays loaded
      if (p) return p;
    }
  }
  const char* parts[] = {"libbigmul_gmp: GMP's ", name, " was not found (is libgmp loaded?)\n"};
  for (const char* s : parts) {
    if (write(STDERR_FILENO, s, std::strlen(s)) < 0) break;
  }
  std::abort();
}

template <class Fn>
Fn resolve(std::atomic<Fn>& cache, const char* name) {
  Fn f = cache.load(std::memory_order_acquire);
  if (f) [[likely]]
    return f;
  f = reinterpret_cast<Fn>(find(name));  // racing threads find the same address
  cache.store(f, std::memory_order_release);
  return f;
}

std::atomic<mul_fn> g_mul{nullptr};
std::atomic<mul_n_fn> g_mul_n{nullptr};
std::atomic<sqr_fn> g_sqr{nullptr};
std::atomic<get_str_fn> g_get_str{nullptr};
std::atomic<set_str_fn> g_set_str{nullptr};

}  // namespace

mul_fn real_mul() { return resolve(g_mul, "__gmpn_mul"); }
mul_n_fn real_mul_n() { return resolve(g_mul_n, "__gmpn_mul_n"); }
sqr_fn real_sqr() { return resolve(g_sqr, "__gmpn_sqr"); }
get_str_fn real_get_str() { return resolve(g_get_str, "__gmpn_get_str"); }
set_str_fn real_set_str() { return resolve(g_set_str, "__gmpn_set_str"); }

}  // namespace bigmul::preload
