// SPDX-License-Identifier: LGPL-3.0-or-later
#include "cli/run_room.hpp"

namespace bigmul::cli {
namespace {

// The text's characters at most for a product of n limbs in radix rx:
// sign, "0x", the digits and the newline.
std::size_t text_bound(std::size_t n, radix rx) { return 4 + n * (rx == radix::decimal ? decimal_limb_digits : 16); }

}  // namespace

void run_room::reserve(std::size_t operand_limbs, std::size_t product_limbs, radix rx) {
  // Exact for operands in the product's radix. Past the huge-page sizes the
  // text is left out: allocated once the operands and the product's scratch
  // are freed, it never adds to the peak (of memory, or of address space
  // under ulimit -v).
  product_room_ = product_limbs + 1;
  const std::size_t text = text_bound(product_limbs, rx);
  const std::size_t bytes = operand_limbs * sizeof(limb_t) + product_room_ * sizeof(limb_t) + 4 * 64;
  text_room_ = bytes + text <= prim::buffer<char>::huge_page_max ? text : 0;
  mem_ = arena(bytes + text_room_);
}

void run_room::take_product_room() {
  product_at_ = mem_.take<limb_t>(product_room_);
  text_at_ = mem_.take<char>(text_room_);
}

void run_room::touch_product_room() {
  if (touch_claimed_.exchange(true)) return;
  arena::touch(product_at_, product_room_ * sizeof(limb_t));
  arena::touch(text_at_, text_room_);
}

limb_t* run_room::product(std::size_t n, prim::buffer<limb_t>& spill) {
  if (product_fits(n)) return product_at_;
  spill = prim::buffer<limb_t>(n + 1);
  return spill.data();
}

char* run_room::text(std::size_t n, prim::buffer<char>& spill) {
  if (text_at_ && n <= text_room_) return text_at_;
  spill = prim::buffer<char>(n);
  return spill.data();
}

void run_room::give_back(limb_t* at, std::size_t limbs) {
  if (mem_.capacity() > prim::buffer<char>::huge_page_max) mem_.discard(at, limbs * sizeof(limb_t));
}

}  // namespace bigmul::cli
