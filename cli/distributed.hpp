// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul --distributed: the distributed product runs in bigmul-mpi (dist/),
// a separate program beside this one. Why not here: bigmul links statically
// for its start-up time (cli/CMakeLists.txt) and libmpi is a shared library
// with its own start-up (MPI_Init); a run without --distributed must not pay
// for either. So --distributed replaces this process with bigmul-mpi
// (execv: same pid, same environment, so under mpirun each rank's bigmul
// becomes that rank's bigmul-mpi and joins the job).
#pragma once

namespace bigmul::cli {

// True when the arguments (before a "--") ask for --distributed.
bool wants_distributed(int argc, const char* const* argv);

// Executes bigmul-mpi from this program's folder with the same arguments;
// returns only on failure, with bigmul's exit status for it (1) after one
// line on stderr.
int run_distributed(int argc, char** argv);

}  // namespace bigmul::cli
