// SPDX-License-Identifier: LGPL-3.0-or-later
// What identifies a captured GPU FFT pass (mul/cuda/fft_mul_device.cu, fft_job::graph):
// a CUDA graph replays fixed kernel arguments, so it serves a later pass
// only when the shape (algorithm, engine, digits, sizes, batch, square, the
// single-pass kernel flags, the plan's limits) AND the device, stream and every buffer address
// are the same. Plain C++17, so tests/mul/test_pass_graph_key.cpp checks on
// the CPU that each of them tells keys apart.
#pragma once

#include <cstddef>

namespace bigmul::detail::cuda {

struct pass_graph_key {
  int device = 0;
  const void* stream = nullptr;
  const void *temp = nullptr, *r = nullptr, *a = nullptr, *b = nullptr;
  int algo = 0, engine = 0, rx = 0;
  unsigned digits = 0;
  std::size_t an = 0, bn = 0, G = 0;
  bool square = false, fused_split = false, fused_carry = false, fused_join = false, fused_tail = false;
  bool two_pass = false;

  friend bool operator==(const pass_graph_key& x, const pass_graph_key& y) {
    return x.device == y.device && x.stream == y.stream && x.temp == y.temp && x.r == y.r && x.a == y.a &&
           x.b == y.b && x.algo == y.algo && x.engine == y.engine && x.rx == y.rx && x.digits == y.digits &&
           x.an == y.an && x.bn == y.bn && x.G == y.G && x.square == y.square && x.fused_split == y.fused_split &&
           x.fused_carry == y.fused_carry && x.fused_join == y.fused_join && x.fused_tail == y.fused_tail &&
           x.two_pass == y.two_pass;
  }
  friend bool operator!=(const pass_graph_key& x, const pass_graph_key& y) { return !(x == y); }
};

}  // namespace bigmul::detail::cuda
