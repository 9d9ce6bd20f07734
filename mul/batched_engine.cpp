// SPDX-License-Identifier: LGPL-3.0-or-later
// Which lanes run batches (mul/batched_ifma.hpp, batched_engine_chosen).
#include <cstdlib>
#include <cstring>
#include <string>

#include "bigmul/error.hpp"
#include "mul/batched_ifma.hpp"
#include "prim/cpu_features.hpp"

namespace bigmul::detail {
namespace {

bool named(const char* v, const char* name) { return v && std::strcmp(v, name) == 0; }

batched_engine resolve() {
  const char* e = std::getenv("BIGMUL_BATCHED_ENGINE");
  const bool ifma = prim::cpu_has_avx512_ifma(), avx2 = prim::cpu_has_avx2_fma();
  if (!e || !*e || named(e, "auto")) {
    // BIGMUL_NTT_ENGINE=avx2 asks for the library an AVX2 processor runs
    // (scripts/test.sh reruns tests so on IFMA machines): its lanes too.
    if (avx2 && named(std::getenv("BIGMUL_NTT_ENGINE"), "avx2")) return batched_engine::avx2;
    return ifma ? batched_engine::ifma : avx2 ? batched_engine::avx2 : batched_engine::scalar;
  }
  if (named(e, "scalar")) return batched_engine::scalar;
  const bool want_ifma = named(e, "ifma");
  if (!want_ifma && !named(e, "avx2"))
    throw error(error::kind::invalid_argument,
                "BIGMUL_BATCHED_ENGINE=" + std::string(e) + " is not a batched engine (auto, ifma, avx2 or scalar)");
  if (want_ifma ? !ifma : !avx2)
    throw error(error::kind::resource, "BIGMUL_BATCHED_ENGINE=" + std::string(e) + ": this processor cannot run it (" +
                                           (want_ifma ? "no AVX-512 IFMA" : "no AVX2 and FMA") + ")");
  return want_ifma ? batched_engine::ifma : batched_engine::avx2;
}

}  // namespace

batched_engine batched_engine_chosen() {
  static const batched_engine e = resolve();  // probed once; an invalid setting throws at every call
  return e;
}

}  // namespace bigmul::detail
