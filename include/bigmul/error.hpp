// The one exception type bigmul throws; its message says what went wrong and
// where, so a user can act on it.
#pragma once

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

}  // namespace bigmul
