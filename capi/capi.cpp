// SPDX-License-Identifier: LGPL-3.0-or-later
// The C ABI (include/bigmul/bigmul.h) over bigmul::mul: every C++ exception
// becomes a status code and a per-thread message, since none may cross into
// a C caller's frames.
#include "bigmul/bigmul.h"

#include <cstdint>
#include <exception>
#include <new>
#include <string>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "bigmul/version.hpp"
#include "prim/parallel.hpp"

namespace {

thread_local std::string t_last_error;

bigmul_status fail(bigmul_status s, const std::string& what) {
  try {
    t_last_error = what;
  } catch (...) {
    t_last_error.clear();  // no room for the message: the status still says what
  }
  return s;
}

bool overlaps(const bigmul_limb_t* r, std::size_t rn, const bigmul_limb_t* a, std::size_t an) {
  return r < a + an && a < r + rn;
}

// The arguments GMP's mpn_mul requires, named in the message when violated.
bool check(const char* who, bigmul_limb_t* rp, const bigmul_limb_t* up, std::size_t un, const bigmul_limb_t* vp,
           std::size_t vn, bigmul_status& s) {
  std::string why;
  if (!rp || !up || !vp)
    why = "a null pointer";
  else if (vn == 0)
    why = "a zero size";
  else if (un < vn)
    why = "un < vn (" + std::to_string(un) + " < " + std::to_string(vn) + ")";
  else if (un > SIZE_MAX / 2)
    why = "sizes that overflow";
  else if (overlaps(rp, un + vn, up, un) || overlaps(rp, un + vn, vp, vn))
    why = "the result overlapping an operand";
  if (why.empty()) return true;
  s = fail(BIGMUL_ERROR_ARGUMENT, std::string(who) + ": " + why);
  return false;
}

bigmul_status run_mul(const char* who, bigmul_limb_t* rp, const bigmul_limb_t* up, std::size_t un,
                      const bigmul_limb_t* vp, std::size_t vn) noexcept {
  bigmul_status s = BIGMUL_OK;
  if (!check(who, rp, up, un, vp, vn, s)) return s;
  try {
    bigmul::mul(rp, up, un, vp, vn);
    t_last_error.clear();
    return BIGMUL_OK;
  } catch (const std::bad_alloc&) {
    return fail(BIGMUL_ERROR_MEMORY, std::string(who) + ": out of memory");
  } catch (const bigmul::error& e) {
    const bool memory = e.code() == bigmul::error::kind::resource;
    return fail(memory ? BIGMUL_ERROR_MEMORY : BIGMUL_ERROR_INTERNAL, std::string(who) + ": " + e.what());
  } catch (const std::exception& e) {
    return fail(BIGMUL_ERROR_INTERNAL, std::string(who) + ": " + e.what());
  } catch (...) {
    return fail(BIGMUL_ERROR_INTERNAL, std::string(who) + ": unknown failure");
  }
}

}  // namespace

extern "C" {

bigmul_status bigmul_mul(bigmul_limb_t* rp, const bigmul_limb_t* up, size_t un, const bigmul_limb_t* vp, size_t vn,
                         bigmul_limb_t* top) {
  const bigmul_status s = run_mul("bigmul_mul", rp, up, un, vp, vn);
  if (s == BIGMUL_OK && top) *top = rp[un + vn - 1];
  return s;
}

bigmul_status bigmul_mul_n(bigmul_limb_t* rp, const bigmul_limb_t* up, const bigmul_limb_t* vp, size_t n) {
  return run_mul("bigmul_mul_n", rp, up, n, vp, n);
}

bigmul_status bigmul_sqr(bigmul_limb_t* rp, const bigmul_limb_t* up, size_t n) {
  return run_mul("bigmul_sqr", rp, up, n, up, n);
}

bigmul_status bigmul_set_threads(unsigned threads) {
  bigmul::prim::set_default_threads(threads);
  t_last_error.clear();
  return BIGMUL_OK;
}

// Both read settings from the environment, which may be invalid
// (BIGMUL_THREADS=abc, BIGMUL_NTT_ENGINE=...): the exception stays here.
unsigned bigmul_threads(void) {
  try {
    const unsigned t = bigmul::prim::resolve_threads(0);
    t_last_error.clear();
    return t;
  } catch (const std::exception& e) {
    fail(BIGMUL_ERROR_ARGUMENT, std::string("bigmul_threads: ") + e.what());
  } catch (...) {
    fail(BIGMUL_ERROR_INTERNAL, "bigmul_threads: unknown failure");
  }
  return 1;
}

size_t bigmul_gmp_crossover_limbs(void) {
  try {
    const std::size_t c = bigmul::gmp_crossover_limbs();
    t_last_error.clear();
    return c;
  } catch (const std::exception& e) {
    fail(BIGMUL_ERROR_ARGUMENT, std::string("bigmul_gmp_crossover_limbs: ") + e.what());
  } catch (...) {
    fail(BIGMUL_ERROR_INTERNAL, "bigmul_gmp_crossover_limbs: unknown failure");
  }
  return SIZE_MAX;
}

const char* bigmul_last_error(void) { return t_last_error.c_str(); }

const char* bigmul_status_string(bigmul_status status) {
  switch (status) {
    case BIGMUL_OK: return "success";
    case BIGMUL_ERROR_ARGUMENT: return "invalid argument";
    case BIGMUL_ERROR_MEMORY: return "out of memory";
    case BIGMUL_ERROR_INTERNAL: return "internal error";
  }
  return "unknown status";
}

const char* bigmul_version(void) { return BIGMUL_VERSION_STRING; }

}  // extern "C"
