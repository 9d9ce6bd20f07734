// The memory pre-flight check (see cli/memory_check.hpp).
#include "cli/memory_check.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/failure.hpp"

namespace bigmul::cli {
namespace {

std::optional<std::uint64_t> meminfo_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

// Under RLIMIT_AS: the limit less the address space mapped now.
std::optional<std::uint64_t> address_space_left() {
  rlimit lim{};
  if (::getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return std::nullopt;
  std::ifstream in("/proc/self/statm");
  std::uint64_t pages = 0;
  if (!(in >> pages)) return std::nullopt;
  const std::uint64_t used = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  return lim.rlim_cur > used ? lim.rlim_cur - used : 0;
}

std::string megabytes(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

}  // namespace

std::optional<std::uint64_t> memory_available() {
  const auto a = meminfo_available(), b = address_space_left();
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

namespace {

struct product_need {
  std::uint64_t result = 0, work = 0, tables = 0, total = 0;
};
product_need need_of(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held) {
  product_need n;
  n.result = (static_cast<std::uint64_t>(an) + bn) * sizeof(limb_t);
  n.work = mul_heap_bytes(std::max(an, bn), std::min(an, bn), rx, mo);
  // A one-shot process builds its twiddle tables during this product: ~1.6 GB
  // at 3 10^8 digits, as much as the transform buffers.
  n.tables = mul_table_bytes(std::max(an, bn), std::min(an, bn), rx, mo);
  n.total = held + n.result + n.work + n.tables;
  return n;
}

}  // namespace

bool product_fits(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held) {
  if (an == 0 || bn == 0) return true;
  const auto available = memory_available();
  return !available || need_of(an, bn, rx, mo, held).total <= *available;
}

void check_product_memory(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held,
                          const std::string& what) {
  if (an == 0 || bn == 0) return;
  const product_need n = need_of(an, bn, rx, mo, held);
  const std::uint64_t need = n.total, result = n.result, work = n.work, tables = n.tables;
  const auto available = memory_available();
  if (!available || need <= *available) return;
  const bool capped = address_space_left().has_value();
  throw failure(exit_io, "bigmul: out of memory: " + what + " needs " + megabytes(need) + " (" +
                             (held ? "operands " + megabytes(held) + " + " : std::string()) + "product " +
                             megabytes(result) + " + transform buffers " + megabytes(work) +
                             (tables ? " + twiddle tables " + megabytes(tables) : std::string()) + "), " +
                             megabytes(*available) + " available" + (capped ? " (ulimit -v)" : "") +
                             "; nothing was computed");
}

}  // namespace bigmul::cli
