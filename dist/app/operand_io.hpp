// SPDX-License-Identifier: LGPL-3.0-or-later
// bigmul-mpi's operands: read collectively, each rank parsing only its own
// block of limbs (MPI-IO for @PATH: MPI_File_read_at_all of the bytes that
// hold the rank's limbs), or generated block by block (--random).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
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

// A literal read from standard input by rank 0 and broadcast (mpiexec
// forwards standard input to rank 0 only): its text and its byte offset in
// the input. Every rank holds it, so a huge operand belongs in @PATH.
struct stdin_literal {
  std::string text;
  std::size_t offset = 0;
};
// count (0, 1 or 2) literals from standard input: one is the whole input,
// two are its two whitespace-separated words (collective; the same
// bigmul::error on every rank).
std::vector<stdin_literal> read_stdin_literals(MPI_Comm comm, unsigned count);

// An operand in two steps, so that both operands' sizes are known (and the
// product's pre-flight refuses it) before any rank reads its block:
// probe_operand opens A (name 'A' or 'B': a literal, @PATH, or `in` for '-')
// and finds its radix, sign and limb count (pending.op, limbs empty) from
// the raw-limb header or the text's extent; load_operand reads and parses
// this rank's block. Both throw the same bigmul::error on every rank: kind
// parse for a bad literal (naming the first bad byte's offset), resource
// for I/O.
struct pending_operand {
  struct state;
  operand op;
  std::unique_ptr<state> st;
  pending_operand();
  ~pending_operand();
  pending_operand(pending_operand&&) noexcept;
  pending_operand& operator=(pending_operand&&) noexcept;
};
pending_operand probe_operand(MPI_Comm comm, char name, const std::string& spec, const stdin_literal* in = nullptr);
operand load_operand(MPI_Comm comm, pending_operand&& p, unsigned threads);

// A random `digits`-digit decimal operand: limb i is a hash of (seed, name,
// i), so every rank count draws the same number.
operand random_operand(MPI_Comm comm, char name, std::uint64_t digits, std::uint64_t seed);

}  // namespace bigmul::dist::app
