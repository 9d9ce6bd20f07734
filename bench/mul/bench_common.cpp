#include "bench_common.hpp"

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <new>
#include <thread>

namespace {
std::atomic<std::size_t> g_in_use{0}, g_peak{0};

void* counted_alloc(std::size_t n) {
  // A size header in front of every block lets delete subtract it.
  void* p = std::malloc(n + 16);
  if (!p) throw std::bad_alloc();
  *static_cast<std::size_t*>(p) = n;
  const std::size_t now = g_in_use.fetch_add(n) + n;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return static_cast<char*>(p) + 16;
}
void counted_free(void* p) noexcept {
  if (!p) return;
  char* base = static_cast<char*>(p) - 16;
  g_in_use.fetch_sub(*reinterpret_cast<std::size_t*>(base));
  std::free(base);
}
// Aligned blocks: the header sits just below the aligned pointer, and the
// offset back to the malloc'd base is stored next to the size.
void* counted_alloc_aligned(std::size_t n, std::size_t align) {
  align = std::max<std::size_t>(align, 16);
  void* raw = std::malloc(n + align + 16);
  if (!raw) throw std::bad_alloc();
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t user = (base + 16 + align - 1) & ~(static_cast<std::uintptr_t>(align) - 1);
  reinterpret_cast<std::size_t*>(user)[-2] = n;
  reinterpret_cast<std::size_t*>(user)[-1] = user - base;
  const std::size_t now = g_in_use.fetch_add(n) + n;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return reinterpret_cast<void*>(user);
}
void counted_free_aligned(void* p) noexcept {
  if (!p) return;
  const auto user = reinterpret_cast<std::uintptr_t>(p);
  g_in_use.fetch_sub(reinterpret_cast<std::size_t*>(user)[-2]);
  std::free(reinterpret_cast<void*>(user - reinterpret_cast<std::size_t*>(user)[-1]));
}
}  // namespace

void* operator new(std::size_t n, std::align_val_t a) { return counted_alloc_aligned(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_alloc_aligned(n, static_cast<std::size_t>(a)); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free_aligned(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free_aligned(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free_aligned(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free_aligned(p); }
void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }

namespace bigmul::bench {

std::size_t heap_in_use() { return g_in_use.load(); }
std::size_t heap_peak() { return g_peak.load(); }
void reset_peak() { g_peak.store(g_in_use.load()); }

void limbs_to_mpz(mpz_t out, const limb_t* p, std::size_t n, radix rx) {
  if (rx == radix::binary) {
    mpz_import(out, n, -1, sizeof(limb_t), 0, 0, p);
    return;
  }
  std::string s;
  s.reserve(19 * n + 1);
  char buf[24];
  for (std::size_t i = n; i-- > 0;) {
    std::snprintf(buf, sizeof buf, i + 1 == n ? "%llu" : "%019llu", static_cast<unsigned long long>(p[i]));
    s += buf;
  }
  mpz_set_str(out, s.empty() ? "0" : s.c_str(), 10);
}

std::string machine_description() {
  std::ifstream f("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  return model + ", " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads";
}

std::string git_commit() {
  // The tree the program runs in (a configure-time value would go stale as
  // soon as the next commit lands); the build's commit when git is absent.
  std::string out;
  if (FILE* p = popen("git -C " BIGMUL_SOURCE_DIR " rev-parse --short HEAD 2>/dev/null", "r")) {
    char buf[64];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    if (pclose(p) != 0) out.clear();
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (!out.empty()) {
    if (FILE* p = popen("git -C " BIGMUL_SOURCE_DIR " status --porcelain --untracked-files=no 2>/dev/null", "r")) {
      if (std::fgetc(p) != EOF) out += " (modified)";
      pclose(p);
    }
    return out;
  }
  return BIGMUL_GIT_COMMIT;
}

namespace {
std::FILE* g_log = nullptr;
}

bool open_log(const std::string& path) {
  if (g_log) std::fclose(g_log);
  g_log = std::fopen(path.c_str(), "w");
  return g_log != nullptr;
}

void say(const char* fmt, ...) {
  std::va_list ap;
  va_start(ap, fmt);
  if (g_log) {
    std::va_list copy;
    va_copy(copy, ap);
    std::vfprintf(g_log, fmt, copy);
    va_end(copy);
    std::fflush(g_log);
  }
  std::vprintf(fmt, ap);
  va_end(ap);
  std::fflush(stdout);
}

std::string today() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

}  // namespace bigmul::bench
