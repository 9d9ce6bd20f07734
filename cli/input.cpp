// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/input.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string_view>

#include "cli/failure.hpp"
#include "src/digits/digits.hpp"

namespace bigmul::cli {
namespace {

// The whitespace around a literal that @PATH and '-' ignore.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::string origin(const operand_text& t) {
  return "operand " + std::string(1, t.name) + (t.source.empty() ? "" : " (" + t.source + ")");
}

[[noreturn]] void bad_operand(const operand_text& t, const std::string& message) {
  throw failure(exit_usage, "bigmul: " + origin(t) + ": " + message);
}

std::string where_suffix(const operand_text& t) {
  if (t.source.empty()) return "";
  return t.source == "standard input" ? " of standard input" : " of the file";
}

// Streams (stdin, pipes, devices, /proc files) are read in chunks of this
// size, each checked as it arrives: /proc/sys files refuse one 4 MiB read
// (ENOMEM), and /dev/zero must fail at its first byte, not when memory ends.
constexpr std::size_t stream_chunk = std::size_t{1} << 16;

// Bytes that can appear in a source at all: digits, hex digits, x/X, signs
// and whitespace (anything else is invalid wherever it stands).
// Branch-free (bitwise, unsigned range tests) so that the block test below
// vectorizes: a stream is checked at memory speed, not a branch a byte.
inline bool literal_byte(unsigned char c) {
  const unsigned u = c, l = u | 0x20;
  return static_cast<bool>((u - '0' < 10) | (l - 'a' < 6) | (l == 'x') | (u == '+') | (u == '-') | (u == ' ') |
                           (u - '\t' < 5));
}

std::size_t first_foreign_byte(std::string_view s, std::size_t from) {
  constexpr std::size_t block = 64;
  std::size_t i = from;
  for (; i + block <= s.size(); i += block) {
    bool all = true;
    for (std::size_t k = 0; k < block; ++k) all &= literal_byte(static_cast<unsigned char>(s[i + k]));
    if (!all) break;
  }
  for (; i < s.size(); ++i)
    if (!literal_byte(static_cast<unsigned char>(s[i]))) return i;
  return std::string_view::npos;
}

std::string limit_text(const input_limit& limit) {
  return std::to_string(limit.bytes) + "-byte input limit" + (limit.why.empty() ? "" : " (" + limit.why + ")");
}

[[noreturn]] void too_large(const std::string& what, std::uint64_t bytes, bool at_least, const input_limit& limit) {
  throw failure(exit_io, "bigmul: " + what + " is too large: " + (at_least ? "more than " : "") +
                             std::to_string(bytes) + " bytes, over the " + limit_text(limit));
}

// Sets t.literal to `text` without its surrounding whitespace, t.source_offset
// to where it starts in the source.
void set_trimmed(operand_text& t, std::string_view text, std::size_t text_offset) {
  std::size_t b = 0, e = text.size();
  while (b < e && is_space(text[b])) ++b;
  while (e > b && is_space(text[e - 1])) --e;
  t.literal = text.substr(b, e - b);
  t.source_offset = text_offset + b;
}

// A byte no literal may hold at `bad` of a one-literal source: the parser,
// given the text up to it, words the error at that offset (exit 2).
[[noreturn]] void bad_byte(operand_text& t, std::string_view text, std::size_t bad) {
  set_trimmed(t, text.substr(0, bad + 1), 0);
  static_cast<void>(parse_operand(t));
  bad_operand(t, "invalid byte at byte offset " + std::to_string(bad) + where_suffix(t));  // not reached
}

// A source's bytes and what keeps them alive.
struct source_bytes {
  std::shared_ptr<const void> owner;
  std::string_view text;
};

// Regular files from this size on are mapped rather than read: read() into
// a string first touches as many fresh pages as the file has and copies into
// them, while a populated mapping of the page cache costs a fraction of
// that and leaves nothing to free. Below it a read is as quick.
constexpr std::size_t map_min_bytes = std::size_t{1} << 16;

// A mapped file that another process cuts short while bigmul parses it faults
// (SIGBUS) on the pages past its new end, where read() would have seen a short
// file. The handler turns a fault inside an operand's mapping into the I/O
// failure of the contract: one line naming the file, exit 1. That happens while
// the operands are parsed, before anything is written (the -o file is created
// after the multiply). A SIGBUS anywhere else keeps the default action.
struct mapped_range {
  std::atomic<std::uintptr_t> begin{0}, end{0};
  char path[256] = {};  // the file's quoted name for the message, cut at 255 bytes
};
mapped_range mapped[2];  // one per operand

extern "C" void operand_file_cut_short(int sig, siginfo_t* info, void*) {
  const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (const mapped_range& r : mapped) {
    if (at < r.begin.load(std::memory_order_relaxed) || at >= r.end.load(std::memory_order_relaxed)) continue;
    // write() and _exit() only: both async-signal-safe.
    static constexpr char head[] = "bigmul: cannot read file ";
    static constexpr char tail[] = ": it was cut short while being read (changed by another process)\n";
    ssize_t w = ::write(STDERR_FILENO, head, sizeof head - 1);
    w = ::write(STDERR_FILENO, r.path, ::strlen(r.path));
    w = ::write(STDERR_FILENO, tail, sizeof tail - 1);
    (void)w;  // nothing left to tell if stderr fails
    ::_exit(exit_io);
  }
  ::signal(sig, SIG_DFL);  // not an operand's: the access runs again under the default action
}

void watch_mapping(const void* base, std::size_t bytes, const std::string& path) {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_sigaction = operand_file_cut_short;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    return ::sigaction(SIGBUS, &sa, nullptr) == 0;
  }();
  if (!installed) return;
  for (mapped_range& r : mapped) {
    if (r.end.load() != 0) continue;
    const std::string name = quoted(path);
    const std::size_t n = std::min(name.size(), sizeof r.path - 1);
    std::memcpy(r.path, name.data(), n);
    r.path[n] = '\0';
    const auto b = reinterpret_cast<std::uintptr_t>(base);
    r.begin.store(b);
    r.end.store(b + bytes);
    return;
  }
}

void unwatch_mapping(const void* base) {
  for (mapped_range& r : mapped)
    if (r.begin.load() == reinterpret_cast<std::uintptr_t>(base)) {
      r.end.store(0);
      r.begin.store(0);
    }
}

struct file_mapping {
  void* base = nullptr;
  std::size_t bytes = 0;
  file_mapping(void* b, std::size_t n, const std::string& path) : base(b), bytes(n) { watch_mapping(b, n, path); }
  file_mapping(const file_mapping&) = delete;
  file_mapping& operator=(const file_mapping&) = delete;
  ~file_mapping() {
    unwatch_mapping(base);
    ::munmap(base, bytes);
  }
};

// Reads fd to its end in stream_chunk reads into `out`, each chunk checked
// for foreign bytes as it arrives: stops after the chunk holding the first
// one and returns its offset (npos: none). Past limit.bytes it throws
// too_large naming `what`.
std::size_t read_checked(int fd, std::string& out, const input_limit& limit, const std::string& what) {
  out.clear();
  std::size_t used = 0;
  for (;;) {
    if (out.size() - used < stream_chunk) out.resize(std::max(out.size() + out.size() / 2, used + stream_chunk));
    const ssize_t got = ::read(fd, out.data() + used, stream_chunk);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw_io("bigmul: cannot read " + what, errno);
    }
    if (got == 0) break;
    const std::size_t from = used;
    used += static_cast<std::size_t>(got);
    out.resize(std::max(out.size(), used));
    const std::size_t bad = first_foreign_byte(std::string_view(out.data(), used), from);
    if (bad != std::string_view::npos) {
      out.resize(used);
      return bad;
    }
    if (used > limit.bytes) too_large(what, limit.bytes, true, limit);
  }
  out.resize(used);
  out.shrink_to_fit();
  return std::string_view::npos;
}

struct fd_closer {
  int fd;
  ~fd_closer() { ::close(fd); }
};

void read_file(operand_text& t, const std::string& path, const input_limit& limit) {
  t.source = "file " + quoted(path);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_io("bigmul: cannot open " + quoted(path), errno);
  const fd_closer closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    // The first bytes before the size or the rest: a binary or sparse file
    // fails at its first foreign byte without being read or mapped whole.
    std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(st.st_size, stream_chunk)), '\0');
    ssize_t got;
    do got = ::pread(fd, head.data(), head.size(), 0);
    while (got < 0 && errno == EINTR);
    if (got < 0) throw_io("bigmul: cannot read " + quoted(path), errno);
    head.resize(static_cast<std::size_t>(got));
    if (const std::size_t bad = first_foreign_byte(head, 0); bad != std::string_view::npos) bad_byte(t, head, bad);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > limit.bytes) too_large(origin(t), size, false, limit);
    if (size >= map_min_bytes) {
      const auto bytes = static_cast<std::size_t>(size);
      void* p = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      if (p != MAP_FAILED) {
        auto mapping = std::make_shared<const file_mapping>(p, bytes, path);
        t.buffer = mapping;
        set_trimmed(t, std::string_view(static_cast<const char*>(p), bytes), 0);
        return;
      }
      // Not mappable (some file systems): read it.
    }
  }
  auto text = std::make_shared<std::string>();
  const std::size_t bad = read_checked(fd, *text, limit, quoted(path));
  t.buffer = text;
  if (bad != std::string_view::npos) bad_byte(t, *text, bad);
  set_trimmed(t, *text, 0);
}

std::shared_ptr<const std::string> read_stdin(const input_limit& limit, std::size_t& bad) {
  auto text = std::make_shared<std::string>();
  bad = read_checked(STDIN_FILENO, *text, limit, "standard input");
  return text;
}

void from_argument(const std::string& arg, operand_text& t, const input_limit& limit) {
  if (arg == "-") {
    std::size_t bad = 0;
    const auto stdin_text = read_stdin(limit, bad);
    t.buffer = stdin_text;
    t.source = "standard input";
    if (bad != std::string_view::npos) bad_byte(t, *stdin_text, bad);
    set_trimmed(t, *stdin_text, 0);
  } else if (!arg.empty() && arg[0] == '@') {
    const std::string path = arg.substr(1);
    if (path.empty()) {
      t.literal = {};
      bad_operand(t, "'@' needs a file name (@PATH)");
    }
    read_file(t, path, limit);
  } else {
    auto text = std::make_shared<const std::string>(arg);
    t.buffer = text;
    t.literal = *text;
    t.source_offset = 0;
  }
}

}  // namespace

void read_operands(const std::string& a, const std::string& b, operand_text& out_a, operand_text& out_b,
                   const input_limit& limit) {
  out_a = operand_text{};
  out_b = operand_text{};
  out_a.name = 'A';
  out_b.name = 'B';
  if (a == "-" && b == "-") {
    // Two whitespace-separated literals on stdin; offsets count in stdin.
    std::size_t bad = 0;
    const auto stdin_text = read_stdin(limit, bad);
    std::string_view all = *stdin_text;
    operand_text* targets[2] = {&out_a, &out_b};
    if (bad != std::string_view::npos) {
      // The literal the foreign byte stands in (or starts): its prefix, to the
      // parser for the wording; past the second, the text is unexpected.
      // The literals before it come first (A's own error is A's, as when
      // the whole input is parsed).
      std::size_t pos = 0, start = 0;
      int index = -1;
      while (pos <= bad) {
        while (pos < bad && is_space(all[pos])) ++pos;
        start = pos;
        ++index;
        while (pos < bad && !is_space(all[pos])) ++pos;
        if (pos == bad) break;
        if (index < 2) {
          operand_text& before = *targets[index];
          before.buffer = stdin_text;
          before.source = "standard input";
          before.literal = all.substr(start, pos - start);
          before.source_offset = start;
          static_cast<void>(parse_operand(before));
        }
      }
      if (index >= 2)
        bad_operand(out_b, "unexpected text after the second literal at byte offset " + std::to_string(start) +
                               " of standard input (both operands are '-': expected exactly two literals)");
      operand_text& t = *targets[index];
      t.buffer = stdin_text;
      t.source = "standard input";
      t.literal = all.substr(start, bad + 1 - start);
      t.source_offset = start;
      static_cast<void>(parse_operand(t));
    }
    std::size_t pos = 0;
    for (operand_text* t : targets) {
      t->buffer = stdin_text;
      t->source = "standard input";
      while (pos < all.size() && is_space(all[pos])) ++pos;
      if (pos == all.size()) {
        t->source_offset = pos;
        bad_operand(*t, std::string("missing: both operands are '-' but standard input ends at byte offset ") +
                            std::to_string(pos) + (t == &out_a ? " without a literal" : " after one literal"));
      }
      const std::size_t start = pos;
      while (pos < all.size() && !is_space(all[pos])) ++pos;
      t->literal = all.substr(start, pos - start);
      t->source_offset = start;
    }
    while (pos < all.size() && is_space(all[pos])) ++pos;
    if (pos != all.size())
      bad_operand(out_b, "unexpected text after the second literal at byte offset " + std::to_string(pos) +
                             " of standard input (both operands are '-': expected exactly two literals)");
    return;
  }
  from_argument(a, out_a, limit);
  from_argument(b, out_b, limit);
}

integer parse_operand(const operand_text& t) {
  try {
    return integer::from_string(t.literal);
  } catch (const parse_error& e) {
    // The library counts in the literal; the user counts in the source.
    const std::size_t at = t.source_offset + e.offset();
    std::string message = e.what();
    const std::string needle = "byte offset " + std::to_string(e.offset());
    const std::size_t found = message.find(needle);
    const std::size_t after = found + needle.size();
    const std::string replacement = "byte offset " + std::to_string(at) + where_suffix(t);
    if (found != std::string::npos && (after == message.size() || message[after] < '0' || message[after] > '9')) {
      message.replace(found, needle.size(), replacement);
    } else {
      message += " at " + replacement;
    }
    // Keep it to one line whatever the library wrote.
    for (char& c : message)
      if (c == '\n' || c == '\r') c = ' ';
    bad_operand(t, message);
  }
}

literal_shape shape_of(std::string_view literal) {
  literal_shape s;
  std::size_t pos = 0;
  if (!literal.empty() && (literal[0] == '+' || literal[0] == '-')) {
    s.negative = literal[0] == '-';
    pos = 1;
  }
  if (literal.size() - pos >= 2 && literal[pos] == '0' && (literal[pos + 1] == 'x' || literal[pos + 1] == 'X')) {
    s.base = 16;
    pos += 2;
  }
  s.digits = literal.substr(pos);
  return s;
}

std::size_t parse_operand_into(const operand_text& t, const literal_shape& shape, limb_t* out, unsigned threads) {
  if (!shape.digits.empty()) {
    std::size_t n = digits::limbs_for(shape.digits.size(), shape.base);
    if (digits::parse(shape.digits, shape.base, out, threads) == digits::no_error) {
      while (n > 0 && out[n - 1] == 0) --n;
      return n;
    }
  }
  // Malformed: the library's parser finds the same fault and words it.
  static_cast<void>(parse_operand(t));
  throw failure(exit_usage, "bigmul: " + origin(t) + ": not a valid integer literal");
}

}  // namespace bigmul::cli
