// bigmul::mul: argument checks, algorithm choice from the tuned crossover
// table, the optional modular check, per-phase statistics.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "mul/basecase.hpp"
#include "mul/fft_mul.hpp"
#include "mul/karatsuba.hpp"
#include "mul/modcheck.hpp"
#include "mul/params_cpu.hpp"
#include "mul/tiled.hpp"

namespace bigmul {
namespace {

struct named_algorithm {
  algorithm algo;
  const char* name;
};
constexpr named_algorithm algorithm_names[] = {
    {algorithm::automatic, "auto"},          {algorithm::basecase, "basecase"},
    {algorithm::karatsuba, "karatsuba"},     {algorithm::tiled, "tiled"},
    {algorithm::fft_complex, "fft_complex"}, {algorithm::fft_real, "fft_real"},
    {algorithm::fft_complex_f32, "fft_complex_f32"},
};

bool overlaps(const limb_t* r, std::size_t rn, const limb_t* p, std::size_t pn) {
  const auto rb = reinterpret_cast<std::uintptr_t>(r), re = rb + rn * sizeof(limb_t);
  const auto pb = reinterpret_cast<std::uintptr_t>(p), pe = pb + pn * sizeof(limb_t);
  return rb < pe && pb < re;
}

void check_decimal(const limb_t* p, std::size_t n, const char* which) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] >= decimal_limb_base)
      throw error(error::kind::invalid_argument, std::string("bigmul::mul: operand ") + which + " limb " +
                                                     std::to_string(i) + " is not a decimal limb (>= 10^19)");
}

algorithm choose(std::size_t an, std::size_t bn, radix rx) {
  const auto& x = rx == radix::binary ? detail::params_cpu::binary_radix : detail::params_cpu::decimal_radix;
  (void)an;
  if (bn < x.karatsuba) return algorithm::basecase;
  if (bn < x.fft) return algorithm::karatsuba;
  return algorithm::fft_real;
}

}  // namespace

const char* algorithm_name(algorithm a) {
  for (const auto& n : algorithm_names)
    if (n.algo == a) return n.name;
  return "?";
}

bool parse_algorithm(const std::string& name, algorithm& out) {
  for (const auto& n : algorithm_names)
    if (name == n.name) {
      out = n.algo;
      return true;
    }
  return false;
}

void mul(limb_t* r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn, radix rx,
         const mul_options& options) {
  using clock = std::chrono::steady_clock;
  const auto t_start = clock::now();
  if (bn == 0 || an < bn)
    throw error(error::kind::invalid_argument,
                "bigmul::mul: needs an >= bn >= 1 (got an=" + std::to_string(an) + ", bn=" + std::to_string(bn) + ")");
  if (!r || !a || !b) throw error(error::kind::invalid_argument, "bigmul::mul: null pointer");
  if (overlaps(r, an + bn, a, an) || overlaps(r, an + bn, b, bn))
    throw error(error::kind::invalid_argument, "bigmul::mul: the result overlaps an operand");
  if (rx == radix::decimal) {
    check_decimal(a, an, "a");
    if (b != a) check_decimal(b, bn, "b");
  }
  mul_stats local;
  mul_stats& st = options.stats ? *options.stats : local;
  st = mul_stats{};

  const algorithm algo = options.algo == algorithm::automatic ? choose(an, bn, rx) : options.algo;
  st.used = algo;
  switch (algo) {
    case algorithm::basecase:
      detail::mul_basecase(r, a, an, b, bn, rx);
      break;
    case algorithm::karatsuba: {
      const auto& x = rx == radix::binary ? detail::params_cpu::binary_radix : detail::params_cpu::decimal_radix;
      detail::mul_karatsuba(r, a, an, b, bn, rx, x.karatsuba_basecase);
      break;
    }
    case algorithm::tiled:
      detail::mul_tiled(r, a, an, b, bn, rx, options.tile ? options.tile : detail::params_cpu::tiled_tile,
                        options.threads);
      break;
    case algorithm::fft_complex:
    case algorithm::fft_real:
    case algorithm::fft_complex_f32:
      detail::mul_fft(r, a, an, b, bn, rx, algo, options, st);
      break;
    case algorithm::automatic:
      break;
  }

  if (options.modular_check) {
    const auto t0 = clock::now();
    const std::uint64_t ra = detail::residue_mod_p(a, an, rx, options.threads);
    const std::uint64_t rb = b == a && bn == an ? ra : detail::residue_mod_p(b, bn, rx, options.threads);
    const std::uint64_t rr = detail::residue_mod_p(r, an + bn, rx, options.threads);
    if (detail::mod_p_mul(ra, rb) != rr)
      throw error(error::kind::internal, std::string("bigmul::mul: modular check failed for algorithm ") +
                                             algorithm_name(algo) + " (" + std::to_string(an) + " x " +
                                             std::to_string(bn) + " limbs); the product is wrong and was not returned");
    st.modular_check = true;
    st.t_check = std::chrono::duration<double>(clock::now() - t0).count();
  }
  st.t_total = std::chrono::duration<double>(clock::now() - t_start).count();
}

}  // namespace bigmul
