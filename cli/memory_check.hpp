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

// Throws failure(exit_io, "bigmul: out of memory: ...") when `held` more
// bytes (what is still to be allocated besides the product: operands not yet
// built) plus the result (an + bn limbs) plus mul_heap_bytes exceed
// memory_available(). `what` names the product in the message.
// Whether check_product_memory would let the product through (no throw).
bool product_fits(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held);

void check_product_memory(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held,
                          const std::string& what);

}  // namespace bigmul::cli
