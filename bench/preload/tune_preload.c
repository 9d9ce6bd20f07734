// SPDX-License-Identifier: LGPL-3.0-or-later
/* Finds the preload's crossovers on this machine and writes
 * preload/params_preload.inc: the smallest operand (limbs) from which
 * libbigmul_gmp.so's __gmpn_mul / __gmpn_sqr beat GMP's own mpn_mul / mpn_sqr,
 * and the number sizes (limbs) from which its base-10 __gmpn_get_str and
 * __gmpn_set_str beat GMP's. It times the preload itself (dlopen'ed with
 * RTLD_LOCAL, so GMP's internal calls stay GMP's), crossovers forced to 1,
 * against libgmp's functions, in the same process.
 *
 * A crossover is the smallest size on a geometric grid from which the preload
 * is faster at that size and at every larger one tried (so no size above it
 * loses; "never", written as SIZE_MAX, when it loses at the largest); the product's crossover is the largest of three shapes (balanced,
 * 4:1, square), since the preload decides by the smaller operand alone.
 *
 * usage: tune_preload --preload LIB [--out FILE] [--log FILE] [--quick]
 *   --out   the header to write (default preload/params_preload.inc; --quick: /tmp/params_preload_quick.inc)
 *   --log   the table of timings (default: stdout only)
 * Threads: BIGMUL_THREADS as the preload would see it (default: all cores). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef mp_limb_t (*mul_fn)(mp_ptr, mp_srcptr, mp_size_t, mp_srcptr, mp_size_t);
typedef void (*sqr_fn)(mp_ptr, mp_srcptr, mp_size_t);
typedef size_t (*get_str_fn)(unsigned char*, int, mp_ptr, mp_size_t);
typedef mp_size_t (*set_str_fn)(mp_ptr, const unsigned char*, size_t, int);

static mul_fn p_mul;
static sqr_fn p_sqr;
static get_str_fn p_get_str;
static set_str_fn p_set_str;
static int g_quick;
static FILE* g_log;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void say(const char* fmt, const char* a, long n, double g, double b) {
  printf(fmt, a, n, g, b, g / b);
  if (g_log) fprintf(g_log, fmt, a, n, g, b, g / b);
  fflush(stdout);
}

/* The work one timing repeats: op on size n by GMP (who 0) or the preload (1). */
enum op { MUL_BALANCED, MUL_4TO1, SQR, GET_STR, SET_STR, OPS };
static const char* op_names[] = {"mul n x n", "mul 4n x n", "sqr n", "get_str n", "set_str 19n digits"};

struct buffers {
  mp_limb_t *u, *v, *r, *w;
  unsigned char* text;
  size_t text_len;
};

static void run_once(enum op op, int who, long n, struct buffers* b) {
  switch (op) {
    case MUL_BALANCED: who ? p_mul(b->r, b->u, n, b->v, n) : mpn_mul(b->r, b->u, n, b->v, n); break;
    case MUL_4TO1: who ? p_mul(b->r, b->u, 4 * n, b->v, n) : mpn_mul(b->r, b->u, 4 * n, b->v, n); break;
    case SQR: who ? p_sqr(b->r, b->u, n) : mpn_sqr(b->r, b->u, n); break;
    case GET_STR: /* both clobber-allowed: each converts a fresh copy */
      memcpy(b->w, b->u, (size_t)n * sizeof *b->w);
      who ? p_get_str(b->text, 10, b->w, n) : mpn_get_str(b->text, 10, b->w, n);
      break;
    case SET_STR: who ? p_set_str(b->r, b->text, b->text_len, 10) : mpn_set_str(b->r, b->text, b->text_len, 10); break;
    default: break;
  }
}

/* Median of 5 (quick: 3) batches, each at least `batch_s` seconds, per call. */
static double time_op(enum op op, int who, long n, struct buffers* b) {
  const int batches = g_quick ? 3 : 5;
  const double batch_s = g_quick ? 0.002 : 0.01;
  double t[5];
  for (int k = 0; k < batches; ++k) {
    long calls = 0;
    double t0 = now(), t1;
    do {
      run_once(op, who, n, b);
      ++calls;
    } while ((t1 = now()) - t0 < batch_s);
    t[k] = (t1 - t0) / (double)calls;
  }
  for (int i = 1; i < batches; ++i) /* insertion sort */
    for (int j = i; j > 0 && t[j] < t[j - 1]; --j) {
      double x = t[j];
      t[j] = t[j - 1], t[j - 1] = x;
    }
  return t[batches / 2];
}

/* The crossover of one operation: the smallest grid size from which the
 * preload wins everywhere above; SIZE_MAX when it never wins at the top. */
static size_t crossover(enum op op, long lo, long hi, struct buffers* b) {
  size_t answer = SIZE_MAX;
  int winning_above = 1;
  long grid[128];
  int count = 0;
  for (double x = (double)lo; (long)x <= hi && count < 128; x *= g_quick ? 1.6 : 1.15) {
    long n = (long)x;
    if (count == 0 || n != grid[count - 1]) grid[count++] = n;
  }
  double* gmp_s = malloc((size_t)count * sizeof *gmp_s);
  double* pre_s = malloc((size_t)count * sizeof *pre_s);
  if (!gmp_s || !pre_s) exit(2);
  unsigned long long seed = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < count; ++i) {
    long n = grid[i];
    for (long j = 0; j < 4 * n; ++j) {
      seed ^= seed >> 12, seed ^= seed << 25, seed ^= seed >> 27;
      b->u[j] = seed * 2685821657736338717ull;
      b->v[j] = ~b->u[j];
    }
    if (op == SET_STR) {
      b->text_len = (size_t)n * 19;
      for (size_t j = 0; j < b->text_len; ++j) b->text[j] = (unsigned char)(b->u[j % (size_t)n] % 10);
      b->text[0] = 7;
    }
    gmp_s[i] = time_op(op, 0, n, b);
    pre_s[i] = time_op(op, 1, n, b);
    say("%-20s %8ld  gmp %11.4e s  preload %11.4e s  speedup %6.3f\n", op_names[op], n, gmp_s[i], pre_s[i]);
  }
  for (int i = count - 1; i >= 0; --i) {
    winning_above = winning_above && pre_s[i] < gmp_s[i];
    if (winning_above) answer = (size_t)grid[i];
  }
  free(gmp_s), free(pre_s);
  return answer;
}

static void* must(void* p, const char* what) {
  if (!p) {
    fprintf(stderr, "tune_preload: %s: %s\n", what, dlerror());
    exit(2);
  }
  return p;
}

static void processor(char* model, size_t cap, char* family, char* number, int* ifma, int* avx2) {
  FILE* f = fopen("/proc/cpuinfo", "r");
  char line[4096];
  snprintf(model, cap, "unknown"), strcpy(family, "?"), strcpy(number, "?");
  *ifma = *avx2 = 0;
  int have_model = 0, have_family = 0, have_number = 0, have_flags = 0;
  while (f && fgets(line, sizeof line, f)) {
    char* colon = strchr(line, ':');
    if (!colon) continue;
    char* v = colon + 2 <= line + strlen(line) ? colon + 2 : colon + 1;
    v[strcspn(v, "\n")] = 0;
    if (!strncmp(line, "model name", 10) && !have_model++) snprintf(model, cap, "%s", v);
    else if (!strncmp(line, "cpu family", 10) && !have_family++) snprintf(family, 16, "%s", v);
    else if (!strncmp(line, "model\t", 6) && !have_number++) snprintf(number, 16, "%s", v);
    else if (!strncmp(line, "flags", 5) && !have_flags++) {
      *ifma = strstr(v, " avx512ifma") != NULL;
      *avx2 = strstr(v, " avx2 ") != NULL && strstr(v, " fma ") != NULL;
    }
  }
  if (f) fclose(f);
}

static void write_limit(FILE* f, const char* name, size_t v, const char* why) {
  if (v == SIZE_MAX)
    fprintf(f, "inline constexpr std::size_t %s = static_cast<std::size_t>(-1);  // %s: GMP won at the largest size tried\n",
            name, why);
  else
    fprintf(f, "inline constexpr std::size_t %s = %zu;  // %s\n", name, v, why);
}

int main(int argc, char** argv) {
  const char *lib = NULL, *out = NULL, *log = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--preload") && i + 1 < argc) lib = argv[++i];
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--log") && i + 1 < argc) log = argv[++i];
    else if (!strcmp(argv[i], "--quick")) g_quick = 1;
    else {
      fprintf(stderr, "usage: tune_preload --preload LIB [--out FILE] [--log FILE] [--quick]\n");
      return 2;
    }
  }
  if (!lib) {
    fprintf(stderr, "tune_preload: --preload LIB (libbigmul_gmp.so) is required\n");
    return 2;
  }
  if (!out) out = g_quick ? "/tmp/params_preload_quick.inc" : "preload/params_preload.inc";
  /* every call to the preload goes to bigmul */
  setenv("BIGMUL_GMP_CROSSOVER", "1", 1), setenv("BIGMUL_GMP_STR_CROSSOVER", "1", 1);
  unsetenv("BIGMUL_GMP_VERBOSE");
  void* h = must(dlopen(lib, RTLD_NOW | RTLD_LOCAL), lib);
  p_mul = (mul_fn)must(dlsym(h, "__gmpn_mul"), "__gmpn_mul");
  p_sqr = (sqr_fn)must(dlsym(h, "__gmpn_sqr"), "__gmpn_sqr");
  p_get_str = (get_str_fn)must(dlsym(h, "__gmpn_get_str"), "__gmpn_get_str");
  p_set_str = (set_str_fn)must(dlsym(h, "__gmpn_set_str"), "__gmpn_set_str");
  if (log && !(g_log = fopen(log, "w"))) {
    fprintf(stderr, "tune_preload: cannot write %s\n", log);
    return 2;
  }
  char model[256], family[16], number[16], commit[64] = "unknown", date[32];
  int ifma, avx2;
  processor(model, sizeof model, family, number, &ifma, &avx2);
  FILE* git = popen("git rev-parse --short HEAD 2>/dev/null", "r");
  if (git && fgets(commit, sizeof commit, git)) commit[strcspn(commit, "\n")] = 0;
  if (git) pclose(git);
  if (!commit[0]) strcpy(commit, "unknown");
  time_t t = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  const char* forced = getenv("BIGMUL_NTT_ENGINE");
  const char* engine = forced && *forced ? forced : ifma ? "ifma" : avx2 ? "avx2" : "portable";
  const char* threads = getenv("BIGMUL_THREADS");
  char header[512];
  snprintf(header, sizeof header, "%s (family %s model %s, IFMA %s, AVX2 %s), NTT engine %s, BIGMUL_THREADS=%s, "
           "commit %s, %s", model, family, number, ifma ? "yes" : "no", avx2 ? "yes" : "no", engine,
           threads && *threads ? threads : "(all cores)", commit, date);
  printf("# tune_preload: %s%s\n", header, g_quick ? " QUICK (not a measurement)" : "");
  if (g_log) fprintf(g_log, "# tune_preload: %s\n", header);

  const long top_mul = g_quick ? 600 : 20000, top_str = g_quick ? 1500 : 40000;
  struct buffers b;
  b.u = malloc((size_t)(4 * top_str + 8) * sizeof *b.u), b.v = malloc((size_t)(4 * top_str + 8) * sizeof *b.v);
  b.w = malloc((size_t)(top_str + 8) * sizeof *b.w), b.r = malloc((size_t)(8 * top_str + 16) * sizeof *b.r);
  b.text = malloc((size_t)top_str * 20 + 8), b.text_len = 0;
  if (!b.u || !b.v || !b.w || !b.r || !b.text) return 2;
  size_t mul = 0, cross[OPS];
  for (int op = MUL_BALANCED; op <= SQR; ++op) {
    cross[op] = crossover((enum op)op, 16, top_mul, &b);
    if (cross[op] > mul) mul = cross[op];
  }
  cross[GET_STR] = crossover(GET_STR, 64, top_str, &b);
  cross[SET_STR] = crossover(SET_STR, 64, top_str, &b);
  FILE* f = fopen(out, "w");
  if (!f) {
    fprintf(stderr, "tune_preload: cannot write %s\n", out);
    return 2;
  }
  fprintf(f, "// SPDX-License-Identifier: LGPL-3.0-or-later\n");
  fprintf(f, "// Generated by bench/preload/tune_preload%s: do not edit. Measured on\n// %s.\n",
          g_quick ? " --quick (NOT a measurement)" : "", header);
  fprintf(f, "// Sizes in limbs of the smaller operand (products) or of the number (base-10 conversion);\n");
  fprintf(f, "// used when the running NTT engine is tuned_engine (preload/settings.cpp).\n");
  fprintf(f, "inline constexpr char tuned_engine[] = \"%s\";\n", engine);
  char why[128], sizes[3][24];
  for (int op = MUL_BALANCED; op <= SQR; ++op)
    cross[op] == SIZE_MAX ? snprintf(sizes[op], 24, "never") : snprintf(sizes[op], 24, "%zu", cross[op]);
  snprintf(why, sizeof why, "largest of mul n x n: %s, mul 4n x n: %s, sqr: %s", sizes[MUL_BALANCED],
           sizes[MUL_4TO1], sizes[SQR]);
  write_limit(f, "mul_crossover_limbs", mul, why);
  write_limit(f, "get_str_crossover_limbs", cross[GET_STR], "__gmpn_get_str, base 10");
  write_limit(f, "set_str_crossover_limbs", cross[SET_STR], "__gmpn_set_str, base 10 (digits / 19)");
  fclose(f);
  printf("# wrote %s: mul %zu, get_str %zu, set_str %zu limbs\n", out, mul, cross[GET_STR], cross[SET_STR]);
  if (g_log) {
    fprintf(g_log, "# wrote %s: mul %zu, get_str %zu, set_str %zu limbs\n", out, mul, cross[GET_STR], cross[SET_STR]);
    fclose(g_log);
  }
  return 0;
}
