// SPDX-License-Identifier: LGPL-3.0-or-later
/* The C ABI (include/bigmul/bigmul.h) from a C99 program, GMP's mpn_mul the
 * oracle: products and squares at every dispatch edge of bigmul::mul (the
 * table in mul/params_cpu.inc, +-1), unbalanced shapes, adversarial limbs,
 * the aliasing the contract allows, each status code on misuse, the thread
 * setting, per-thread error text, and concurrent calls.
 *
 * usage: test_capi [checks | bad-threads-env | memory | print-crossover]
 *   checks           everything above (the default)
 *   bad-threads-env  run with BIGMUL_THREADS=abc: no call may throw or abort;
 *                    a threaded product fails with a message naming the variable
 *   memory           with the address space capped, a large product returns
 *                    BIGMUL_ERROR_MEMORY, and succeeds once the cap is lifted
 *   print-crossover  prints bigmul_gmp_crossover_limbs() (tests/preload/settings.sh)
 * Seed: BIGMUL_TEST_SEED (printed on failure). Exit 0 when every check passes. */
#define _GNU_SOURCE
#include <bigmul/bigmul.h>
#include <gmp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>

static unsigned long long g_seed = 20260;
static long g_failures;
static pthread_mutex_t g_report = PTHREAD_MUTEX_INITIALIZER;

#define GUARD 2
static const bigmul_limb_t sentinel = 0xa5a5a5a5a5a5a5a5ull;

static void failf(const char* what, long a, long b, const char* detail) {
  pthread_mutex_lock(&g_report);
  if (g_failures++ < 30)
    fprintf(stderr, "test_capi: %s at sizes %ld, %ld: %s; BIGMUL_TEST_SEED=%llu\n", what, a, b, detail, g_seed);
  pthread_mutex_unlock(&g_report);
}

#define EXPECT(cond, what) \
  do {                     \
    if (!(cond)) failf(what, 0, 0, #cond); \
  } while (0)

/* xorshift64*: per-caller state. */
static bigmul_limb_t next(unsigned long long* s) {
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

enum kind { RANDOM, ALL_MAX, RUNS, SPARSE, LOW_ONES, KINDS };
static const char* kind_names[] = {"random", "all-max", "bit-runs", "sparse", "low-ones-high-zero"};

/* n limbs of kind k, top limb non-zero. LOW_ONES: all-max limbs under a 1 on
 * top, so products carry through long runs of ones. */
static void fill(bigmul_limb_t* p, long n, int k, unsigned long long* s) {
  for (long i = 0; i < n; ++i) {
    switch (k) {
      case RANDOM: p[i] = next(s); break;
      case ALL_MAX: p[i] = ~(bigmul_limb_t)0; break;
      case SPARSE: p[i] = (i == 0 || i == n - 1) ? 1 : 0; break;
      case LOW_ONES: p[i] = i == n - 1 ? 1 : ~(bigmul_limb_t)0; break;
      default: p[i] = 0;
    }
  }
  if (k == RUNS) {
    long bit = 0, total = n * 64;
    int one = 1;
    while (bit < total) {
      long len = 1 + (long)(next(s) % (unsigned long long)(total / 3 + 1));
      for (long b = bit; b < bit + len && b < total; ++b)
        if (one) p[b / 64] |= (bigmul_limb_t)1 << (b % 64);
      bit += len, one = !one;
    }
  }
  if (p[n - 1] == 0) p[n - 1] = 1;
}

static bigmul_limb_t* alloc(long n) {
  bigmul_limb_t* p = malloc((size_t)(n + GUARD) * sizeof *p);
  if (!p) {
    fprintf(stderr, "test_capi: out of memory (%ld limbs)\n", n);
    exit(2);
  }
  for (long i = 0; i < n + GUARD; ++i) p[i] = sentinel;
  return p;
}

static int guards_intact(const bigmul_limb_t* p, long n) {
  for (long i = n; i < n + GUARD; ++i)
    if (p[i] != sentinel) return 0;
  return 1;
}

static int same(const bigmul_limb_t* a, const bigmul_limb_t* b, long n) {
  return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

/* bigmul_mul (and bigmul_mul_n, bigmul_sqr, the aliased forms when un == vn)
 * against mpn_mul; operands must come back unchanged. */
static void check_mul(long un, long vn, int ku, int kv, unsigned long long* s) {
  bigmul_limb_t *u = alloc(un), *v = alloc(vn), *r = alloc(un + vn), *q = alloc(un + vn);
  bigmul_limb_t *u0 = alloc(un), *v0 = alloc(vn);
  fill(u, un, ku, s);
  fill(v, vn, kv, s);
  memcpy(u0, u, (size_t)un * sizeof *u), memcpy(v0, v, (size_t)vn * sizeof *v);
  const char* kind = kind_names[ku];
  bigmul_limb_t top = sentinel;
  mp_limb_t otop = mpn_mul(q, u, un, v, vn);
  if (bigmul_mul(r, u, (size_t)un, v, (size_t)vn, &top) != BIGMUL_OK) failf("bigmul_mul failed", un, vn, bigmul_last_error());
  if (top != otop || !same(r, q, un + vn) || !guards_intact(r, un + vn)) failf("bigmul_mul differs from mpn_mul", un, vn, kind);
  if (bigmul_last_error()[0]) failf("bigmul_last_error after a success is not empty", un, vn, bigmul_last_error());
  if (bigmul_mul(r, u, (size_t)un, v, (size_t)vn, NULL) != BIGMUL_OK || !same(r, q, un + vn))
    failf("bigmul_mul with top == NULL", un, vn, kind);
  /* vp == up: the low vn limbs of u times u */
  mpn_mul(q, u, un, u, vn);
  if (bigmul_mul(r, u, (size_t)un, u, (size_t)vn, &top) != BIGMUL_OK || !same(r, q, un + vn) || top != q[un + vn - 1])
    failf("bigmul_mul(u, un, u, vn)", un, vn, kind);
  if (un == vn) {
    mpn_mul_n(q, u, v, un);
    if (bigmul_mul_n(r, u, v, (size_t)un) != BIGMUL_OK || !same(r, q, 2 * un) || !guards_intact(r, 2 * un))
      failf("bigmul_mul_n differs from mpn_mul_n", un, un, kind);
    mpn_sqr(q, u, un);
    if (bigmul_sqr(r, u, (size_t)un) != BIGMUL_OK || !same(r, q, 2 * un) || !guards_intact(r, 2 * un))
      failf("bigmul_sqr differs from mpn_sqr", un, un, kind);
    if (bigmul_mul_n(r, u, u, (size_t)un) != BIGMUL_OK || !same(r, q, 2 * un))
      failf("bigmul_mul_n(u, u) differs from mpn_sqr", un, un, kind);
  }
  if (!same(u, u0, un) || !same(v, v0, vn) || !guards_intact(u, un) || !guards_intact(v, vn))
    failf("an operand changed", un, vn, kind);
  free(u), free(v), free(r), free(q), free(u0), free(v0);
}

/* Sizes n-1, n, n+1 for each dispatch edge of bigmul::mul on binary limbs. */
static const long edges[] = {24, 114, 130, 159, 219, 231, 3937, 4353, 13317};

static void check_products(void) {
  unsigned long long s = g_seed;
  for (long n = 1; n <= 40; ++n) check_mul(n, n, (int)(n % KINDS), (int)((n + 1) % KINDS), &s);
  for (long vn = 1; vn <= 9; ++vn) check_mul(vn + 31, vn, RANDOM, ALL_MAX, &s);
  long cross = (long)bigmul_gmp_crossover_limbs();
  for (int k = 0; k < KINDS; ++k) {
    for (size_t e = 0; e <= sizeof edges / sizeof *edges; ++e) {
      long edge = e < sizeof edges / sizeof *edges ? edges[e] : cross;
      for (long d = -1; d <= 1; ++d) {
        long n = edge + d;
        check_mul(n, n, k, k, &s);                       /* balanced (and squares) */
        check_mul(n + 1 + (long)(next(&s) % 64), n, k, (k + 1) % KINDS, &s);
        if (k == RANDOM || k == ALL_MAX) check_mul(5 * n + 3, n, k, k, &s);  /* unbalanced */
      }
    }
  }
  /* very unbalanced and large shapes (10^5 .. 10^6 digits) */
  check_mul(60000, 1, RANDOM, ALL_MAX, &s);
  check_mul(60000, 3, ALL_MAX, ALL_MAX, &s);
  check_mul(60000, 140, RUNS, RANDOM, &s);
  check_mul(52000, 17000, LOW_ONES, ALL_MAX, &s);
  check_mul(52000, 52000, ALL_MAX, ALL_MAX, &s);
  check_mul(30001, 29999, RANDOM, RUNS, &s);
}

/* Each misuse returns BIGMUL_ERROR_ARGUMENT with a one-line message naming
 * the function, and leaves the operands alone. */
static void expect_argument_error(bigmul_status st, const char* who, const char* case_name) {
  const char* msg = bigmul_last_error();
  if (st != BIGMUL_ERROR_ARGUMENT) failf(case_name, 0, 0, "status is not BIGMUL_ERROR_ARGUMENT");
  if (strncmp(msg, who, strlen(who)) != 0 || strchr(msg, '\n') || strlen(msg) <= strlen(who) + 2)
    failf(case_name, 0, 0, "the message does not name the function on one line");
}

static void check_misuse(void) {
  enum { N = 8 };
  bigmul_limb_t u[N], v[N], r[4 * N], top = 0;
  for (int i = 0; i < N; ++i) u[i] = v[i] = ~(bigmul_limb_t)0 - (bigmul_limb_t)i;
  expect_argument_error(bigmul_mul(NULL, u, N, v, N, &top), "bigmul_mul", "mul: rp == NULL");
  expect_argument_error(bigmul_mul(r, NULL, N, v, N, &top), "bigmul_mul", "mul: up == NULL");
  expect_argument_error(bigmul_mul(r, u, N, NULL, N, &top), "bigmul_mul", "mul: vp == NULL");
  expect_argument_error(bigmul_mul(r, u, N, v, 0, &top), "bigmul_mul", "mul: vn == 0");
  expect_argument_error(bigmul_mul(r, u, 0, v, 0, &top), "bigmul_mul", "mul: un == vn == 0");
  expect_argument_error(bigmul_mul(r, u, 3, v, 4, &top), "bigmul_mul", "mul: un < vn");
  if (!strstr(bigmul_last_error(), "3 < 4")) failf("mul: un < vn", 3, 4, "the message does not give the sizes");
  expect_argument_error(bigmul_mul(r, u, SIZE_MAX / 2 + 1, v, 1, &top), "bigmul_mul", "mul: un + vn overflows");
  expect_argument_error(bigmul_mul(r, u, SIZE_MAX, v, SIZE_MAX, &top), "bigmul_mul", "mul: un, vn = SIZE_MAX");
  /* overlaps GMP forbids: rp on up, rp on vp, rp's tail on an operand's head */
  expect_argument_error(bigmul_mul(r, r, N, v, N, &top), "bigmul_mul", "mul: rp == up");
  expect_argument_error(bigmul_mul(r, u, N, r + N, N, &top), "bigmul_mul", "mul: vp inside rp");
  expect_argument_error(bigmul_mul(r + 1, r, N, v, N, &top), "bigmul_mul", "mul: rp + 1 == up");
  expect_argument_error(bigmul_mul(r, r + 2, 2, v, 1, &top), "bigmul_mul", "mul: up starts at rp's last limb");
  if (top != 0) failf("mul: misuse wrote *top", 0, 0, "top changed");
  /* touching but not overlapping is allowed */
  bigmul_limb_t w[3 * N + 1];
  for (int i = 0; i < N; ++i) w[2 * N + i] = u[i];
  mp_limb_t q[2 * N];
  mpn_mul(q, u, N, v, N);
  if (bigmul_mul(w, w + 2 * N, N, v, N, &top) != BIGMUL_OK || !same(w, q, 2 * N))
    failf("mul: up right after rp's end", N, N, bigmul_last_error());
  expect_argument_error(bigmul_mul_n(NULL, u, v, N), "bigmul_mul_n", "mul_n: rp == NULL");
  expect_argument_error(bigmul_mul_n(r, NULL, v, N), "bigmul_mul_n", "mul_n: up == NULL");
  expect_argument_error(bigmul_mul_n(r, u, NULL, N), "bigmul_mul_n", "mul_n: vp == NULL");
  expect_argument_error(bigmul_mul_n(r, u, v, 0), "bigmul_mul_n", "mul_n: n == 0");
  expect_argument_error(bigmul_mul_n(r, r + N, v, N), "bigmul_mul_n", "mul_n: up inside rp");
  expect_argument_error(bigmul_mul_n(r, u, v, SIZE_MAX / 2 + 1), "bigmul_mul_n", "mul_n: 2n overflows");
  expect_argument_error(bigmul_sqr(NULL, u, N), "bigmul_sqr", "sqr: rp == NULL");
  expect_argument_error(bigmul_sqr(r, NULL, N), "bigmul_sqr", "sqr: up == NULL");
  expect_argument_error(bigmul_sqr(r, u, 0), "bigmul_sqr", "sqr: n == 0");
  expect_argument_error(bigmul_sqr(r, r, N), "bigmul_sqr", "sqr: rp == up");
  expect_argument_error(bigmul_sqr(r + 2, r, N), "bigmul_sqr", "sqr: rp + 2 == up");
  for (int i = 0; i < N; ++i)
    if (u[i] != ~(bigmul_limb_t)0 - (bigmul_limb_t)i || v[i] != u[i]) failf("misuse changed an operand", i, 0, "");
  /* a success clears the message */
  if (bigmul_sqr(r, u, N) != BIGMUL_OK || bigmul_last_error()[0]) failf("sqr after misuse", N, N, bigmul_last_error());
}

static void check_strings(void) {
  EXPECT(!strcmp(bigmul_status_string(BIGMUL_OK), "success"), "status string");
  EXPECT(!strcmp(bigmul_status_string(BIGMUL_ERROR_ARGUMENT), "invalid argument"), "status string");
  EXPECT(!strcmp(bigmul_status_string(BIGMUL_ERROR_MEMORY), "out of memory"), "status string");
  EXPECT(!strcmp(bigmul_status_string(BIGMUL_ERROR_INTERNAL), "internal error"), "status string");
  EXPECT(!strcmp(bigmul_status_string((bigmul_status)99), "unknown status"), "status string");
  EXPECT(!strcmp(bigmul_status_string((bigmul_status)-1), "unknown status"), "status string");
  const char* ver = bigmul_version();
  EXPECT(ver && ver[0] >= '0' && ver[0] <= '9' && strchr(ver, '.'), "bigmul_version");
  EXPECT(BIGMUL_C_API_VERSION >= 100, "BIGMUL_C_API_VERSION");
  size_t cross = bigmul_gmp_crossover_limbs();
  EXPECT(cross >= 1 && cross < 1000000, "bigmul_gmp_crossover_limbs");
}

/* The default thread count: BIGMUL_THREADS when set (0 or empty: all cores),
 * else the processor's online hardware threads. */
static unsigned expected_default_threads(void) {
  const char* e = getenv("BIGMUL_THREADS");
  unsigned all = (unsigned)get_nprocs();
  if (!e || !*e || !strcmp(e, "0")) return all ? all : 1;
  return (unsigned)strtoul(e, NULL, 10);
}

static void check_threads(void) {
  unsigned long long s = g_seed ^ 0x77;
  EXPECT(bigmul_threads() == expected_default_threads(), "bigmul_threads() is not the default");
  EXPECT(bigmul_set_threads(3) == BIGMUL_OK && bigmul_threads() == 3, "bigmul_set_threads(3)");
  check_mul(40000, 40000, RANDOM, ALL_MAX, &s);
  EXPECT(bigmul_set_threads(1) == BIGMUL_OK && bigmul_threads() == 1, "bigmul_set_threads(1)");
  check_mul(40000, 13000, RUNS, RANDOM, &s);
  EXPECT(bigmul_set_threads(0) == BIGMUL_OK && bigmul_threads() == expected_default_threads(),
         "bigmul_set_threads(0) does not restore the default");
}

/* Several threads at once. Messages are per thread: after half the threads
 * fail a call and the others succeed (all waiting at a barrier in between),
 * each still sees only its own. */
struct job {
  unsigned long long seed;
  int misuse;
  int ok;
};

static pthread_barrier_t g_barrier;

static void* thread_main(void* arg) {
  struct job* j = arg;
  unsigned long long s = j->seed;
  bigmul_limb_t r[4], u[2] = {1, 2};
  if (j->misuse)
    j->ok = bigmul_mul(r, u, 1, u, 2, NULL) == BIGMUL_ERROR_ARGUMENT;
  else
    j->ok = bigmul_mul(r, u, 2, u, 2, NULL) == BIGMUL_OK;
  pthread_barrier_wait(&g_barrier);
  const char* msg = bigmul_last_error();
  j->ok = j->ok && (j->misuse ? strncmp(msg, "bigmul_mul: un < vn", 19) == 0 : msg[0] == 0);
  pthread_barrier_wait(&g_barrier);
  for (int rep = 0; rep < 3; ++rep) {
    long vn = 100 + (long)(next(&s) % 9000), un = vn + (long)(next(&s) % 9000);
    check_mul(un, vn, (int)(next(&s) % KINDS), RANDOM, &s);
  }
  return NULL;
}

static void check_concurrent(void) {
  enum { T = 6 };
  pthread_t th[T];
  struct job jobs[T];
  pthread_barrier_init(&g_barrier, NULL, T);
  for (int t = 0; t < T; ++t) {
    jobs[t].seed = g_seed * 31 + (unsigned long long)t + 1, jobs[t].misuse = t % 2, jobs[t].ok = 0;
    if (pthread_create(&th[t], NULL, thread_main, &jobs[t])) {
      fprintf(stderr, "test_capi: cannot start a thread\n");
      exit(2);
    }
  }
  for (int t = 0; t < T; ++t) {
    pthread_join(th[t], NULL);
    if (!jobs[t].ok) failf("per-thread error text", t, jobs[t].misuse, "wrong status or message");
  }
  pthread_barrier_destroy(&g_barrier);
}

/* BIGMUL_THREADS=abc: a threaded product fails with a message naming the
 * variable; thread queries answer without throwing. */
static void check_bad_threads_env(void) {
  unsigned long long s = g_seed;
  bigmul_limb_t *u = alloc(40000), *r = alloc(80000);
  fill(u, 40000, RANDOM, &s);
  unsigned t = bigmul_threads();
  EXPECT(t >= 1, "bigmul_threads() with a bad BIGMUL_THREADS");
  EXPECT(strstr(bigmul_last_error(), "BIGMUL_THREADS") != NULL, "bigmul_threads() leaves no message");
  bigmul_status st = bigmul_sqr(r, u, 40000);
  EXPECT(st != BIGMUL_OK && strstr(bigmul_last_error(), "BIGMUL_THREADS") != NULL,
         "a product under a bad BIGMUL_THREADS did not fail naming it");
  /* an explicit count needs no environment */
  bigmul_set_threads(2);
  mp_limb_t* q = alloc(80000);
  mpn_sqr(q, u, 40000);
  EXPECT(bigmul_sqr(r, u, 40000) == BIGMUL_OK && same(r, q, 80000), "bigmul_sqr with threads set explicitly");
  free(u), free(r), free(q);
}

/* Capping the address space makes the product's scratch allocation fail. */
static void check_memory(void) {
  enum { N = 400000 }; /* 7.7 million digits: scratch of tens of MB */
  unsigned long long s = g_seed;
  bigmul_limb_t *u = alloc(N), *v = alloc(N), *r = alloc(2 * N), *q = alloc(2 * N);
  fill(u, N, RANDOM, &s), fill(v, N, ALL_MAX, &s);
  mpn_mul_n(q, u, v, N);
  bigmul_set_threads(1);
  struct rlimit old, cap;
  if (getrlimit(RLIMIT_AS, &old)) exit(2);
  FILE* f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (!f || fscanf(f, "%lu", &pages) != 1) exit(2);
  fclose(f);
  cap = old;
  cap.rlim_cur = pages * 4096ul + (8ul << 20); /* what is mapped now + 8 MB */
  if (setrlimit(RLIMIT_AS, &cap)) exit(2);
  bigmul_status st = bigmul_mul_n(r, u, v, N);
  setrlimit(RLIMIT_AS, &old);
  if (st != BIGMUL_ERROR_MEMORY) failf("capped address space", N, N, "status is not BIGMUL_ERROR_MEMORY");
  if (strncmp(bigmul_last_error(), "bigmul_mul_n: ", 14)) failf("capped address space", N, N, "no message");
  if (bigmul_mul_n(r, u, v, N) != BIGMUL_OK || !same(r, q, 2 * N))
    failf("the product after the cap is lifted", N, N, bigmul_last_error());
  free(u), free(v), free(r), free(q);
}

int main(int argc, char** argv) {
  const char* seed = getenv("BIGMUL_TEST_SEED");
  if (seed && *seed) g_seed = strtoull(seed, NULL, 10);
  const char* mode = argc > 1 ? argv[1] : "checks";
  if (!strcmp(mode, "checks")) {
    check_strings();
    check_misuse();
    check_products();
    check_threads();
    check_concurrent();
  } else if (!strcmp(mode, "bad-threads-env")) {
    check_bad_threads_env();
  } else if (!strcmp(mode, "memory")) {
    check_memory();
  } else if (!strcmp(mode, "print-crossover")) { /* for tests/preload/settings.sh */
    printf("%zu\n", bigmul_gmp_crossover_limbs());
    return 0;
  } else {
    fprintf(stderr, "test_capi: unknown mode '%s' (checks, bad-threads-env, memory or print-crossover)\n", mode);
    return 2;
  }
  if (g_failures) {
    fprintf(stderr, "test_capi: %ld failure(s)\n", g_failures);
    return 1;
  }
  printf("test_capi %s: all checks passed (seed %llu)\n", mode, g_seed);
  return 0;
}
