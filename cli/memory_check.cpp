// SPDX-License-Identifier: LGPL-3.0-or-later
// The memory pre-flight check (see cli/memory_check.hpp).
#include "cli/memory_check.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/failure.hpp"
#include "mul/ntt_mul.hpp"

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

bool address_space_limited() { return address_space_left().has_value(); }

std::optional<std::uint64_t> memory_available() {
  const auto a = meminfo_available(), b = address_space_left();
  if (a && b) return std::min(*a, *b);
  return a ? a : b;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

namespace {

std::string size_text(std::uint64_t bytes) { return bytes == UINT64_MAX ? std::string("more than 2^64 bytes") : megabytes(bytes); }

struct product_need {
  std::uint64_t result = 0, work = 0, tables = 0, total = 0;
};
product_need need_of(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held,
                     bool result_held) {
  product_need n;
  n.result = result_held ? 0 : saturating_mul(saturating_add(an, bn), sizeof(limb_t));
  n.work = mul_heap_bytes(std::max(an, bn), std::min(an, bn), rx, mo);
  // What prepare_mul reserved already (this thread's scratch, kept for the
  // product) is held, not to come: counting it again refused runs that fit.
  const std::uint64_t reserved = detail::ntt_scratch_bytes();
  n.work = n.work > reserved ? n.work - reserved : 0;
  // A one-shot process builds its twiddle tables during this product: ~1.6 GB
  // at 3 10^8 digits, as much as the transform buffers.
  n.tables = mul_table_bytes(std::max(an, bn), std::min(an, bn), rx, mo);
  n.total = saturating_add(saturating_add(held, n.result), saturating_add(n.work, n.tables));
  return n;
}

[[noreturn]] void refuse(const std::string& what, std::uint64_t need, const std::string& parts,
                         std::uint64_t available) {
  const bool capped = address_space_left().has_value();
  throw failure(exit_io, "bigmul: out of memory: " + what + " needs " + size_text(need) + " (" + parts + "), " +
                             megabytes(available) + " available" + (capped ? " (ulimit -v)" : "") +
                             "; nothing was computed");
}

}  // namespace

bool product_fits(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held) {
  if (an == 0 || bn == 0) return true;
  const auto available = memory_available();
  return !available || need_of(an, bn, rx, mo, held, false).total <= *available;
}

void check_product_memory(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held,
                          const std::string& what, bool result_held) {
  if (an == 0 || bn == 0) return;
  const product_need n = need_of(an, bn, rx, mo, held, result_held);
  const auto available = memory_available();
  if (!available || n.total <= *available) return;
  refuse(what, n.total,
         (held ? "operands " + size_text(held) + " + " : std::string()) +
             (result_held ? std::string() : "product " + size_text(n.result) + " + ") + "transform buffers " +
             size_text(n.work) + (n.tables ? " + twiddle tables " + size_text(n.tables) : std::string()),
         *available);
}

run_need run_memory(const run_buffers& r, const mul_options& mo) {
  run_need n;
  const std::uint64_t limb = sizeof(limb_t);
  const std::uint64_t operands = saturating_mul(saturating_add(r.an, r.bn), limb);
  const std::uint64_t product = operands;  // an + bn limbs
  const std::uint64_t digits_per_limb = r.rx == radix::decimal ? 19 : 16;
  n.inputs = r.inputs;
  n.product = product;
  if (r.an != 0 && r.bn != 0) {
    n.work = mul_heap_bytes(std::max(r.an, r.bn), std::min(r.an, r.bn), r.rx, mo);
    n.tables = mul_table_bytes(std::max(r.an, r.bn), std::min(r.an, r.bn), r.rx, mo);
  }
  // The product's text: sign, 0x, digits, newline.
  n.text = saturating_add(saturating_mul(saturating_add(r.an, r.bn), digits_per_limb), 4);
  // A conversion into rx holds its result beside its input, and divide and
  // conquer products of half its size with their tables of powers and
  // reciprocals and the products' transform buffers: counted as ten more
  // copies of the larger operand (calibrated on a conversion's measured peak
  // RSS; three copies fell short).
  if (r.convert) n.convert = saturating_add(operands, saturating_mul(std::max(r.an, r.bn), 10 * limb));
  // --verify: the operands and the product copied twice (integers, then
  // mpz, GMP's own product among them) and GMP's scratch (one more product);
  // decimal numbers go to GMP as text (2.4 x a number's bytes) through
  // mpz_set_str, whose scratch is larger: 12 more product sizes, the top of
  // what a decimal --verify's peak RSS was seen to add.
  if (r.verify) {
    n.verify = saturating_add(saturating_mul(saturating_add(operands, product), 2), product);
    if (r.rx == radix::decimal) n.verify = saturating_add(n.verify, saturating_mul(product, 12));
  }
  // Phases: multiply (and convert before it), verify, then the text, with
  // the inputs held throughout (the arena) and the tables kept once built.
  const std::uint64_t base = saturating_add(r.inputs, saturating_add(operands, product));
  const std::uint64_t multiply = saturating_add(base, saturating_add(n.work, n.tables));
  const std::uint64_t convert = saturating_add(base, n.convert);
  const std::uint64_t verify = saturating_add(base, saturating_add(n.verify, n.tables));
  const std::uint64_t text = saturating_add(base, saturating_add(n.text, n.tables));
  // Plus what is not itemized (thread stacks, the product's small per-call
  // tables, heap slack): a sixteenth and 64 MiB cover it.
  const std::uint64_t itemized = std::max({multiply, convert, verify, text});
  n.peak = saturating_add(itemized, saturating_add(itemized / 16, std::uint64_t{64} << 20));
  return n;
}

void check_run_memory(const run_buffers& r, const mul_options& mo, const std::string& what) {
  if (r.an == 0 || r.bn == 0) return;
  const run_need n = run_memory(r, mo);
  const auto available = memory_available();
  if (!available || n.peak <= *available) return;
  const auto part = [](const char* name, std::uint64_t bytes) {
    return bytes ? std::string(" + ") + name + " " + size_text(bytes) : std::string();
  };
  std::string parts = "operands and product " + size_text(saturating_add(saturating_mul(n.product, 2), n.inputs)) +
                      part("transform buffers", n.work) + part("twiddle tables", n.tables) +
                      part("conversion", n.convert) + part("verification", n.verify) + part("text", n.text) +
                      ", the largest phase counted, with a margin";
  refuse(what, n.peak, parts, *available);
}

}  // namespace bigmul::cli
