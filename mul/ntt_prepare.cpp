// SPDX-License-Identifier: LGPL-3.0-or-later
// Plans, tables and touched scratch for a product to come: see mul/ntt_prepare.hpp.
#include "mul/ntt_prepare.hpp"

#include <algorithm>

#include "fft/ntt.hpp"
#include "fft/ntt_avx2.hpp"
#include "fft/ntt_ifma.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {
namespace {

// The plans mul_ntt will ask for: the main length for every prime used and,
// for a folded shape, the low product's length.
template <class Plan>
void build_plans(const ntt_layout& l) {
  for (unsigned k = 0; k < l.primes; ++k) {
    static_cast<void>(Plan::get(k, l.shape.n));
    if (l.shape.wrap != 0) static_cast<void>(Plan::get(k, l.shape.low_length ? l.shape.low_length : l.shape.piece));
  }
}

}  // namespace

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
  if (e == ntt_engine::best) e = ntt_default_engine();
  if (!ntt_engine_available(e)) return;
  const ntt_layout l = ntt_choose_layout(e, an, bn, rx);
  const unsigned available = e == ntt_engine::portable ? fft::ntt_prime_count : fft::ntt52_prime_count;
  if (l.shape.n == 0 || l.primes > available) return;  // the product itself reports what is wrong
  switch (e) {
    case ntt_engine::ifma: build_plans<fft::ntt52_plan>(l); break;
    case ntt_engine::avx2: build_plans<fft::ntt_avx2_plan>(l); break;
    default: build_plans<fft::ntt_plan>(l); break;
  }
  const std::size_t bytes = ntt_heap_bytes(e, an, bn, rx, threads);
  if (bytes == 0) return;
  bool fresh = false;
  void* slab = ntt_reserve_scratch(bytes, fresh);
  // Touched on this thread alone: preparing is meant to run beside other
  // work (the CLI parses on the other core, through the thread pool, which a
  // parallel touch would hold until it is done). A kept slab is warm already.
  if (fresh) prefault_pages(slab, bytes, 1);
}

}  // namespace bigmul::detail
