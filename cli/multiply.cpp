// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/multiply.hpp"

#include <string>

#include "bigmul/error.hpp"
#include "cli/failure.hpp"
#include "cli/memory_check.hpp"
#include "cli/startup.hpp"
#include "cli/verify.hpp"
#include "prim/stopwatch.hpp"

namespace bigmul::cli {
namespace {

// The library's refusal as the command's exit status (returns for kinds
// that stay the library's error).
void throw_as_failure(const error& e, const options& o) {
  if (e.code() == error::kind::internal)
    throw failure(exit_check, std::string("bigmul: the product failed a check: ") + e.what());
  if (e.code() == error::kind::domain)
    throw failure(exit_usage, std::string("bigmul: --algorithm ") + algorithm_name(o.algo) + ": " + e.what());
  if (e.code() == error::kind::resource) throw failure(exit_io, std::string("bigmul: ") + e.what());
  // A request the library refuses (--backend cuda's limits, an unknown
  // BIGMUL_NTT_ENGINE) is the user's to change: usage, not an internal error.
  if (e.code() == error::kind::invalid_argument)
    throw failure(exit_usage,
                  std::string("bigmul: ") + (o.backend_choice == backend::cuda ? "--backend cuda: " : "") + e.what());
}

// BIGMUL_CLI_FAULT=corrupt-product: flips the lowest bit of the lowest limb
// (stays a valid decimal limb).
void corrupt(number_view& product, limb_t* r) {
  if (product.size == 0) {
    r[0] = 0;
    product.size = 1;
  }
  r[0] ^= 1;
  while (product.size > 0 && r[product.size - 1] == 0) --product.size;
}

}  // namespace

number_view multiply(const options& o, const mul_options& mo, progress& prog, run_room& room, const run_operands& ops,
                     prim::buffer<limb_t>& spill, phase_times& t) {
  const number_view &a = ops.a, &b = ops.b;
  const bool multiplied = !a.is_zero() && !b.is_zero();
  prog.phase("multiplying " + std::to_string(digit_count(a)) + " x " + std::to_string(digit_count(b)) + " digits");
  if (multiplied && mo.where != backend::cuda)
    check_product_memory(a.size, b.size, a.rx, mo, 0,
                         "the product of " + std::to_string(digit_count(a)) + " x " + std::to_string(digit_count(b)) +
                             " digits",
                         room.product_fits(a.size + b.size));
  const auto t0 = prim::steady_clock::now();
  const std::size_t rn = a.size + b.size;
  limb_t* r = room.product(rn, spill);
  number_view product{r, 0, false, a.rx};
  try {
    if (multiplied) {
      const number_view& big = a.size >= b.size ? a : b;
      const number_view& small = a.size >= b.size ? b : a;
      mul(r, big.limbs, big.size, small.limbs, small.size, a.rx, mo);
      std::size_t n = rn;
      while (n > 0 && r[n - 1] == 0) --n;
      product = {r, n, a.negative != b.negative, a.rx};
    }
    release_scratch();  // the transform buffers are not needed for the text
  } catch (const error& e) {
    throw_as_failure(e, o);
    throw;
  }
  t.multiply = prim::seconds_since(t0);
  if (o.verbose) {
    const mul_stats& st = *mo.stats;
    say(std::string("bigmul: algorithm ") + (multiplied ? algorithm_name(st.used) : "none (an operand is zero)") +
        (o.algo == algorithm::automatic && multiplied ? " (chosen by size)" : "") +
        (multiplied ? (st.backend_used == backend::cuda ? " on the GPU" : " on the CPU") : "") +
        (multiplied && o.modular_check ? ", modular check passed" : ""));
  }
  if (fault_corrupt_product()) corrupt(product, r);
  return product;
}

void verify_product(const options& o, progress& prog, const run_operands& ops, const number_view& product,
                    phase_times& t) {
  if (!o.verify) return;
  prog.phase("verifying against GMP");
  const auto t0 = prim::steady_clock::now();
  std::string detail;
  if (!matches_gmp(to_integer(ops.a), to_integer(ops.b), to_integer(product), detail))
    throw failure(exit_check, "bigmul: --verify: " + detail);
  t.verify = prim::seconds_since(t0);
  if (o.verbose) say("bigmul: --verify: product matches GMP's mpz_mul");
}

}  // namespace bigmul::cli
