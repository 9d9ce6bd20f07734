// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's operands: read collectively, each rank parsing only its own
// block of limbs (MPI-IO for @PATH: MPI_File_read_at_all of the bytes that
// hold the rank's limbs), or generated block by block (--random).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bigmul/config.hpp"

namespace bigmul::dist::app {

struct operand {
  std::vector<limb_t> limbs;  // this rank's block_of(global, P, rank)
  std::size_t global = 0;     // limbs in all
  radix rx = radix::decimal;
  bool negative = false;
};

// The raw-limb file: "BIGMULR1", then u64 flags (bit 0: decimal limbs, bit 1:
// negative), u64 limb count n, then n little-endian u64 limbs, least
// significant first; nothing after them.
inline constexpr char raw_magic[8] = {'B', 'I', 'G', 'M', 'U', 'L', 'R', '1'};
inline constexpr std::size_t raw_header_bytes = 24;

// A (name 'A' or 'B') from a literal or @PATH; throws the same bigmul::error
// on every rank: kind parse for a bad literal (naming the first bad byte's
// offset), resource for I/O.
operand read_operand(MPI_Comm comm, char name, const std::string& spec, unsigned threads);

// A random `digits`-digit decimal operand: limb i is a hash of (seed, name,
// i), so every rank count draws the same number.
operand random_operand(MPI_Comm comm, char name, std::uint64_t digits, std::uint64_t seed);

}  // namespace bigmul::dist::app
