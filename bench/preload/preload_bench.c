// SPDX-License-Identifier: LGPL-3.0-or-later
/* One GMP workload, timed: run_preload_bench.sh runs it without and with
 * LD_PRELOAD=libbigmul_gmp.so and compares. A plain GMP program, unaware of
 * bigmul: whatever it gains comes from the preload alone.
 *
 * usage: preload_bench OP DIGITS [MIN_SECONDS]
 *   mul      mpz_mul of two random DIGITS-digit numbers
 *   sqr      mpz_mul(c, a, a)
 *   get_str  mpz_get_str of a random DIGITS-digit number in base 10
 *   set_str  mpz_set_str of DIGITS decimal digits
 *   small    a loop of mpz_mul at DIGITS digits (1000: far below the crossover;
 *            the time per product shows what the preload's check costs)
 * Repeats the operation until MIN_SECONDS (default 0.5) have passed, at least
 * once; prints one line: OP DIGITS MEDIAN_SECONDS REPEATS CHECKSUM, where the
 * checksum hashes the whole result (equal runs print equal checksums). */
#define _POSIX_C_SOURCE 200809L
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* FNV-1a over bytes. */
static uint64_t hash_bytes(const unsigned char* p, size_t n, uint64_t h) {
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static uint64_t hash_mpz(const mpz_t x) {
  size_t n = mpz_size(x);
  uint64_t h = hash_bytes((const unsigned char*)&n, sizeof n, 0xcbf29ce484222325ull);
  return hash_bytes((const unsigned char*)mpz_limbs_read(x), n * sizeof(mp_limb_t), h);
}

/* A random number of exactly `digits` decimal digits, the same in every run:
 * bits = floor(digits * log2(10)) and the top bit set give
 * 10^digits / 4 <= x < 10^digits (a power of ten would cost more than the
 * product it feeds at 10^8 digits). */
static void random_digits(mpz_t x, long digits, gmp_randstate_t rs) {
  mp_bitcnt_t bits = (mp_bitcnt_t)((double)digits * 3.321928094887362);
  mpz_urandomb(x, rs, bits);
  mpz_setbit(x, bits - 1);
}

enum { MAX_REPS = 1000 };

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: preload_bench mul|sqr|get_str|set_str|small DIGITS [MIN_SECONDS]\n");
    return 2;
  }
  const char* op = argv[1];
  char* end = NULL;
  long digits = strtol(argv[2], &end, 10);
  if (*end || digits < 2) {
    fprintf(stderr, "preload_bench: DIGITS '%s' is not a count of 2 or more\n", argv[2]);
    return 2;
  }
  double min_seconds = argc > 3 ? strtod(argv[3], NULL) : 0.5;
  int mul = !strcmp(op, "mul"), sqr = !strcmp(op, "sqr"), get = !strcmp(op, "get_str");
  int set = !strcmp(op, "set_str"), small = !strcmp(op, "small");
  if (!(mul || sqr || get || set || small)) {
    fprintf(stderr, "preload_bench: unknown operation '%s'\n", op);
    return 2;
  }
  gmp_randstate_t rs;
  gmp_randinit_default(rs);
  gmp_randseed_ui(rs, 20261129);
  mpz_t a, b, c;
  mpz_inits(a, b, c, NULL);
  random_digits(a, digits, rs);
  random_digits(b, digits, rs);
  char* text = malloc((size_t)digits + 2);
  if (!text) {
    fprintf(stderr, "preload_bench: out of memory for %ld digits\n", digits);
    return 2;
  }
  if (set) mpz_get_str(text, 10, a);
  /* small: a batch of products long enough for the clock (~20 ms) */
  long batch = small ? 1 + (long)(2e10 / ((double)digits * (double)digits)) : 1;
  double t[MAX_REPS];
  int reps = 0;
  double start = now();
  uint64_t sum = 0;
  do {
    double t0 = now();
    for (long i = 0; i < batch; ++i) {
      if (mul || small) mpz_mul(c, a, b);
      else if (sqr) mpz_mul(c, a, a);
      else if (get) mpz_get_str(text, 10, a);
      else mpz_set_str(c, text, 10);
    }
    t[reps++] = (now() - t0) / (double)batch;
  } while (reps < MAX_REPS && now() - start < min_seconds);
  sum = get ? hash_bytes((const unsigned char*)text, strlen(text), 0xcbf29ce484222325ull) : hash_mpz(c);
  if (set && mpz_cmp(a, c) != 0) {
    fprintf(stderr, "preload_bench: mpz_set_str did not give back the printed number\n");
    return 1;
  }
  qsort(t, (size_t)reps, sizeof *t, by_value);
  printf("%s %ld %.9g %d %016llx\n", op, digits, t[reps / 2], reps * (int)batch, (unsigned long long)sum);
  free(text);
  mpz_clears(a, b, c, NULL);
  gmp_randclear(rs);
  return 0;
}
