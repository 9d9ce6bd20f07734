// SPDX-License-Identifier: LGPL-3.0-or-later
// Carry and join in one pass (mul/cuda/carry_join_fused.cuh); per-position
// and per-tile arithmetic in mul/cuda/carry_join_hd.hpp and
// carry/cuda/carry_fused_hd.hpp, shared with the CPU block emulator of
// tests/mul/test_carry_join_model.cpp.
#include "mul/cuda/carry_join_fused.cuh"

#include <cuda_runtime.h>

#include "carry/cuda/carry_device.cuh"
#include "carry/cuda/carry_fused_hd.hpp"
#include "carry/cuda/carry_fused_tile.cuh"
#include "carry/digit_base.hpp"
#include "mul/cuda/carry_join_hd.hpp"
#include "prim/cuda/carry_code_hd.hpp"
#include "prim/cuda/common.cuh"
#include "prim/cuda/grid.cuh"
#include "prim/cuda/lookback_tile.cuh"

namespace bigmul::detail::cuda {
namespace {

namespace ccu = bigmul::carry::cuda;
namespace fhd = bigmul::carry::cuda::fused_hd;
namespace jhd = carry_join_hd;
namespace code = bigmul::prim::carry_code;
constexpr unsigned threads = ccu::carry_threads, items = ccu::carry_items, warps = threads / 32;
constexpr std::size_t P = fhd::tile_positions, H = jhd::halo_positions;

// Per product: look-back descriptors (tiles words), then ticket, bad and done
// counters; then the pass's bad and done counters over products; all zero at
// launch (one memset).
struct product_state {
  unsigned ticket, bad, done, pad;
};
struct pass_state {
  unsigned bad, done;
};

// Run by one thread of a tile that is done: folds its bad flag into the
// product's; the product's last tile writes its ok flag and folds it into the
// pass's, whose last product writes the verdict (accept, when not nullptr).
__device__ void finish_tile(bool bad, product_state& ps, pass_state* pass, std::size_t tiles, std::size_t G, int* ok,
                            int* accept) {
  if (bad) atomicOr(&ps.bad, 1u);
  __threadfence();  // the bad flag before the done ticket
  if (atomicAdd(&ps.done, 1u) != tiles - 1) return;
  const bool fits = atomicOr(&ps.bad, 0u) == 0;
  *ok = fits ? 1 : 0;
  if (!accept) return;
  if (!fits) atomicOr(&pass->bad, 1u);
  __threadfence();  // the pass's bad flag before its done ticket
  if (atomicAdd(&pass->done, 1u) == G - 1) *accept = atomicOr(&pass->bad, 0u) ? 0 : 1;
}

// One tile of P positions per block and product, tiles by ticket. s for the
// tile, its one-position halo before and H positions after go to shared
// memory; each warp resolves items runs of 32 positions into shared digits,
// the last warp also the H positions after the tile from the tile's
// carry-out; the block joins the limbs it owns from them (decimal: through a
// limb stage in s's shared array, so the stores are consecutive); the last tile of a
// product to finish writes its ok flag, and the last product to finish the
// pass's verdict (*accept = 1 when every product fits; past the guard no
// block runs and *accept keeps the caller's 0).
template <class Base, class Join>
__global__ void __launch_bounds__(threads)
    carry_join_kernel(const std::int64_t* c, std::size_t nc, std::size_t G, Base base, unsigned D, bool signed_top,
                      std::size_t ns, std::size_t M, std::size_t m, Join join, std::uint64_t* desc,
                      product_state* state, pass_state* pass, limb_t* out, std::size_t out_n, int* d_ok,
                      int* accept, const unsigned long long* roundoff_bits, double guard) {
  // A rejected pass publishes nothing: every block reads the same word, so all leave.
  if (roundoff_bits && !jhd::within_guard(__longlong_as_double(static_cast<long long>(*roundoff_bits)), guard))
    return;
  __shared__ std::int64_t s_sh[P + 1 + H];
  __shared__ std::uint32_t dig[P + H];
  __shared__ std::uint32_t codes[warps];
  __shared__ std::size_t s_tile;
  __shared__ std::uint32_t s_prefix;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const fhd::tiling tl{M, P};
  const std::size_t tiles = tl.tiles();
  const auto B = static_cast<std::int64_t>(base.base());
  for (unsigned gy = blockIdx.y; gy < G; gy += gridDim.y) {
    const std::size_t g = gy;
    if (threadIdx.x == 0) s_tile = atomicAdd(&state[g].ticket, 1u);
    __syncthreads();
    const std::size_t tile = s_tile, first = tile * P;
    const std::int64_t* cg = c + g * nc;
    for (std::size_t i = threadIdx.x; i <= P + H; i += threads)  // s_sh[i]: position first + i - 1
      s_sh[i] = first + i == 0 ? 0 : fhd::position_s(base, cg, nc, ns, D, signed_top, first + i - 1);
    __syncthreads();
    std::int64_t t[items];
    std::uint32_t gm[items], pm[items];
    const std::uint32_t tile_carry = ccu::fused_tile::tile_carry_in<items, warps>(
        base, s_sh, first, M, B, t, gm, pm, codes, &s_prefix, desc, g, tiles, tile);
    bool bad = jhd::resolve_runs<items>(t, gm, pm, fhd::warp_carry_in(tile_carry, codes, warp),
                                        std::size_t{warp} * 32 * items, first, lane, M, m, B, true, dig);
    if (warp == warps - 1) {  // the halo: the next tile's first H positions
      std::int64_t th[jhd::halo_runs];
      std::uint32_t gh[jhd::halo_runs], ph[jhd::halo_runs];
#pragma unroll
      for (unsigned r = 0; r < jhd::halo_runs; ++r)
        ccu::fused_tile::run_masks(base, s_sh, P + r * 32 + lane, first, M, B, th[r], gh[r], ph[r]);
      jhd::resolve_runs<jhd::halo_runs>(th, gh, ph, jhd::halo_carry_in(tile_carry, codes, warps), P, first, lane, M,
                                        m, B, false, dig);
    }
    bad = __syncthreads_or(bad);  // also: every digit of the tile and halo in dig
    const jhd::owned own = join.owned_by(first, P, out_n);
    const jhd::tile_digits td{dig, first, m};
    limb_t* og = out + g * out_n;
    if constexpr (Join::staged) {  // decimal: periods into a limb stage, then consecutive stores
      static_assert(jhd::stage_limbs(P) <= P + 1 + H, "the limb stage reuses s_sh");
      limb_t* st = reinterpret_cast<limb_t*>(s_sh);  // s is dead once every run is resolved
      for (std::size_t p = own.lo + threadIdx.x; p < own.hi; p += threads) join.stage(td, p, own.lo, st);
      __syncthreads();
      const jhd::owned l = join.limbs_of(own, out_n);
      for (std::size_t i = l.lo + threadIdx.x; i < l.hi; i += threads) og[i] = st[i - l.lo];
    } else {
      for (std::size_t i = own.lo + threadIdx.x; i < own.hi; i += threads) join.put(td, i, og, out_n);
    }
    if (threadIdx.x == 0) finish_tile(bad, state[g], pass, tiles, G, d_ok + g, accept);
    __syncthreads();  // s_sh, dig, codes, s_tile and s_prefix serve the next product
  }
}

template <class Base, class Join>
cudaError_t run(void* d_temp, std::size_t& temp_bytes, const std::int64_t* d_c, std::size_t nc, std::size_t G,
                const Base& base, const Join& join, const ccu::carry_plan& plan, std::size_t m, limb_t* d_out,
                std::size_t out_n, int* d_ok, int* accept, const unsigned long long* roundoff_bits,
                double guard, cudaStream_t stream) {
  const fhd::tiling tl{plan.M, P};
  const std::size_t tiles = tl.tiles();
  prim::cuda::temp_carver carve(d_temp);
  const std::size_t words = G * tiles + 2 * G + 1;  // descriptors, G product_state (16 bytes each), pass_state
  std::uint64_t* desc = carve.take<std::uint64_t>(words);
  if (!d_temp) {
    temp_bytes = carve.bytes();
    return cudaSuccess;
  }
  if (temp_bytes < carve.bytes()) return cudaErrorInvalidValue;
  if (G == 0) return cudaSuccess;
  if (G > 0xffffffffu) return cudaErrorInvalidValue;  // the kernel counts products in 32 bits
  if (cudaError_t e = cudaMemsetAsync(desc, 0, words * sizeof(std::uint64_t), stream)) return e;
  auto* state = reinterpret_cast<product_state*>(desc + G * tiles);
  auto* pass = reinterpret_cast<pass_state*>(desc + G * tiles + 2 * G);
  const dim3 grid(static_cast<unsigned>(tiles), prim::cuda::grid_y(G));
  carry_join_kernel<Base, Join><<<grid, threads, 0, stream>>>(d_c, nc, G, base, plan.D[0], plan.signed_top[0],
                                                              plan.ns, plan.M, m, join, desc, state, pass, d_out,
                                                              out_n, d_ok, accept, roundoff_bits, guard);
  return cudaPeekAtLastError();
}

bool plan_of(coeff_format f, std::size_t nc, std::size_t m, std::uint64_t max_abs, ccu::carry_plan& plan) {
  return f.valid() && ccu::make_carry_plan<std::int64_t>(carry::digit_base{f.rx == radix::decimal, f.digits}, nc, m,
                                                         max_abs, plan) &&
         fhd::fusable(plan);
}

}  // namespace

bool carry_join_fusable(coeff_format f, std::size_t nc, std::size_t m, std::uint64_t max_abs) {
  ccu::carry_plan plan;
  return plan_of(f, nc, m, max_abs, plan);
}

cudaError_t carry_join_fused_device_batched(void* d_temp, std::size_t& temp_bytes, const std::int64_t* d_c,
                                            std::size_t nc, std::size_t G, coeff_format f, std::size_t m,
                                            limb_t* d_out, std::size_t out_n, int* d_ok, int* accept,
                                            const unsigned long long* roundoff_bits, double guard,
                                            cudaStream_t stream, std::uint64_t max_abs) {
  ccu::carry_plan plan;
  if (!plan_of(f, nc, m, max_abs, plan)) return cudaErrorInvalidValue;
  if (f.rx == radix::binary)
    return run(d_temp, temp_bytes, d_c, nc, G, carry::binary_base{f.digits}, jhd::binary_join{f.digits}, plan, m,
               d_out, out_n, d_ok, accept, roundoff_bits, guard, stream);
  return carry::with_decimal_digits(f.digits, [&](auto K) {
    constexpr unsigned k = decltype(K)::value;
    return run(d_temp, temp_bytes, d_c, nc, G, carry::decimal_base<k>{}, jhd::decimal_join<k>{}, plan, m, d_out,
               out_n, d_ok, accept, roundoff_bits, guard, stream);
  });
}

}  // namespace bigmul::detail::cuda
