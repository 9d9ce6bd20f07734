// SPDX-License-Identifier: LGPL-3.0-or-later
// The CPU block emulator's scaffolding that the single-pass kernels' model
// tests share (tests/mul/test_split_fused_model.cpp,
// tests/carry/test_carry_fused_model.cpp, tests/mul/test_carry_join_model.cpp):
// a grid of blocks run one step at a time, at most `resident` of them holding a
// ticket, picked at random or latest ticket first; and one block's decoupled
// look-back [MERRILL16] over packed one-word descriptors
// (prim/cuda/lookback_packed.hpp), one lane's read a step, as the kernels'
// warp 0 does it. Each test keeps its own kernel steps and mutants.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "prim/cuda/lookback_packed.hpp"

namespace bigmul::test::emu {

namespace lb = bigmul::prim::lookback;

// A block's phases: 0 not started (no ticket yet), 1 looking back, 2 emitting, 3 done.
enum : int { not_started = 0, looking_back = 1, emitting = 2, done = 3 };

// The active block to step: any, or (latest_first, 3 steps in 4, so that the
// spinning latest lets the others on) a block about to take a ticket, else the
// one with the highest ticket.
template <class Block>
std::size_t pick(const std::vector<std::size_t>& active, const std::vector<Block>& grid, bool latest_first,
                 std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> any(0, active.size() - 1);
  if (!latest_first || rng() % 4 == 0) return any(rng);
  std::size_t best = 0;
  for (std::size_t i = 0; i < active.size(); ++i) {
    if (grid[active[i]].phase == not_started) return i;
    if (grid[active[i]].tile >= grid[active[best]].tile) best = i;
  }
  return best;
}

// Runs every block of grid (launched in order, at most `resident` at once) to
// phase done; step(block) advances one block by one step. Block has phase and tile.
template <class Block, class Step>
void run_grid(std::vector<Block>& grid, std::size_t resident, bool latest_first, std::mt19937_64& rng, Step&& step) {
  std::size_t launched = 0, finished = 0;
  std::vector<std::size_t> active;
  while (finished < grid.size()) {
    while (launched < grid.size() && active.size() < resident) active.push_back(launched++);
    const std::size_t i = pick(active, grid, latest_first, rng);
    Block& b = grid[active[i]];
    step(b);
    if (b.phase == done) {
      active.erase(active.begin() + static_cast<long>(i));
      ++finished;
    }
  }
}

// One block's look-back state (a test's block derives from it).
struct lookback {
  std::uint32_t aggregate = 0, running = 0;  // the tile's own value; the prefix of the tiles before it
  long long window = 0;                      // the newest tile the current window reads
  unsigned lane = 0;
  std::vector<std::uint32_t> st, v;          // the window's statuses and values
};

// Test-only faults of the look-back, for the tests' mutants.
struct lookback_faults {
  bool fold_reversed = false;  // the window's fold joined on the wrong side
  bool skip_tile = false;      // each window steps one tile too far
};

inline void publish(std::vector<std::uint64_t>& desc, std::size_t at, std::uint32_t status, std::uint32_t value) {
  std::uint64_t w[1];
  lb::encode(status, value, w);
  desc[at] = w[0];
}

// The tile's first descriptor (product descriptors from desc[base]): tile 0
// publishes its prefix and needs no look-back (returns emitting), the others
// their aggregate, and start a window at the tile before (returns looking_back).
inline int start_lookback(std::vector<std::uint64_t>& desc, std::size_t base, std::size_t tile, std::uint32_t aggregate,
                          std::uint32_t identity, unsigned lanes, lookback& l) {
  l.aggregate = aggregate;
  l.running = identity;
  if (tile == 0) {
    publish(desc, base, lb::status_prefix, aggregate);
    return emitting;
  }
  publish(desc, base + tile, lb::status_aggregate, aggregate);
  l.window = static_cast<long long>(tile) - 1;
  l.lane = 0;
  l.st.assign(lanes, 0);
  l.v.assign(lanes, 0);
  return looking_back;
}

// One lane's one-word read (an invalid word restarts the window: the back-off);
// a full window folds, and once a prefix is in it the tile publishes its own
// (returns emitting; l.running is then the tile's exclusive prefix).
template <class Op>
int lookback_step(std::vector<std::uint64_t>& desc, std::size_t base, std::size_t tile, unsigned lanes, Op op,
                  std::uint32_t identity, lookback& l, lookback_faults f = {}) {
  const long long idx = l.window - static_cast<long long>(l.lane);
  std::uint32_t st = lb::status_prefix, v = identity;
  if (idx >= 0) {
    const std::uint64_t w[1] = {desc[base + static_cast<std::size_t>(idx)]};
    st = lb::decode(w, v);
  }
  if (st == lb::status_invalid) {
    l.lane = 0;
    return looking_back;
  }
  l.st[l.lane] = st;
  l.v[l.lane] = v;
  if (++l.lane < lanes) return looking_back;
  std::uint32_t fold = identity;
  const bool stop = lb::fold_window(l.st.data(), l.v.data(), lanes, op, identity, fold);
  l.running = f.fold_reversed ? op(l.running, fold) : op(fold, l.running);
  if (stop) {
    publish(desc, base + tile, lb::status_prefix, op(l.running, l.aggregate));
    return emitting;
  }
  l.window -= lanes + (f.skip_tile ? 1 : 0);
  l.lane = 0;
  return looking_back;
}

}  // namespace bigmul::test::emu
