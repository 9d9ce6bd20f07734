// SPDX-License-Identifier: LGPL-3.0-or-later
// The CPU emulator of the in-house GPU FFT's pass kernel that the GPU FFT's model
// tests share (tests/fft/test_fft_gpu_model.cpp, tests/fft/test_fft_gpu_tail_model.cpp):
// complex element types, a tile's in-tile stages, and whole passes of
// fft_pass_kernel (fft/cuda/device_fft.cuh) run block by block with the kernel's
// index math (fft/cuda/device_*.hpp), checking that every valid element is read
// and written once and every shared slot is used consistently.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "fft/cuda/device_complex.hpp"
#include "fft/cuda/device_fft_plan.hpp"
#include "fft/cuda/device_stockham.hpp"
#include "fft/cuda/device_twiddle_tables.hpp"

namespace bigmul::test::fft_emu {

namespace plan = bigmul::fft::cuda::plan;

struct cd {
  double x, y;
};
struct cf {
  float x, y;
};

template <class C>
using real_of = decltype(C{}.x);

// The in-tile stages of pass d as the kernel runs them: before each stage
// on_stage(), then every thread's read phase, a barrier, every thread's compute
// and write phase (regs: the threads' registers; get(lane, idx), put(lane, idx,
// v) address shared memory, tw(e) the block twiddle table).
template <class C, bool Inv, class Get, class Put, class Tw, class OnStage>
void tile_stages(const plan::fft_plan& p, const plan::pass_desc& d, std::vector<C>& regs, Get&& get, Put&& put,
                 Tw&& tw, OnStage&& on_stage) {
  unsigned log_ns = 0;
  for (unsigned s = 0; s < d.nstages; ++s) {
    on_stage();
    plan::with_radix(d.stage_log[s], [&](auto rc) {
      constexpr int R = decltype(rc)::value;
      for (unsigned tid = 0; tid < d.threads; ++tid)  // read phase
        plan::stage_read<R>(d, tid, regs.data() + std::size_t(tid) * plan::elems_per_thread, get);
      // __syncthreads()
      for (unsigned tid = 0; tid < d.threads; ++tid)  // compute and write phase
        plan::stage_write<R, Inv>(d, tid, log_ns, p.log_block_table,
                                  regs.data() + std::size_t(tid) * plan::elems_per_thread, tw, put);
      // __syncthreads()
    });
    log_ns += d.stage_log[s];
  }
}

// Runs pass `pi` of plan p over the whole batch the way fft_pass_kernel does. load(flat)
// and store(flat, v) address the batch (flat = b*n + index). Checks that every valid
// element is read and written exactly once and that shared-memory slots are used
// consistently.
template <class C, bool Inv, class Load, class Store>
void emulate_pass(const plan::fft_plan& p, unsigned pi, bool twiddle, const std::vector<C>& tables, Load&& load,
                  Store&& store) {
  const plan::table_layout l = plan::layout_of(p);
  const C* block_tw = tables.data() + l.block;
  const C* lo = tables.data() + l.lo;
  const C* hi = tables.data() + l.hi;
  const plan::pass_desc& d = p.pass[pi];
  const std::size_t total = p.batch << p.log_n;
  std::vector<int> reads(total, 0), writes(total, 0);
  const std::size_t E = std::size_t{1} << d.log_tile();
  ASSERT_EQ(std::size_t(d.threads) * plan::elems_per_thread, E);
  ASSERT_LE(d.threads, 512u);
  std::vector<C> sh(plan::smem_elements(d.log_tile()));
  std::vector<int> stamp(sh.size());
  std::vector<C> regs(std::size_t(d.threads) * plan::elems_per_thread);
  int stage_id = 0;

  for (std::size_t blk = 0; blk < d.blocks(); ++blk) {
    const plan::tile t = plan::tile_of_block(d, blk);
    auto get_global = [&](unsigned lane, unsigned idx) -> C {
      EXPECT_LT(lane, 1u << d.log_lanes());
      EXPECT_LT(idx, 1u << d.log_m);
      const plan::element e = plan::element_at(d, t, lane, idx);
      if (!e.valid) return plan::make_c<C>(0, 0);
      EXPECT_LT(e.flat, total);
      ++reads[e.flat];
      C v = load(e.flat);
      if (Inv && twiddle) {
        const std::size_t ex = plan::pass_twiddle_exponent(p.log_n, d, e.inner, idx);
        EXPECT_LT(ex, std::size_t{1} << p.log_n);
        v = plan::c_mul_conj(v, plan::split_root(lo, hi, p.log_split, ex));
      }
      return v;
    };
    auto put_global = [&](unsigned lane, unsigned idx, C v) {
      const plan::element e = plan::element_at(d, t, lane, idx);
      if (!e.valid) return;
      EXPECT_LT(e.flat, total);
      ++writes[e.flat];
      if (!Inv && twiddle) {
        const std::size_t ex = plan::pass_twiddle_exponent(p.log_n, d, e.inner, idx);
        EXPECT_LT(ex, std::size_t{1} << p.log_n);
        v = plan::c_mul(v, plan::split_root(lo, hi, p.log_split, ex));
      }
      store(e.flat, v);
    };
    auto get_shared = [&](unsigned lane, unsigned idx) -> C {
      const unsigned s = plan::smem_index(d, lane, idx);
      EXPECT_LT(s, sh.size());
      EXPECT_EQ(stamp[s], stage_id - 1) << "slot not written by the previous stage";
      return sh[s];
    };
    auto put_shared = [&](unsigned lane, unsigned idx, const C& v) {
      EXPECT_LT(lane, 1u << d.log_lanes());
      EXPECT_LT(idx, 1u << d.log_m);
      const unsigned s = plan::smem_index(d, lane, idx);
      EXPECT_LT(s, sh.size());
      EXPECT_LT(stamp[s], stage_id) << "slot written twice in one stage";
      stamp[s] = stage_id;
      sh[s] = v;
    };
    auto tw = [&](unsigned e) -> C {
      EXPECT_LT(e, 1u << p.log_block_table);
      return block_tw[e];
    };
    // Load phase: thread tid copies elements q = tid + i*threads into shared memory.
    ++stage_id;
    for (unsigned tid = 0; tid < d.threads; ++tid)
      for (unsigned i = 0; i < plan::elems_per_thread; ++i) {
        const unsigned q = tid + i * d.threads;
        unsigned lane, idx;
        plan::tile_coords(d, q, lane, idx);
        ASSERT_EQ(plan::smem_index(d, lane, idx), plan::smem_pad(q));
        regs[std::size_t(tid) * plan::elems_per_thread + i] = get_global(lane, idx);
      }
    for (unsigned tid = 0; tid < d.threads; ++tid)
      for (unsigned i = 0; i < plan::elems_per_thread; ++i) {
        const unsigned q = tid + i * d.threads;
        unsigned lane, idx;
        plan::tile_coords(d, q, lane, idx);
        put_shared(lane, idx, regs[std::size_t(tid) * plan::elems_per_thread + i]);
      }
    // __syncthreads()
    tile_stages<C, Inv>(p, d, regs, get_shared, put_shared, tw, [&] { ++stage_id; });
    // Store phase.
    ++stage_id;
    for (unsigned tid = 0; tid < d.threads; ++tid)
      for (unsigned i = 0; i < plan::elems_per_thread; ++i) {
        const unsigned q = tid + i * d.threads;
        unsigned lane, idx;
        plan::tile_coords(d, q, lane, idx);
        put_global(lane, idx, get_shared(lane, idx));
      }
    ASSERT_FALSE(::testing::Test::HasFailure()) << "pass " << pi << " block " << blk;
  }
  for (std::size_t i = 0; i < total; ++i) {
    ASSERT_EQ(reads[i], 1) << "pass " << pi << " flat " << i;
    ASSERT_EQ(writes[i], 1) << "pass " << pi << " flat " << i;
  }
}

// The multi-pass driver of device_complex_fft::run, on host arrays (all passes in
// place in `data`, which is what the array API with d_work == nullptr does).
template <class C, bool Inv>
void emulate_fft(const plan::fft_plan& p, const std::vector<C>& tables, std::vector<C>& data) {
  auto load = [&](std::size_t f) { return data[f]; };
  auto store = [&](std::size_t f, const C& v) { data[f] = v; };
  const unsigned np = p.npasses;
  if (!Inv) {
    for (unsigned i = 0; i < np; ++i) emulate_pass<C, false>(p, i, i + 1 < np, tables, load, store);
  } else {
    for (unsigned i = np; i-- > 0;) emulate_pass<C, true>(p, i, i + 1 < np, tables, load, store);
  }
}

}  // namespace bigmul::test::fft_emu
