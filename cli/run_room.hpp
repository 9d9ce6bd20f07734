// SPDX-License-Identifier: LGPL-3.0-or-later
// The run's one arena (cli/arena.hpp) laid out: the operands as parsed,
// then room for the product's limbs and its text, sized from upper bounds
// before the operands are read; a product or text that misses it goes to its
// own allocation.
#pragma once

#include <atomic>
#include <cstddef>

#include "bigmul/mul.hpp"
#include "cli/arena.hpp"
#include "prim/buffer.hpp"

namespace bigmul::cli {

class run_room {
 public:
  // Reserves the arena for operand_limbs parsed limbs and a product of at
  // most product_limbs limbs in radix rx with its text.
  void reserve(std::size_t operand_limbs, std::size_t product_limbs, radix rx);
  // n limbs for a parsed operand (before take_product_room).
  limb_t* take_operand(std::size_t n) { return mem_.take<limb_t>(n); }
  // The product's and the text's room, after the operands' limbs.
  void take_product_room();
  // First-touches the product's and the text's pages, once: by whichever
  // thread is done first while the operands are parsed or generated.
  void touch_product_room();
  // Whether a product of n limbs (and its spare limb) fits the room.
  bool product_fits(std::size_t n) const { return product_at_ && n + 1 <= product_room_; }
  // Room for a product of n limbs (and a spare one): the arena's, else spill's.
  limb_t* product(std::size_t n, prim::buffer<limb_t>& spill);
  // Room for n characters of text: the arena's, else spill's.
  char* text(std::size_t n, prim::buffer<char>& spill);
  // Gives back the pages of `limbs` limbs at `at` no longer needed (only
  // past the huge-page sizes, from ~10^7 digits: below, the pages are few
  // and the system call costs more than the memory is worth for the short
  // rest of the run).
  void give_back(limb_t* at, std::size_t limbs);

 private:
  arena mem_;
  limb_t* product_at_ = nullptr;
  std::size_t product_room_ = 0;  // limbs
  char* text_at_ = nullptr;
  std::size_t text_room_ = 0;  // characters
  std::atomic<bool> touch_claimed_{false};
};

}  // namespace bigmul::cli
