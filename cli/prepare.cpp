// SPDX-License-Identifier: LGPL-3.0-or-later
// The product prepared while the operands are parsed: see cli/prepare.hpp.
#include "cli/prepare.hpp"

#include <cmath>
#include <exception>
#include <new>
#include <system_error>
#include <thread>

#include "bigmul/error.hpp"
#include "cli/memory_check.hpp"
#include "prim/parallel.hpp"
#include "prim/stopwatch.hpp"

namespace bigmul::cli {
namespace {

// Operands shorter than this (digits of both together) are parsed in well
// under a millisecond: a thread's start costs more than the overlap gains.
constexpr std::size_t min_digits = 100000;

constexpr double bits_per_decimal_digit = 3.321928094887362;  // log2(10)
constexpr double decimal_digits_per_hex_digit = 1.2041199826559248;  // log10(16)

std::size_t ceil_div(std::size_t x, std::size_t d) { return (x + d - 1) / d; }

}  // namespace

std::size_t estimated_limbs(std::string_view literal, radix want) {
  std::size_t pos = 0;
  if (!literal.empty() && (literal[0] == '+' || literal[0] == '-')) pos = 1;
  const bool hex = literal.size() - pos >= 2 && literal[pos] == '0' && (literal[pos + 1] == 'x' || literal[pos + 1] == 'X');
  if (hex) pos += 2;
  const std::size_t digits = literal.size() - pos;
  if (hex) {
    if (want == radix::binary) return ceil_div(digits, 16);
    return static_cast<std::size_t>(std::ceil(static_cast<double>(digits) * decimal_digits_per_hex_digit /
                                              decimal_limb_digits)) + 1;
  }
  return estimated_limbs_of_decimal(digits, want);
}

std::size_t estimated_limbs_of_decimal(std::uint64_t digits, radix want) {
  if (want == radix::decimal) return static_cast<std::size_t>(ceil_div(digits, decimal_limb_digits));
  return static_cast<std::size_t>(std::ceil(static_cast<double>(digits) * bits_per_decimal_digit / 64)) + 1;
}

bool worth_preparing(std::size_t an, std::size_t bn, radix rx, const mul_options& mo, std::uint64_t held) {
  if (prim::resolve_threads(mo.threads) < 2) return false;  // --threads 1: no second thread
  if ((an + bn) * decimal_limb_digits < min_digits) return false;
  return product_fits(an, bn, rx, mo, held);
}

void run_while_preparing(std::size_t an, std::size_t bn, radix rx, const mul_options& mo,
                         const std::function<void()>& work, double* prepare_seconds,
                         const std::function<void()>& then) {
  std::exception_ptr failed;
  std::thread worker;
  try {
    worker = std::thread([&] {
      try {
        work();
      } catch (...) {
        failed = std::current_exception();
      }
    });
  } catch (const std::system_error&) {
    work();  // no second thread: parse now, the product pays for its pages
    if (then) then();
    return;
  }
  const auto t0 = prim::steady_clock::now();
  std::exception_ptr unexpected;  // rethrown only after the join: a joinable thread must not be left behind
  try {
    prepare_mul(an, bn, rx, mo);
  } catch (const std::bad_alloc&) {
  } catch (const error&) {  // see the header: the product reports these itself
  } catch (...) {
    unexpected = std::current_exception();
  }
  if (!unexpected && then) {
    try {
      then();
    } catch (...) {
      unexpected = std::current_exception();
    }
  }
  if (prepare_seconds) *prepare_seconds = prim::seconds_since(t0);
  worker.join();
  if (failed) std::rethrow_exception(failed);
  if (unexpected) std::rethrow_exception(unexpected);
}

}  // namespace bigmul::cli
