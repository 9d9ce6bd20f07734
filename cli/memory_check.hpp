// SPDX-License-Identifier: LGPL-3.0-or-later
// The memory pre-flight check: a product too large for this machine (or for
// the process's ulimit -v) fails before any work, with the bytes it needs,
// instead of running into the OOM killer or an allocation failure midway.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "bigmul/mul.hpp"

namespace bigmul::cli {

// Bytes this process can still allocate: /proc/meminfo's MemAvailable and,
// under RLIMIT_AS, the limit less the address space in use (/proc/self/statm);
// the smaller of the two known. Nothing known: nullopt (no check).
std::optional<std::uint64_t> memory_available();
// Whether RLIMIT_AS (ulimit -v) caps this process.
bool address_space_limited();

// Throws failure(exit_io, "bigmul: out of memory: ...") when `held` more
// bytes (what is still to be allocated besides the product: operands not yet
// built) plus the result (an + bn limbs) plus mul_heap_bytes exceed
// memory_available(). `what` names the product in the message.
// Whether check_product_memory would let the product through (no throw).
bool product_fits(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held);

// result_held: the caller holds the result's room already (not counted).
void check_product_memory(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held,
                          const std::string& what, bool result_held = false);

// Everything one run of the command holds, for the pre-flight before any
// work: the operands (an, bn limbs in the product's radix rx), what holds the
// inputs (generated numbers, the parsed limbs in their own radix, mapped
// text), the product, the transform buffers and twiddle tables, a conversion
// of the operands, --verify's copies, and the product's text. Every sum
// saturates at UINT64_MAX (never wraps, at any size).
struct run_buffers {
  std::size_t an = 0, bn = 0;
  radix rx = radix::decimal;
  std::uint64_t inputs = 0;
  bool convert = false;
  bool verify = false;
};
struct run_need {
  std::uint64_t inputs = 0, product = 0, work = 0, tables = 0, convert = 0, verify = 0, text = 0;
  std::uint64_t peak = 0;  // the largest phase's bytes (multiply, convert, verify or text), plus 1/16 and 64 MB
};
run_need run_memory(const run_buffers& r, const mul_options& mo);
// Throws failure(exit_io, "bigmul: out of memory: <what> needs ...") when
// run_memory's peak exceeds memory_available().
void check_run_memory(const run_buffers& r, const mul_options& mo, const std::string& what);

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b);
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b);

}  // namespace bigmul::cli
