// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief The one exception type bigmul throws; its message says what went wrong and
/// where, so a user can act on it.
#pragma once

#include <new>
#include <stdexcept>
#include <string>

namespace bigmul {

/// The exception every bigmul function throws (derived from
/// std::runtime_error, so what() is the message); code() tells the kind.
class error : public std::runtime_error {
 public:
  /// What went wrong.
  enum class kind {
    invalid_argument,  ///< an argument breaks the function's contract (sizes, null pointers, overlap, enum values)
    parse,             ///< a literal is malformed (thrown as bigmul::parse_error, with the byte offset)
    domain,            ///< a valid request outside what the algorithm does (e.g. an FP32 FFT past its exact size, toom3 on decimal limbs, an even modulus)
    resource,          ///< out of memory, a thread that could not start, no usable GPU
    internal,          ///< a check inside bigmul failed (e.g. the modular check); the result was not returned
  };
  /// An error of kind k with message what.
  error(kind k, const std::string& what) : std::runtime_error(what), kind_(k) {}
  /// The kind of error.
  kind code() const noexcept { return kind_; }

 private:
  kind kind_;
};

/// Error in a literal: `offset` is the 0-based byte offset of the first bad byte.
class parse_error : public error {
 public:
  /// A parse error at byte `offset` of the literal.
  parse_error(const std::string& what, std::size_t offset)
      : error(kind::parse, what), offset_(offset) {}
  /// The 0-based byte offset of the first bad byte.
  std::size_t offset() const noexcept { return offset_; }

 private:
  std::size_t offset_;
};

namespace detail {

/// The one translation of allocation failure, for the handler of a public
/// entry point (`} catch (...) { detail::rethrow_allocation_failure("who"); }`,
/// usually a function-try-block): std::bad_alloc, and std::length_error from a
/// container asked for more elements than it can hold, become bigmul::error
/// kind resource naming the entry point; anything else (bigmul::error among
/// it) is rethrown unchanged. Both failures mean the same to a caller: the
/// values asked for a result this process cannot hold. Sizes a caller passes
/// that cannot describe arrays (an + bn overflowing) are refused before any
/// allocation as invalid_argument (mul/entry_checks.hpp). Here, in a public
/// header, because the header-only parts (boost.hpp, gmp.hpp) use it too.
[[noreturn]] inline void rethrow_allocation_failure(const char* who) {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    throw error(error::kind::resource, std::string(who) + ": out of memory");
  } catch (const std::length_error&) {
    throw error(error::kind::resource, std::string(who) + ": out of memory (a result larger than any allocation)");
  }
}

}  // namespace detail

}  // namespace bigmul
