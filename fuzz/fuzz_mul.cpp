// SPDX-License-Identifier: LGPL-3.0-or-later
// Products: bigmul::mul and mul_batched with sizes, algorithms, radices,
// thread counts and options taken from the input, against GMP's mpz_mul.
// Operands are random, all-maximum limbs (long carry chains), sparse, or the
// input's own bytes; enums are sometimes outside their enumerations and must
// then be refused (bigmul::error invalid_argument), never ignored.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bigmul/error.hpp"
#include "bigmul/mul.hpp"
#include "gmp_reference.hpp"

namespace {

using namespace bigmul;
using fuzz::check;

limb_t max_limb(radix rx) { return rx == radix::binary ? ~limb_t{0} : decimal_limb_base - 1; }

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void fill(std::vector<limb_t>& v, FuzzedDataProvider& in, radix rx) {
  const limb_t top = max_limb(rx);
  const auto clamp = [&](limb_t x) { return rx == radix::binary ? x : x % decimal_limb_base; };
  std::uint64_t seed = in.ConsumeIntegral<std::uint64_t>();
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:  // random
      for (auto& x : v) x = clamp(splitmix(seed));
      break;
    case 1:  // all maximum: every column carries
      for (auto& x : v) x = top;
      break;
    case 2:  // sparse: mostly zero limbs
      for (auto& x : v) x = splitmix(seed) % 8 == 0 ? clamp(splitmix(seed)) : 0;
      break;
    case 3:  // runs of maximum and zero limbs
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = (splitmix(seed) % 2) ? top : 0;
      break;
    case 4:  // near the top: B-1-small
      for (auto& x : v) x = top - splitmix(seed) % 3;
      break;
    default:  // the input's bytes
      for (auto& x : v) x = clamp(in.ConsumeIntegral<limb_t>());
      break;
  }
  v.back() |= 1;  // keep the top limb nonzero (a full-size operand)
}

// Sizes: mostly small (where the basecase/Karatsuba edges are), sometimes up
// to a few thousand limbs (transform lengths, thread splits).
std::size_t size_from(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return in.ConsumeIntegralInRange<std::size_t>(1, 3000);
    case 1: return in.ConsumeIntegralInRange<std::size_t>(1, 600);
    default: return in.ConsumeIntegralInRange<std::size_t>(1, 120);
  }
}

bool known(algorithm a) { return static_cast<unsigned>(a) <= static_cast<unsigned>(algorithm::toom3); }

void check_product(const std::vector<limb_t>& r, const limb_t* a, std::size_t an, const limb_t* b, std::size_t bn,
                   radix rx, const std::string& what) {
  fuzz::mpz ga, gb, want, got;
  fuzz::set_limbs(ga, a, an, rx);
  fuzz::set_limbs(gb, b, bn, rx);
  mpz_mul(want, ga, gb);
  if (rx == radix::decimal)
    for (std::size_t i = 0; i < r.size(); ++i) check(r[i] < decimal_limb_base, what + ": limb not decimal");
  fuzz::set_limbs(got, r.data(), r.size(), rx);
  check(mpz_cmp(want, got) == 0, what + ": product differs from mpz_mul");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const radix rx = in.ConsumeBool() ? radix::decimal : radix::binary;
  mul_options o;
  o.algo = static_cast<algorithm>(in.ConsumeIntegralInRange<unsigned>(0, 10));  // 10: outside the enum
  o.threads = in.ConsumeIntegralInRange<unsigned>(0, 3);
  o.modular_check = in.ConsumeBool();
  if (in.ConsumeIntegralInRange<int>(0, 3) == 0) o.tile = in.ConsumeIntegralInRange<unsigned>(0, 600);
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) o.coefficient_digits = in.ConsumeIntegralInRange<unsigned>(0, 40);
  o.where = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? backend::cpu : backend::automatic;
  mul_stats st;
  if (in.ConsumeBool()) o.stats = &st;
  const bool batched = in.ConsumeIntegralInRange<int>(0, 5) == 0;

  std::size_t an, bn, G = 1;
  if (batched) {
    an = bn = in.ConsumeIntegralInRange<std::size_t>(1, 160);
    G = in.ConsumeIntegralInRange<std::size_t>(1, 12);
  } else {
    bn = size_from(in);
    an = bn + (in.ConsumeBool() ? 0 : size_from(in) - 1);
  }
  std::vector<limb_t> a(an * G), b(bn * G);
  fill(a, in, rx);
  fill(b, in, rx);
  const bool square = !batched && an == bn && in.ConsumeIntegralInRange<int>(0, 7) == 0;  // b == a
  const limb_t* bp = square ? a.data() : b.data();
  std::vector<limb_t> r((an + bn) * G, 0xA5A5A5A5A5A5A5A5ull);

  const std::string what = std::string(batched ? "mul_batched " : "mul ") + std::to_string(an) + " x " +
                           std::to_string(bn) + (batched ? " x G=" + std::to_string(G) : "") + ", " +
                           (rx == radix::decimal ? "decimal" : "binary") + ", algorithm " +
                           std::to_string(static_cast<unsigned>(o.algo)) + ", threads " + std::to_string(o.threads) +
                           ", tile " + std::to_string(o.tile) + ", coefficient digits " +
                           std::to_string(o.coefficient_digits);
  try {
    if (batched) {
      mul_batched(r.data(), a.data(), bp, an, G, rx, o);
    } else {
      mul(r.data(), a.data(), an, bp, bn, rx, o);
    }
  } catch (const error& e) {
    // Allowed refusals only: an enum outside its enumerators, or an
    // algorithm asked by name for a size it cannot do exactly (domain).
    if (!known(o.algo)) {
      check(e.code() == error::kind::invalid_argument, what + ": unknown algorithm not refused as invalid_argument");
      return 0;
    }
    const bool refused_size = e.code() == error::kind::domain && o.algo != algorithm::automatic;
    const bool refused_digits = e.code() == error::kind::invalid_argument && o.coefficient_digits != 0;
    check(refused_size || refused_digits, what + ": unexpected bigmul::error: " + e.what());
    return 0;
  }
  check(known(o.algo), what + ": an algorithm outside the enum was not refused");
  if (o.stats) check(known(st.used) && st.used != algorithm::automatic, what + ": stats name no algorithm");
  for (std::size_t g = 0; g < G; ++g) {
    std::vector<limb_t> rg(r.begin() + static_cast<std::ptrdiff_t>(g * (an + bn)),
                           r.begin() + static_cast<std::ptrdiff_t>((g + 1) * (an + bn)));
    check_product(rg, a.data() + g * an, an, (square ? a.data() : b.data()) + g * bn, bn, rx,
                  what + " (product " + std::to_string(g) + ")");
  }
  return 0;
}
