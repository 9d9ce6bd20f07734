// SPDX-License-Identifier: LGPL-3.0-or-later
/* GMP's interposed mpn functions checked against GMP's own: run once without
 * libbigmul_gmp.so and once under LD_PRELOAD (tests/preload/run_oracle.sh).
 * mpn_* below bind to the first definition in the process (the preload's when
 * it is loaded); the oracle is libgmp's own definition, taken from libgmp's
 * handle, whose scope never includes the preload.
 *
 * usage: preload_oracle CROSSOVER STR_CROSSOVER MAX_DIGITS [expect-preload]
 * CROSSOVER, STR_CROSSOVER: the preload's crossovers in this run (limbs), tested at +-1.
 * Seed: BIGMUL_TEST_SEED (printed on failure). Exit 0 when every result matches. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gmp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef mp_limb_t (*mul_fn)(mp_ptr, mp_srcptr, mp_size_t, mp_srcptr, mp_size_t);
typedef void (*mul_n_fn)(mp_ptr, mp_srcptr, mp_srcptr, mp_size_t);
typedef void (*sqr_fn)(mp_ptr, mp_srcptr, mp_size_t);
typedef size_t (*get_str_fn)(unsigned char*, int, mp_ptr, mp_size_t);
typedef mp_size_t (*set_str_fn)(mp_ptr, const unsigned char*, size_t, int);

static mul_fn o_mul;
static mul_n_fn o_mul_n;
static sqr_fn o_sqr;
static get_str_fn o_get_str;
static set_str_fn o_set_str;
static unsigned long long g_seed = 12345;
static long g_cross, g_str_cross;
static long g_failures;
static pthread_mutex_t g_report = PTHREAD_MUTEX_INITIALIZER;

#define GUARD 2
static const mp_limb_t sentinel = 0x5a5a5a5a5a5a5a5aull;

static void fail(const char* what, long a, long b, const char* kind) {
  pthread_mutex_lock(&g_report);
  if (g_failures++ < 20)
    fprintf(stderr, "preload_oracle: %s differs from GMP's at sizes %ld, %ld (%s operands); BIGMUL_TEST_SEED=%llu\n",
            what, a, b, kind, g_seed);
  pthread_mutex_unlock(&g_report);
}

static void* oracle(void* h, const char* name) {
  void* p = dlsym(h, name);
  if (!p) {
    fprintf(stderr, "preload_oracle: libgmp has no %s\n", name);
    exit(2);
  }
  return p;
}

/* xorshift64*: per-thread state, deterministic from the seed. */
static mp_limb_t next(unsigned long long* s) {
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

enum kind { RANDOM, ALL_ONES, RUNS, SPARSE, KINDS };
static const char* kind_names[] = {"random", "all-ones", "bit-runs", "sparse"};

/* n limbs of kind k, top limb non-zero. */
static void fill(mp_limb_t* p, long n, int k, unsigned long long* s) {
  for (long i = 0; i < n; ++i) {
    switch (k) {
      case RANDOM: p[i] = next(s); break;
      case ALL_ONES: p[i] = ~(mp_limb_t)0; break;
      case SPARSE: p[i] = (i == 0 || i == n - 1) ? 1 : 0; break;
      default: p[i] = 0;
    }
  }
  if (k == RUNS) { /* long runs of 0s and 1s (carry chains), like mpz_rrandomb */
    long bit = 0, total = n * 64;
    int one = 1;
    while (bit < total) {
      long len = 1 + (long)(next(s) % (unsigned)(total / 3 + 1));
      for (long b = bit; b < bit + len && b < total; ++b)
        if (one) p[b / 64] |= (mp_limb_t)1 << (b % 64);
      bit += len, one = !one;
    }
  }
  if (p[n - 1] == 0) p[n - 1] = 1;
}

static mp_limb_t* alloc(long n) {
  mp_limb_t* p = malloc((size_t)(n + GUARD) * sizeof(mp_limb_t));
  if (!p) {
    fprintf(stderr, "preload_oracle: out of memory (%ld limbs)\n", n);
    exit(2);
  }
  for (long i = 0; i < n + GUARD; ++i) p[i] = sentinel;
  return p;
}

static int guards_intact(const mp_limb_t* p, long n) {
  for (long i = n; i < n + GUARD; ++i)
    if (p[i] != sentinel) return 0;
  return 1;
}

/* mpn_mul(un, vn), and mpn_mul_n / mpn_sqr when un == vn, against GMP's. */
static void check_mul(long un, long vn, int k, unsigned long long* s) {
  mp_limb_t *u = alloc(un), *v = alloc(vn), *r = alloc(un + vn), *q = alloc(un + vn);
  fill(u, un, k, s);
  fill(v, vn, (k + (int)(next(s) % 2)) % KINDS, s);
  mp_limb_t top = mpn_mul(r, u, un, v, vn), otop = o_mul(q, u, un, v, vn);
  if (top != otop || memcmp(r, q, (size_t)(un + vn) * sizeof *r) || !guards_intact(r, un + vn))
    fail("mpn_mul", un, vn, kind_names[k]);
  if (un == vn) {
    mpn_mul_n(r, u, v, un);
    o_mul_n(q, u, v, un);
    if (memcmp(r, q, (size_t)(2 * un) * sizeof *r) || !guards_intact(r, 2 * un)) fail("mpn_mul_n", un, un, kind_names[k]);
    mpn_mul_n(r, u, u, un); /* the same operand twice: GMP permits it */
    o_sqr(q, u, un);
    if (memcmp(r, q, (size_t)(2 * un) * sizeof *r)) fail("mpn_mul_n(u, u)", un, un, kind_names[k]);
    mpn_sqr(r, u, un);
    if (memcmp(r, q, (size_t)(2 * un) * sizeof *r) || !guards_intact(r, 2 * un)) fail("mpn_sqr", un, un, kind_names[k]);
    top = mpn_mul(r, u, un, u, un);
    if (top != q[2 * un - 1] || memcmp(r, q, (size_t)(2 * un) * sizeof *r)) fail("mpn_mul(u, u)", un, un, kind_names[k]);
  }
  free(u), free(v), free(r), free(q);
}

/* mpn_get_str in `base` of n limbs, then mpn_set_str of its digits back, against GMP's. */
static void check_str(long n, int base, int k, unsigned long long* s) {
  mp_limb_t *u = alloc(n), *u2 = alloc(n), *r = alloc(n + 1), *q = alloc(n + 1);
  fill(u, n, k, s);
  size_t cap = (size_t)n * 64 + 2;
  unsigned char *a = malloc(cap), *b = malloc(cap);
  if (!a || !b) exit(2);
  memcpy(u2, u, (size_t)n * sizeof *u);
  size_t an = mpn_get_str(a, base, u, n); /* clobbers u for bases that are not powers of 2 */
  size_t bn = o_get_str(b, base, u2, n);
  if (an != bn || memcmp(a, b, an)) fail("mpn_get_str", n, base, kind_names[k]);
  /* back: the digits as they are, and with one leading zero digit */
  for (int lead = 0; lead < 2; ++lead) {
    unsigned char* text = b;
    size_t len = bn;
    if (lead) memmove(b + 1, b, bn), b[0] = 0, len = bn + 1;
    mp_size_t rn = mpn_set_str(r, text, len, base), qn = o_set_str(q, text, len, base);
    if (rn != qn || memcmp(r, q, (size_t)rn * sizeof *r)) fail(lead ? "mpn_set_str (leading 0)" : "mpn_set_str", n, base, kind_names[k]);
  }
  free(u), free(u2), free(r), free(q), free(a), free(b);
}

/* Every check at sizes crossover-1 .. crossover+1, unbalanced shapes, and
 * 10^2 .. max_digits decimal digits. */
static void run_all(long max_digits, unsigned long long seed) {
  unsigned long long s = seed;
  for (int k = 0; k < KINDS; ++k) {
    for (long d = -1; d <= 1; ++d) {
      long n = g_cross + d;
      if (n >= 1) {
        check_mul(n, n, k, &s);
        check_mul(n + 1, n, k, &s);
        check_mul(3 * n + 7, n, k, &s);
      }
      long m = g_str_cross + d;
      if (m >= 1) check_str(m, 10, k, &s);
      if (m * 19 + d >= 1) {
        /* mpn_set_str decides by digits / 19: strings around that edge */
        unsigned char* t = malloc((size_t)(m * 19 + 19));
        mp_limb_t *r = alloc(m + 2), *q = alloc(m + 2);
        for (long len = m * 19 - 1; len <= m * 19 + 1; ++len) {
          if (len < 1) continue;
          for (long i = 0; i < len; ++i) t[i] = (unsigned char)(k == ALL_ONES ? 9 : next(&s) % 10);
          if (t[0] == 0) t[0] = 7;
          mp_size_t rn = mpn_set_str(r, t, (size_t)len, 10), qn = o_set_str(q, t, (size_t)len, 10);
          if (rn != qn || memcmp(r, q, (size_t)rn * sizeof *r)) fail("mpn_set_str at its crossover", len, 10, kind_names[k]);
        }
        free(t), free(r), free(q);
      }
    }
    for (long digits = 100; digits <= max_digits; digits *= 10) {
      long n = (long)(digits / 19.265919722494796) + 1;
      check_mul(n, n, k, &s);
      check_mul(n + n / 3, n - n / 4, k, &s);
      if (n / 50 >= 1) check_mul(n, n / 50 + 1, k, &s);
      check_str(n, 10, k, &s);
    }
  }
  check_str(g_str_cross + 5, 3, RANDOM, &s); /* other bases go to GMP */
  check_str(g_str_cross + 5, 16, RUNS, &s);
  check_str(g_str_cross + 5, 256, RANDOM, &s);
}

struct job {
  unsigned long long seed;
};

static void* thread_main(void* arg) {
  struct job* j = arg;
  unsigned long long s = j->seed;
  for (int rep = 0; rep < 3; ++rep) {
    long n = g_cross + (long)(next(&s) % 3000);
    check_mul(n + (long)(next(&s) % 100), n, (int)(next(&s) % KINDS), &s);
    check_mul(n, n, RANDOM, &s);
    check_str(g_str_cross + (long)(next(&s) % 3000), 10, RANDOM, &s);
  }
  return NULL;
}

/* 8 threads at once. */
static void run_threads(void) {
  pthread_t t[8];
  struct job jobs[8];
  for (int i = 0; i < 8; ++i) {
    jobs[i].seed = g_seed * 31 + (unsigned long long)i + 1;
    if (pthread_create(&t[i], NULL, thread_main, &jobs[i])) exit(2);
  }
  for (int i = 0; i < 8; ++i) pthread_join(t[i], NULL);
}

static volatile int g_stop;
static void* busy_main(void* arg) {
  unsigned long long s = (unsigned long long)(uintptr_t)arg;
  while (!g_stop) check_mul(g_cross + 2000, g_cross + 1500, RANDOM, &s);
  return NULL;
}

/* fork() after bigmul has run (its pool started) and while other threads are
 * inside it: the child computes exactly and exits normally (destructors run). */
static void run_fork(void) {
  unsigned long long s = g_seed + 99;
  check_mul(g_cross + 4000, g_cross + 4000, RANDOM, &s);
  pthread_t busy[2];
  for (int i = 0; i < 2; ++i) pthread_create(&busy[i], NULL, busy_main, (void*)(uintptr_t)(i + 7));
  for (int round = 0; round < 3; ++round) {
    pid_t pid = fork();
    if (pid < 0) exit(2);
    if (pid == 0) {
      unsigned long long cs = g_seed + 1000 + (unsigned long long)round;
      check_mul(g_cross + 3000, g_cross + 2500, RUNS, &cs);
      check_mul(g_cross + 3000, g_cross + 3000, ALL_ONES, &cs);
      check_str(g_str_cross + 2000, 10, RANDOM, &cs);
      exit(g_failures ? 1 : 0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) fail("a forked child", round, 0, "fork");
  }
  g_stop = 1;
  for (int i = 0; i < 2; ++i) pthread_join(busy[i], NULL);
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: preload_oracle CROSSOVER STR_CROSSOVER MAX_DIGITS [expect-preload]\n");
    return 2;
  }
  g_cross = atol(argv[1]), g_str_cross = atol(argv[2]);
  long max_digits = atol(argv[3]);
  if (g_cross < 1 || g_str_cross < 1 || max_digits < 100) {
    fprintf(stderr, "preload_oracle: crossovers must be >= 1 and MAX_DIGITS >= 100\n");
    return 2;
  }
  const char* seed = getenv("BIGMUL_TEST_SEED");
  if (seed && *seed) g_seed = strtoull(seed, NULL, 10);
  void* gmp = dlopen("libgmp.so.10", RTLD_LAZY | RTLD_NOLOAD);
  if (!gmp) {
    fprintf(stderr, "preload_oracle: libgmp.so.10 is not loaded\n");
    return 2;
  }
  o_mul = (mul_fn)oracle(gmp, "__gmpn_mul");
  o_mul_n = (mul_n_fn)oracle(gmp, "__gmpn_mul_n");
  o_sqr = (sqr_fn)oracle(gmp, "__gmpn_sqr");
  o_get_str = (get_str_fn)oracle(gmp, "__gmpn_get_str");
  o_set_str = (set_str_fn)oracle(gmp, "__gmpn_set_str");
  /* Which definition the program's calls reach: the preload's when expected. */
  Dl_info info;
  const int interposed = dladdr((void*)&mpn_mul, &info) && strstr(info.dli_fname, "libbigmul_gmp") != NULL;
  const int expect = argc > 4 && strcmp(argv[4], "expect-preload") == 0;
  if (interposed != expect) {
    fprintf(stderr, "preload_oracle: mpn_mul resolves to %s, expected %s\n", info.dli_fname,
            expect ? "libbigmul_gmp.so" : "libgmp");
    return 1;
  }
  run_all(max_digits, g_seed);
  run_threads();
  run_fork();
  if (g_failures) {
    fprintf(stderr, "preload_oracle: %ld failures (BIGMUL_TEST_SEED=%llu)\n", g_failures, g_seed);
    return 1;
  }
  printf("preload_oracle: ok (%s, crossovers %ld / %ld limbs, up to %ld digits)\n",
         interposed ? "under libbigmul_gmp.so" : "GMP alone", g_cross, g_str_cross, max_digits);
  return 0;
}
