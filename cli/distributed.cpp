// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul --distributed (cli/distributed.hpp).
#include "cli/distributed.hpp"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

namespace bigmul::cli {

bool wants_distributed(int argc, const char* const* argv) {
  for (int k = 1; k < argc; ++k) {
    const std::string_view arg = argv[k];
    if (arg == "--") return false;
    if (arg == "--distributed") return true;
  }
  return false;
}

int run_distributed(int argc, char** argv) {
  (void)argc;
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string path = "bigmul-mpi";
  if (n > 0) {
    const std::string exe(self, static_cast<std::size_t>(n));
    path = exe.substr(0, exe.rfind('/') + 1) + "bigmul-mpi";
  }
  execv(path.c_str(), argv);
  const int err = errno;
  std::fprintf(stderr, "bigmul: --distributed needs %s (built when CMake finds MPI: libopenmpi-dev): %s\n",
               path.c_str(), std::strerror(err));
  return 1;
}

}  // namespace bigmul::cli
