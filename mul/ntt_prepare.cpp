// SPDX-License-Identifier: LGPL-3.0-or-later
// Plans, tables and touched scratch for a product to come: see mul/ntt_prepare.hpp.
#include "mul/ntt_prepare.hpp"

#include <algorithm>

#include "bigmul/error.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {

void prefault_pages(void* p, std::size_t bytes, unsigned threads) {
  constexpr std::size_t page = 4096;
  auto* base = static_cast<unsigned char*>(p);
  const std::size_t pages = (bytes + page - 1) / page;
  // 2 MiB a chunk at least: a thread hand-off costs about one fault's time.
  prim::parallel_chunks(pages, 512, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) *static_cast<volatile unsigned char*>(base + i * page) = 0;
  });
}

void ntt_prepare(ntt_engine e, std::size_t an, std::size_t bn, radix rx, unsigned threads) {
  if (an < bn) std::swap(an, bn);
  if (bn == 0) return;
  // The engine mul_ntt will run; an unusable request is the product's to report.
  const ntt_engine_iface& E = ntt_engine_of(e);
  if (!E.available()) return;
  ntt_layout l;
  try {
    l = ntt_choose_layout(E.id, an, bn, rx);
  } catch (const error&) {
    return;  // a bad BIGMUL_NTT_WIDE: the product itself reports it
  }
  if (l.shape.n == 0 || l.primes > E.prime_count) return;  // the product itself reports what is wrong
  E.build_plans(l);
  const std::size_t bytes = ntt_heap_bytes(E.id, an, bn, rx, threads);
  if (bytes == 0) return;
  bool fresh = false;
  void* slab = ntt_reserve_scratch(bytes, fresh);
  // Touched on this thread alone: preparing is meant to run beside other
  // work (the CLI parses on the other core, through the thread pool, which a
  // parallel touch would hold until it is done). A kept slab is warm already.
  if (fresh) prefault_pages(slab, bytes, 1);
}

}  // namespace bigmul::detail
