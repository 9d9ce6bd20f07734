// SPDX-License-Identifier: LGPL-3.0-or-later
// cuFFT loaded on first use (see cufft_library.hpp).
#include "fft/cuda/cufft_library.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "bigmul/error.hpp"

namespace bigmul::fft::cuda {
namespace {

// Set by fft/CMakeLists.txt from the toolkit found at configure time: the
// SONAME of its libcufft (e.g. libcufft.so.12) and its library directory.
#ifndef BIGMUL_CUFFT_SONAME
#define BIGMUL_CUFFT_SONAME ""
#endif
#ifndef BIGMUL_CUFFT_TOOLKIT_LIBDIR
#define BIGMUL_CUFFT_TOOLKIT_LIBDIR ""
#endif

std::string dl_reason() {
  const char* e = ::dlerror();
  return e ? e : "unknown dlopen failure";
}

// Looks up `name` in `h`; false (and `why`) when absent.
template <class Fn>
bool symbol(void* h, const char* name, Fn& fn, std::string& why) {
  ::dlerror();  // clear: a null symbol is only an error when dlerror() says so
  void* p = ::dlsym(h, name);
  if (!p) {
    why = std::string("no function ") + name + " (" + dl_reason() + ")";
    return false;
  }
  fn = reinterpret_cast<Fn>(p);
  return true;
}

bool resolve_all(void* h, cufft_api& a, std::string& why) {
  return symbol(h, "cufftCreate", a.create, why) && symbol(h, "cufftDestroy", a.destroy, why) &&
         symbol(h, "cufftSetAutoAllocation", a.set_auto_allocation, why) &&
         symbol(h, "cufftMakePlanMany64", a.make_plan_many64, why) &&
         symbol(h, "cufftSetStream", a.set_stream, why) && symbol(h, "cufftSetWorkArea", a.set_work_area, why) &&
         symbol(h, "cufftExecC2C", a.exec_c2c, why) && symbol(h, "cufftExecZ2Z", a.exec_z2z, why) &&
         symbol(h, "cufftExecR2C", a.exec_r2c, why) && symbol(h, "cufftExecD2Z", a.exec_d2z, why) &&
         symbol(h, "cufftExecC2R", a.exec_c2r, why) && symbol(h, "cufftExecZ2D", a.exec_z2d, why);
}

}  // namespace

std::vector<std::string> cufft_candidates() {
  if (const char* forced = std::getenv("BIGMUL_CUFFT_LIBRARY"); forced && *forced) return {forced};
  std::vector<std::string> names;
  const auto add = [&](const std::string& n) {
    if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  const std::string soname = BIGMUL_CUFFT_SONAME;
  const std::string libdir = BIGMUL_CUFFT_TOOLKIT_LIBDIR;
  add(soname);
  // The build machine's toolkit directory, then the usual toolkit places,
  // each only where this machine has that file (a toolkit need not be in
  // ld.so.cache; ldd no longer shows the library to whoever sets up paths).
  if (!soname.empty()) {
    for (const std::string& dir : {libdir, std::string("/usr/local/cuda/lib64"), std::string("/usr/local/cuda/lib")}) {
      const std::string there = dir + "/" + soname;
      if (!dir.empty() && ::access(there.c_str(), F_OK) == 0) add(there);
    }
  }
  for (const char* plain : {"libcufft.so.12", "libcufft.so.11", "libcufft.so"}) add(plain);
  return names;
}

std::string cufft_resolve(const std::vector<std::string>& candidates, cufft_api& api) {
  std::string tried;
  for (const std::string& name : candidates) {
    if (!tried.empty()) tried += "; ";
    // RTLD_LOCAL: cuFFT's symbols stay out of the global namespace.
    void* h = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      tried += dl_reason();
      continue;
    }
    cufft_api a;
    std::string why;
    if (!resolve_all(h, a, why)) {
      ::dlclose(h);
      tried += name + ": " + why;
      continue;
    }
    a.handle = h;
    a.loaded = name;
    api = a;
    return {};
  }
  if (candidates.empty()) tried = "no library name to try";
  return "cuFFT (libcufft) cannot be loaded: " + tried +
         " (BIGMUL_CUFFT_LIBRARY may name the library file to load)";
}

const cufft_api* cufft_library(std::string* why) {
  static std::once_flag once;
  static cufft_api api;
  static std::string reason;
  std::call_once(once, [] { reason = cufft_resolve(cufft_candidates(), api); });
  if (!reason.empty()) {
    if (why) *why = reason;
    return nullptr;
  }
  return &api;
}

const cufft_api& require_cufft() {
  std::string why;
  const cufft_api* api = cufft_library(&why);
  if (!api) throw error(error::kind::resource, why);
  return *api;
}

}  // namespace bigmul::fft::cuda
