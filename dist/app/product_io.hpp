// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's product output: decimal or 0x-hex text (or the raw-limb
// format with --raw) written collectively: every rank prints its own limbs
// and writes them at its offset with MPI_File_write_at_all into a temporary
// file beside -o PATH, which rank 0 renames once every rank has succeeded
// (a failed run leaves PATH as it was). Without -o the text goes to rank 0's
// standard output (gathered; for products that fit one process's memory).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::dist::app {

// limbs: this rank's mpi::product_block(rn, P, rank) of the magnitude.
void write_product(MPI_Comm comm, const std::vector<limb_t>& limbs, std::size_t rn, radix rx, bool negative,
                   const std::optional<std::string>& path, bool raw, unsigned threads);

}  // namespace bigmul::dist::app
