// SPDX-License-Identifier: LGPL-3.0-or-later
// Fixed-size Comba kernels: see mul/basecase_small.hpp.
#include "mul/basecase_small.hpp"

#include <utility>

#include "mul/basecase_mac.hpp"

namespace bigmul::detail {
namespace {

// Column K's terms a[I] b[K-I], I from its lowest index up.
template <int AN, int BN, int K, int I>
[[gnu::always_inline]] inline void column(const limb_t* a, const limb_t* b, limb_t& c0, limb_t& c1, limb_t& c2) {
  if constexpr (I <= (K < AN - 1 ? K : AN - 1)) {
    comba_mac(c0, c1, c2, a[I], b[K - I]);
    column<AN, BN, K, I + 1>(a, b, c0, c1, c2);
  }
}

// Columns K .. AN+BN-2, each stored once; the last carry is the top limb.
template <int AN, int BN, int K>
[[gnu::always_inline]] inline void columns(limb_t* r, const limb_t* a, const limb_t* b, limb_t c0, limb_t c1) {
  if constexpr (K + 1 < AN + BN) {
    limb_t c2 = 0;
    column<AN, BN, K, (K + 1 > BN ? K + 1 - BN : 0)>(a, b, c0, c1, c2);
    r[K] = c0;
    columns<AN, BN, K + 1>(r, a, b, c1, c2);
  } else {
    r[K] = c0;  // the product fits: what is left of the carry is one limb
    (void)c1;
  }
}

template <int AN, int BN>
void kernel(limb_t* r, const limb_t* a, const limb_t* b) {
  columns<AN, BN, 0>(r, a, b, 0, 0);
}

// Entry I of the flattened table: shape (I / W, I % W), nullptr outside 1 <= bn <= an.
constexpr int W = static_cast<int>(basecase_small_max) + 1;
template <int I>
constexpr basecase_small_fn entry() {
  constexpr int an = I / W, bn = I % W;
  if constexpr (bn >= 1 && bn <= an) return &kernel<an, bn>;
  return nullptr;
}
template <int... I>
constexpr basecase_small_table make_table(std::integer_sequence<int, I...>) {
  basecase_small_table t{};
  ((t.f[I / W][I % W] = entry<I>()), ...);
  return t;
}

constexpr int WB = static_cast<int>(basecase_balanced_max) + 1;
template <int... I>
constexpr basecase_balanced_table make_balanced(std::integer_sequence<int, I...>) {
  basecase_balanced_table t{};
  ((t.f[I] = I > static_cast<int>(basecase_small_max) ? &kernel<(I > 0 ? I : 1), (I > 0 ? I : 1)> : nullptr), ...);
  return t;
}

}  // namespace

constinit const basecase_small_table basecase_small_kernels = make_table(std::make_integer_sequence<int, W * W>{});
constinit const basecase_balanced_table basecase_balanced_kernels =
    make_balanced(std::make_integer_sequence<int, WB>{});

}  // namespace bigmul::detail
