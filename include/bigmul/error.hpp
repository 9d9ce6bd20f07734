// The one exception type bigmul throws; its message says what went wrong and
// where, so a user can act on it.
#pragma once

#include <new>
#include <stdexcept>
#include <string>

namespace bigmul {

class error : public std::runtime_error {
 public:
  enum class kind { invalid_argument, parse, domain, resource, internal };
  error(kind k, const std::string& what) : std::runtime_error(what), kind_(k) {}
  kind code() const noexcept { return kind_; }

 private:
  kind kind_;
};

// Error in a literal: `offset` is the 0-based byte offset of the first bad byte.
class parse_error : public error {
 public:
  parse_error(const std::string& what, std::size_t offset)
      : error(kind::parse, what), offset_(offset) {}
  std::size_t offset() const noexcept { return offset_; }

 private:
  std::size_t offset_;
};

namespace detail {

// The one translation of allocation failure, for the handler of a public
// entry point (`} catch (...) { detail::rethrow_allocation_failure("who"); }`,
// usually a function-try-block): std::bad_alloc, and std::length_error from a
// container asked for more elements than it can hold, become bigmul::error
// kind resource naming the entry point; anything else (bigmul::error among
// it) is rethrown unchanged. Both failures mean the same to a caller: the
// values asked for a result this process cannot hold. Sizes a caller passes
// that cannot describe arrays (an + bn overflowing) are refused before any
// allocation as invalid_argument (mul/entry_checks.hpp). Here, in a public
// header, because the header-only parts (boost.hpp, gmp.hpp) use it too.
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
