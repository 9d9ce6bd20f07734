// SPDX-License-Identifier: LGPL-3.0-or-later
// GMP's mpn entry points, interposed (LD_PRELOAD): products and base-10
// conversions at or above the crossovers are computed by bigmul, the rest by
// GMP's own functions, reached by one compare. GMP calls these through its
// PLT (mpz_mul, mpz_pow_ui, division, gcd, mpz_get_str, mpz_set_str ...), so
// its internal large products come here too. Contracts as in GMP's manual,
// "Low-level Functions" [GMP-MANUAL].
#include <gmp.h>

#include <cstddef>
#include <cstdio>

#include "bigmul/mul.hpp"
#include "preload/counters.hpp"
#include "preload/decimal_text.hpp"
#include "preload/fork_guard.hpp"
#include "preload/real_gmp.hpp"
#include "preload/settings.hpp"

#define BIGMUL_PRELOAD_EXPORT extern "C" __attribute__((visibility("default")))

static_assert(sizeof(mp_limb_t) == sizeof(bigmul::limb_t), "the preload needs GMP with 64-bit limbs");

namespace bigmul::preload {
namespace {

// Set while this thread is inside bigmul: a call that comes back here from
// within bigmul (none does today) goes to GMP instead of recursing.
thread_local bool t_inside = false;

bool passing(std::size_t limbs, const std::atomic<std::size_t>& crossover) {
  return limbs < crossover.load(std::memory_order_relaxed);
}

void note_passed(entry e) {
  if (g_verbose.load(std::memory_order_relaxed)) [[unlikely]]
    count_passed(e);
}

// Runs bigmul's `compute`; false when it did not produce the result (this
// thread already inside bigmul, or bigmul failed: out of memory, a refusal),
// and the caller then runs GMP's function, whose own rules then apply.
template <class Compute>
bool by_bigmul(entry e, std::size_t limbs, Compute&& compute) noexcept {
  if (t_inside) {
    note_passed(e);
    return false;
  }
  t_inside = true;
  bool ok = false;
  try {
    const call_scope scope;
    compute();
    ok = true;
  } catch (...) {
  }
  t_inside = false;
  if (g_verbose.load(std::memory_order_relaxed)) ok ? count_taken(e, limbs) : count_fell_back(e);
  return ok;
}

const limb_t* limbs(mp_srcptr p) { return reinterpret_cast<const limb_t*>(p); }

[[gnu::constructor]] void start() {
  load_settings();
  install_fork_handlers();
}

[[gnu::destructor]] void finish() {
  if (!g_verbose.load(std::memory_order_relaxed)) return;
  std::fprintf(stderr, "libbigmul_gmp: crossovers (limbs): products %zu, get_str %zu, set_str %zu\n",
               g_mul_crossover.load(std::memory_order_relaxed), g_get_str_crossover.load(std::memory_order_relaxed),
               g_set_str_crossover.load(std::memory_order_relaxed));
  print_counters();
}

}  // namespace
}  // namespace bigmul::preload

using namespace bigmul::preload;

BIGMUL_PRELOAD_EXPORT mp_limb_t __gmpn_mul(mp_ptr rp, mp_srcptr up, mp_size_t un, mp_srcptr vp, mp_size_t vn) {
  if (passing(static_cast<std::size_t>(vn), g_mul_crossover) || un < vn) [[likely]] {
    note_passed(entry::mul);
    return real_mul()(rp, up, un, vp, vn);
  }
  auto* r = reinterpret_cast<bigmul::limb_t*>(rp);
  if (by_bigmul(entry::mul, vn, [&] { bigmul::mul(r, limbs(up), un, limbs(vp), vn); })) return rp[un + vn - 1];
  return real_mul()(rp, up, un, vp, vn);
}

BIGMUL_PRELOAD_EXPORT void __gmpn_mul_n(mp_ptr rp, mp_srcptr up, mp_srcptr vp, mp_size_t n) {
  if (passing(static_cast<std::size_t>(n), g_mul_crossover)) [[likely]] {
    note_passed(entry::mul_n);
    return real_mul_n()(rp, up, vp, n);
  }
  auto* r = reinterpret_cast<bigmul::limb_t*>(rp);
  if (!by_bigmul(entry::mul_n, n, [&] { bigmul::mul(r, limbs(up), n, limbs(vp), n); })) real_mul_n()(rp, up, vp, n);
}

BIGMUL_PRELOAD_EXPORT void __gmpn_sqr(mp_ptr rp, mp_srcptr up, mp_size_t n) {
  if (passing(static_cast<std::size_t>(n), g_mul_crossover)) [[likely]] {
    note_passed(entry::sqr);
    return real_sqr()(rp, up, n);
  }
  auto* r = reinterpret_cast<bigmul::limb_t*>(rp);
  if (!by_bigmul(entry::sqr, n, [&] { bigmul::mul(r, limbs(up), n, limbs(up), n); })) real_sqr()(rp, up, n);
}

// Base 10 only: bigmul's converter works between 2^64 and 10^19 limbs; GMP
// keeps every other base (powers of two are linear there anyway).
BIGMUL_PRELOAD_EXPORT size_t __gmpn_get_str(unsigned char* str, int base, mp_ptr up, mp_size_t un) {
  if (base != 10 || passing(static_cast<std::size_t>(un), g_get_str_crossover) || un <= 0 || up[un - 1] == 0) [[likely]] {
    note_passed(entry::get_str);
    return real_get_str()(str, base, up, un);
  }
  std::size_t n = 0;
  if (by_bigmul(entry::get_str, un, [&] { n = get_str10(str, limbs(up), un); })) return n;
  return real_get_str()(str, base, up, un);
}

// The decision compares the digits with the crossover in limbs times 19
// (a 64-bit limb holds 19.27 decimal digits).
BIGMUL_PRELOAD_EXPORT mp_size_t __gmpn_set_str(mp_ptr rp, const unsigned char* str, size_t len, int base) {
  if (base != 10 || passing(len / 19, g_set_str_crossover) || str[0] == 0) [[likely]] {
    note_passed(entry::set_str);
    return real_set_str()(rp, str, len, base);
  }
  std::size_t rn = 0;
  auto* r = reinterpret_cast<bigmul::limb_t*>(rp);
  if (by_bigmul(entry::set_str, len / 19, [&] { rn = set_str10(r, str, len); })) return static_cast<mp_size_t>(rn);
  return real_set_str()(rp, str, len, base);
}
