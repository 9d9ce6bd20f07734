// SPDX-License-Identifier: LGPL-3.0-or-later
// NTT engine names, availability, and selection (the BIGMUL_NTT_ENGINE
// override): see mul/ntt_mul.hpp; the engines' interfaces by name
// (ntt_engine_of, mul/ntt_engine_iface.hpp).
#include <cstdlib>
#include <string>

#include "bigmul/error.hpp"
#include "mul/ntt_engine_iface.hpp"
#include "mul/ntt_mul.hpp"

namespace bigmul::detail {

const ntt_engine_iface& ntt_engine_of(ntt_engine e) {
  switch (e) {
    case ntt_engine::ifma: return ntt_ifma_iface;
    case ntt_engine::avx2: return ntt_avx2_iface;
    case ntt_engine::portable: return ntt_portable_iface;
    default: return ntt_engine_of(ntt_default_engine());
  }
}

bool ntt_engine_available(ntt_engine e) { return e == ntt_engine::best || ntt_engine_of(e).available(); }

const char* ntt_engine_name(ntt_engine e) { return e == ntt_engine::best ? "best" : ntt_engine_of(e).name; }

namespace {

ntt_engine fastest_engine() {
  for (const ntt_engine_iface* e : {&ntt_ifma_iface, &ntt_avx2_iface})
    if (e->available()) return e->id;
  return ntt_engine::portable;
}

// BIGMUL_NTT_ENGINE: false when unset or empty; throws for an unknown name.
bool engine_from_environment(ntt_engine& e) {
  const char* v = std::getenv("BIGMUL_NTT_ENGINE");
  if (!v || !*v) return false;
  const std::string name(v);
  for (ntt_engine c : {ntt_engine::ifma, ntt_engine::avx2, ntt_engine::portable})
    if (name == ntt_engine_name(c)) {
      e = c;
      return true;
    }
  throw error(error::kind::invalid_argument,
              "BIGMUL_NTT_ENGINE=" + name + " is not an NTT engine (ifma, avx2 or portable)");
}

}  // namespace

ntt_engine ntt_resolve_engine(ntt_engine requested) {
  ntt_engine e = requested;
  const bool from_env = e == ntt_engine::best && engine_from_environment(e);
  if (e == ntt_engine::best) return fastest_engine();
  if (!ntt_engine_available(e))
    throw error(error::kind::resource,
                std::string(from_env ? "BIGMUL_NTT_ENGINE=" : "ntt: the engine ") + ntt_engine_name(e) +
                    ": this processor cannot run it (" + ntt_engine_of(e).requirement + ")");
  return e;
}

ntt_engine ntt_default_engine() noexcept {
  try {
    return ntt_resolve_engine(ntt_engine::best);
  } catch (...) {
    return fastest_engine();
  }
}

}  // namespace bigmul::detail
