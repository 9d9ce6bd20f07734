// SPDX-License-Identifier: LGPL-3.0-or-later
// The tile descriptors of the packed decoupled look-back scan
// (prim/cuda/device_scan_impl.cuh, scan_algorithm::lookback_packed): status
// and value in the same 64-bit words, so a reader needs neither a fence nor a
// second load to trust a value (the descriptor of [MERRILL16]: a tile's
// status flag, its aggregate and its inclusive prefix).
//
// Design: a value of 4 bytes sits in one word, status in the high half; a
// value of 8 bytes is split into two 32-bit halves, each in its own word with
// a copy of the status in the high half. An aligned 64-bit access is one
// memory operation but a 128-bit vector access is two of them in no set
// order ([PTXMM ch. 8, memory operations on vector data-types]), so a
// reader of the two words may see a torn descriptor (one half of the
// aggregate, one of the inclusive prefix while the writer moves on). Statuses only ever grow (invalid ->
// aggregate -> prefix), each status has exactly one value per tile, so a
// descriptor whose two statuses agree holds that status's value in both
// halves; one whose statuses differ is read as invalid and read again.
// No fence is needed on either side: nothing outside a word is trusted
// because of it. Wider values keep the flag + fence look-back.
//
// Plain C++17 with BIGMUL_HD functions: tests/prim/test_lookback_model.cpp
// replays the protocol on the CPU with every 64-bit access a separate step
// and blocks interleaved adversarially.
#pragma once

#include <cstdint>
#include <cstring>

#include "bigmul/hd.hpp"

namespace bigmul::prim::lookback {

enum : std::uint32_t { status_invalid = 0, status_aggregate = 1, status_prefix = 2 };

// Types the packed descriptor carries: 4 or 8 bytes, word-aligned.
template <class T>
inline constexpr bool packable = (sizeof(T) == 4 || sizeof(T) == 8) && alignof(T) >= 4;

// 64-bit words per tile descriptor.
template <class T>
inline constexpr unsigned words = sizeof(T) / 4;

template <class T>
BIGMUL_HD void encode(std::uint32_t status, const T& v, std::uint64_t (&w)[words<T>]) {
  std::uint32_t half[words<T>];
  std::memcpy(half, &v, sizeof(T));
  for (unsigned i = 0; i < words<T>; ++i) w[i] = (std::uint64_t{status} << 32) | half[i];
}

// The descriptor's status, and its value in v unless the status is invalid
// (never written, or torn: halves of different statuses).
template <class T>
BIGMUL_HD std::uint32_t decode(const std::uint64_t (&w)[words<T>], T& v) {
  const auto status = static_cast<std::uint32_t>(w[0] >> 32);
  std::uint32_t half[words<T>];
  for (unsigned i = 0; i < words<T>; ++i) {
    if (static_cast<std::uint32_t>(w[i] >> 32) != status) return status_invalid;
    half[i] = static_cast<std::uint32_t>(w[i]);
  }
  if (status == status_invalid) return status_invalid;
  std::memcpy(&v, half, sizeof(T));
  return status;
}

// One window of the look-back: lane i (< lanes) holds tile window - i with
// status st[i] (none invalid) and value v[i]; a lane past tile 0 reads as a
// prefix of the identity. Folds the lanes up to the nearest prefix, earliest
// tile first: returns true with fold = the total of tiles window+1-k .. window
// ending at a prefix (done), or false with fold = the total of all lanes (look
// further back). The device computes the same with a ballot and a warp
// reduction of reversed operands.
template <class T, class Op>
BIGMUL_HD bool fold_window(const std::uint32_t* st, const T* v, unsigned lanes, const Op& op, const T& identity,
                           T& fold) {
  unsigned stop = lanes;
  for (unsigned i = 0; i < lanes; ++i)
    if (st[i] == status_prefix) {
      stop = i;
      break;
    }
  const unsigned last = stop < lanes ? stop : lanes - 1;
  fold = identity;
  for (unsigned i = 0; i <= last; ++i) fold = op(v[i], fold);  // lane i is earlier than lane i - 1
  return stop < lanes;
}

// Exponential backoff of a look-back that saw an invalid descriptor, in
// nanoseconds: short first (the predecessor is usually about to publish),
// capped so a starved reader rechecks often.
BIGMUL_HD unsigned next_backoff(unsigned ns) { return ns >= 512 ? 1024 : (ns ? 2 * ns : 32); }

}  // namespace bigmul::prim::lookback
