// SPDX-License-Identifier: LGPL-3.0-or-later
// Template part of mul/coefficients.hpp.
#pragma once

#include <algorithm>
#include <vector>

#include "mul/coefficients_period.hpp"
#include "prim/parallel.hpp"

namespace bigmul::detail {

// Digits per period and limbs per period (see coefficients.hpp).
std::size_t period_digits(coeff_format f);
std::size_t period_limbs(coeff_format f);
// One period: period_limbs(f) limbs <-> period_digits(f) digits. join_period
// overwrites its period_limbs(f) output limbs.
void split_period(const limb_t* src, coeff_format f, std::uint32_t* out);
void join_period(const std::uint32_t* d, coeff_format f, limb_t* out);

template <class Sink>
void split_balanced(const limb_t* a, std::size_t n, coeff_format f, Sink&& sink, unsigned threads) {
  const std::size_t total = f.count(n);
  const std::uint64_t B = f.base();
  const std::size_t pd = period_digits(f), pl = period_limbs(f);
  const std::size_t periods = (total + pd - 1) / pd;
  if (periods == 0) {
    sink(std::size_t{0}, std::int64_t{0});
    return;
  }
  const std::size_t chunks = prim::chunk_count(periods, 4096 / pl + 1, threads);
  // Walks the digits of chunk c with carry-in `carry`, calling emit(i, value)
  // for each balanced digit; returns the carry out.
  const auto walk = [&](std::size_t c, std::uint32_t carry, auto&& emit) {
    const std::size_t p0 = periods * c / chunks, p1 = periods * (c + 1) / chunks;
    std::uint32_t buf[64];
    limb_t tail[32];
    for (std::size_t p = p0; p < p1; ++p) {
      const std::size_t first_limb = p * pl;
      const limb_t* src = a + first_limb;
      if (first_limb + pl > n) {  // last, partial period: zero-extend
        std::fill(tail, tail + pl, limb_t{0});
        std::copy(a + first_limb, a + n, tail);
        src = tail;
      }
      split_period(src, f, buf);
      const std::size_t base_i = p * pd, end = std::min(pd, total - base_i);
      for (std::size_t t = 0; t < end; ++t) emit(base_i + t, balanced_step(buf[t], carry, B));
    }
    return carry;
  };
  // Carry look-ahead over chunks: a chunk's carry out is a function of its
  // carry in (kill, generate or propagate); find each chunk's out for both
  // inputs in parallel, resolve the chain serially, then emit in parallel.
  std::vector<std::uint32_t> carry_in(chunks, 0);
  if (chunks > 1) {
    std::vector<std::uint8_t> out0(chunks), out1(chunks);
    const auto nothing = [](std::size_t, std::int64_t) {};
    prim::parallel_for(chunks - 1, threads, [&](std::size_t c) {
      out0[c] = static_cast<std::uint8_t>(walk(c, 0, nothing));
      out1[c] = static_cast<std::uint8_t>(walk(c, 1, nothing));
    });
    for (std::size_t c = 1; c < chunks; ++c) carry_in[c] = carry_in[c - 1] ? out1[c - 1] : out0[c - 1];
  }
  std::uint32_t last_carry = 0;
  prim::parallel_for(chunks, threads, [&](std::size_t c) {
    const std::uint32_t out = walk(c, carry_in[c], sink);
    if (c + 1 == chunks) last_carry = out;
  });
  sink(total, static_cast<std::int64_t>(last_carry));
}

}  // namespace bigmul::detail
