// SPDX-License-Identifier: LGPL-3.0-or-later
// Reading the operands A and B: inline literals, @PATH files and standard
// input, and parsing them with errors that name the operand, its source and
// the byte offset inside that source.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "bigmul/integer.hpp"

namespace bigmul::cli {

// One operand's literal and where it came from.
struct operand_text {
  char name = 'A';                     // 'A' or 'B'
  std::shared_ptr<const void> buffer;  // owns the bytes: a file's mapping, or a string (stdin, argument)
  std::string_view literal;            // the literal (surrounding whitespace trimmed)
  std::size_t source_offset = 0;       // offset of literal[0] in its source
  std::string source;                  // "" (argument), "file 'PATH'" or "standard input"
};

// Reads both operands as written on the command line (literal, @PATH or -).
// Throws failure(exit_io) when a file or stdin cannot be read and
// failure(exit_usage) for a malformed operand (e.g. "@" alone, or two '-' and
// stdin not holding exactly two literals).
//
// Every source is checked as it streams: a stream (stdin, pipe, device,
// /proc file) in 64 KiB reads, a regular file's first 64 KiB before it is
// mapped; the first byte no literal can hold (not a digit, hex digit, x,
// sign or whitespace) fails there, exit 2 at its offset, before the rest is
// read. A source longer than limit.bytes fails with exit 1 naming the limit
// (a regular file by its size, before it is read; a stream once past it).
struct input_limit {
  std::uint64_t bytes = UINT64_MAX;
  std::string why;  // where the limit comes from, for the message
};
void read_operands(const std::string& a, const std::string& b, operand_text& out_a, operand_text& out_b,
                   const input_limit& limit = {});

// Parses an operand. Throws failure(exit_usage) with one line such as
//   bigmul: operand B (file 'x.txt'): invalid 'z' at byte offset 12 of the file (expected a decimal digit)
integer parse_operand(const operand_text& t);

// A literal's sign, base and digits as integer::from_string reads them,
// without looking at the digits: `digits` is empty for a literal without
// any (parse_operand then says what is wrong).
struct literal_shape {
  bool negative = false;
  unsigned base = 10;
  std::string_view digits;
};
literal_shape shape_of(std::string_view literal);

// Parses t's digits (shape_of(t.literal)) straight into
// out[0 .. digits::limbs_for(digits, base)), for callers that own the
// memory; returns the limb count without high zero limbs (0 for zero).
// `threads` as in bigmul's prim (0: the default). A malformed literal
// throws what parse_operand throws.
std::size_t parse_operand_into(const operand_text& t, const literal_shape& shape, limb_t* out, unsigned threads);

}  // namespace bigmul::cli
