// SPDX-License-Identifier: LGPL-3.0-or-later
// One interface to the NTT engines (mul/ntt_mul.hpp): what the multiply
// asks of an engine, declared once.
//
// Two halves. ntt_engine_iface, one constant per engine looked up by
// ntt_engine_of, answers the questions asked once a product or less (its
// primes, cost and memory figures, and the multiply itself) through plain
// data and function pointers. The per-transform calls go through a
// compile-time adapter instead (a struct of static functions, the
// ntt_plan_adapter defaults below, each engine's in mul/ntt_engine_*.cpp):
// the driver (mul/ntt_driver.hpp) is instantiated once per adapter, so a
// call costs what the plan's own member call costs. An engine that fuses
// more (a pointwise product into its inverse, a load into its forward
// transform, several levels in one pass) overrides the adapter's function
// for it; the driver does not change.
#pragma once

#include <cstddef>
#include <memory>

#include "bigmul/config.hpp"
#include "bigmul/mul.hpp"
#include "fft/ntt.hpp"
#include "mul/ntt_crt_carry.hpp"
#include "mul/ntt_mul.hpp"
#include "mul/ntt_operand.hpp"
#include "mul/ntt_piece.hpp"

namespace bigmul::detail {

// The test-only knobs of mul_ntt, passed through to the engine's multiply.
struct ntt_request {
  unsigned force_primes = 0, force_bits = 0;
  ntt_fold fold = ntt_fold::automatic;
};

struct ntt_engine_iface {
  ntt_engine id;
  const char* name;         // ntt_engine_name
  const char* requirement;  // what the processor lacks when it cannot run the engine
  bool (*available)();      // whether this processor runs it
  const fft::ntt_prime* primes;
  unsigned prime_count;
  // The cost of one element of the folded piece's passes, in the fold cost
  // model's transform point-levels (mul/ntt_fold_cost.cpp).
  double piece_pass_cost;
  // Bytes of one prime's shared twiddle table up to `half` (fft/ntt_level_table).
  std::size_t (*table_bytes)(std::size_t half);
  // Builds the plans (and their twiddle tables) a product of this layout
  // asks for: the main length for every prime used and, for a folded shape,
  // the low product's or the piece's length (ntt_prepare).
  void (*build_plans)(const ntt_layout& l);
  // r[0 .. an + bn) = a * b (mul_ntt, the engine resolved).
  void (*mul)(const ntt_request& q, limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
              radix rx, const mul_options& options, mul_stats& st);
};

// The engine's interface; best: ntt_default_engine()'s (mul/ntt_engine_select.cpp).
const ntt_engine_iface& ntt_engine_of(ntt_engine e);
extern const ntt_engine_iface ntt_ifma_iface, ntt_avx2_iface, ntt_portable_iface;

// The per-transform calls of an engine whose plans are Plan (fft::ntt_plan,
// ntt52_plan, ntt_avx2_plan): each uses the plan's fused or vector step
// where the plan has one (mul/ntt_operand.hpp). An engine's adapter derives
// from this and adds `crt` (its ntt_crt_kernels) and `piece_lanes`.
// CutLanes: the vector width of the engine's limb cuts and residue packing
// (0: the processor's best; the AVX2 engine's 4 keeps AVX-512 out of its
// products, so that it measures and is tested as on an AVX2-only processor).
template <class Plan, unsigned CutLanes = 0>
struct ntt_plan_adapter {
  using plan = Plan;
  using u64 = fft::u64;
  static constexpr unsigned cut_lanes = CutLanes;
  static std::shared_ptr<const Plan> get(unsigned prime, std::size_t length) { return Plan::get(prime, length); }
  // The plans a product of layout l asks for (ntt_engine_iface::build_plans).
  static void build_plans(const ntt_layout& l) {
    for (unsigned k = 0; k < l.primes; ++k) {
      static_cast<void>(get(k, l.shape.n));
      if (l.shape.wrap != 0) static_cast<void>(get(k, l.shape.low_length ? l.shape.low_length : l.shape.piece));
    }
  }

  // Whether load_forward does an operand's load and forward transform in one
  // step (then timed as forward); else load, then forward.
  static bool loads_in_forward(const Plan& p, unsigned bits) {
    if constexpr (requires { p.load_forward_product(nullptr, nullptr, 0, 1u); })
      if (bits == 64) return true;  // the AVX2 plan's first step reads the limbs itself (no fill buffer)
    // Bit-split coefficients (whole limbs too, IFMA): the IFMA plan's radix-3
    // step, the AVX2 plan's radix-3 or first radix-4 step, reads them from ntt_fill.
    if constexpr (requires { p.forward_fill_applies(); })
      return p.forward_fill_applies();
    return false;
  }
  static void load_forward(const Plan& p, u64* x, const limb_t* src, std::size_t len, std::size_t coefficients,
                           unsigned bits, unsigned th) {
    if constexpr (requires { p.load_forward_product(x, src, coefficients, th); })
      if (bits == 64) return p.load_forward_product(x, src, coefficients, th);
    if constexpr (requires { p.forward_filled(x, th, coefficients, nullptr, nullptr); }) {
      ntt_limb_source from{src, len, bits, p.modulus(), CutLanes};
      p.forward_filled(x, th, coefficients, ntt_limb_source::fill, &from);
    }
  }
  // An operand's first `coefficients` coefficients as residues, zero-padded.
  static void load(const Plan& p, u64* x, const limb_t* src, std::size_t len, std::size_t coefficients,
                   unsigned bits, unsigned th) {
    ntt_load_plan_coefficients(p, x, src, len, coefficients, bits, th, CutLanes);
  }
  // x's forward transform, x[len ..) zero.
  static void forward(const Plan& p, u64* x, std::size_t len, unsigned th) { ntt_forward_operand(p, x, len, th); }

  // Whether the main product's pointwise step is fused into its inverse
  // (pointwise_inverse; then timed as inverse); else pointwise, then inverse.
  static constexpr bool fused_pointwise_inverse =
      requires(const Plan& p, u64* x) { p.pointwise_inverse_product(x, x, 1u); } ||
      requires(const Plan& p, u64* x) { p.pointwise_inverse(x, x, 1u); };
  static void pointwise_inverse(const Plan& p, u64* x, const u64* y, unsigned th) {
    if constexpr (requires { p.pointwise_inverse_product(x, y, th); })
      p.pointwise_inverse_product(x, y, th);
    else if constexpr (requires { p.pointwise_inverse(x, y, th); })
      p.pointwise_inverse(x, y, th);
    else
      pointwise(p, x, y, th), inverse(p, x, th);
  }
  static void pointwise(const Plan& p, u64* x, const u64* y, unsigned th) { p.pointwise(x, y, th); }
  static void inverse(const Plan& p, u64* x, unsigned th) { p.inverse(x, th); }
  // The folded shape's small products (low product, piece): x = inverse(x y).
  static void product_inverse(const Plan& p, u64* x, const u64* y, unsigned th) {
    ntt_product_inverse(p, x, y, th);
  }
};

}  // namespace bigmul::detail
