// SPDX-License-Identifier: LGPL-3.0-or-later
// gmp_guard (issue 20): GMP inside bigmul throws bigmul::error kind resource
// where GMP's default allocator would print and abort; the functions are
// installed only over GMP's defaults, nest, and are restored afterwards;
// the bridge's output mpz stays valid after a failure.
#include <gmp.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "bigmul/gmp.hpp"
#include "bigmul/gmp_guard.hpp"

namespace bigmul {
namespace {

using alloc_fn = void* (*)(std::size_t);

alloc_fn current_allocate() {
  alloc_fn a;
  mp_get_memory_functions(&a, nullptr, nullptr);
  return a;
}

TEST(GmpGuard, InstallsOverTheDefaultsNestsAndRestores) {
  ASSERT_EQ(current_allocate(), &__gmp_default_allocate);
  {
    const gmp_guard outer;
    EXPECT_EQ(current_allocate(), &detail::gmp_guard_allocate);
    {
      const gmp_guard inner;
      EXPECT_EQ(current_allocate(), &detail::gmp_guard_allocate);
    }
    EXPECT_EQ(current_allocate(), &detail::gmp_guard_allocate);  // the outer one still holds
    // Numbers made under the guard are ordinary GMP numbers.
    guarded_mpz x;
    mpz_set_str(x, "123456789012345678901234567890", 10);
    ::mpz_mul(x, x, x);
    EXPECT_EQ(mpz_sizeinbase(x, 10), 59u);
  }
  EXPECT_EQ(current_allocate(), &__gmp_default_allocate);
  // Guards on several threads at once: restored when the last one ends.
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([] {
      for (int i = 0; i < 200; ++i) {
        const gmp_guard g;
        guarded_mpz x;
        mpz_ui_pow_ui(x, 3, 1000);
        ::mpz_mul(x, x, x);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(current_allocate(), &__gmp_default_allocate);
}

void* user_allocate(std::size_t n) { return std::malloc(n); }
void* user_reallocate(void* p, std::size_t, std::size_t n) { return std::realloc(p, n); }
void user_free(void* p, std::size_t) { std::free(p); }

TEST(GmpGuard, LeavesAProgramsOwnFunctionsAlone) {
  mp_set_memory_functions(user_allocate, user_reallocate, user_free);
  {
    const gmp_guard g;
    EXPECT_EQ(current_allocate(), &user_allocate);
  }
  EXPECT_EQ(current_allocate(), &user_allocate);
  mp_set_memory_functions(nullptr, nullptr, nullptr);
}

// In a death-test child: cap the address space just above what is in use,
// then run GMP where it cannot fit.
void cap_address_space(std::size_t headroom) {
  long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  const rlim_t cap = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + headroom;
  const rlimit lim{cap, cap};
  if (pages == 0 || ::setrlimit(RLIMIT_AS, &lim) != 0) std::_Exit(3);
}

TEST(GmpGuard, AllocationFailureThrowsInsteadOfAborting) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizers reserve terabytes of address space: RLIMIT_AS cannot apply";
#else
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // Directly under a guard: GMP's mpz_mul of 1.6M x 1.4M limbs.
  const auto direct = [] {
        mpz_t a, b;
        mpz_init(a);
        mpz_init(b);
        mpz_ui_pow_ui(a, 3, std::size_t{1} << 26);
        mpz_ui_pow_ui(b, 7, std::size_t{1} << 25);
        cap_address_space(std::size_t{8} << 20);
        try {
          const gmp_guard g;
          guarded_mpz p;
          ::mpz_mul(p, a, b);
        } catch (const error& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::_Exit(e.code() == error::kind::resource ? 0 : 1);
        }
        std::_Exit(4);
  };
  EXPECT_EXIT(direct(), ::testing::ExitedWithCode(0), "out of memory \\(GMP could not allocate [0-9]+ bytes\\)");
  // Through the bridge (its product is bigmul's: r is grown first): the output
  // keeps a valid state and can be cleared and reused afterwards.
  const auto bridge = [] {
        mpz_t a, r;
        mpz_init(a);
        mpz_init(r);
        mpz_ui_pow_ui(a, 3, std::size_t{1} << 26);
        cap_address_space(std::size_t{8} << 20);
        mul_options o;
        try {
          bigmul::mpz_mul(r, a, a, o);
        } catch (const error& e) {
          std::fprintf(stderr, "%s\n", e.what());
          mpz_set_ui(r, 6);
          mpz_mul_ui(r, r, 7);
          const bool ok = mpz_cmp_ui(r, 42) == 0;
          mpz_clear(r);
          std::_Exit(ok && e.code() == error::kind::resource ? 0 : 1);
        }
        std::_Exit(4);
  };
  EXPECT_EXIT(bridge(), ::testing::ExitedWithCode(0), "out of memory");
#endif
}

}  // namespace
}  // namespace bigmul
