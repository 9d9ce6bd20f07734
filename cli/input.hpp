// Reading the operands A and B: inline literals, @PATH files and standard
// input, and parsing them with errors that name the operand, its source and
// the byte offset inside that source.
#pragma once

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
void read_operands(const std::string& a, const std::string& b, operand_text& out_a, operand_text& out_b);

// Parses an operand. Throws failure(exit_usage) with one line such as
//   bigmul: operand B (file 'x.txt'): invalid 'z' at byte offset 12 of the file (expected a decimal digit)
integer parse_operand(const operand_text& t);

// Reads all of fd into a string (one read loop; sized from fstat when it can).
// Returns false with errno set on a read error.
bool read_fd(int fd, std::string& out);

}  // namespace bigmul::cli
