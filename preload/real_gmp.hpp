// SPDX-License-Identifier: LGPL-3.0-or-later
// GMP's own mpn functions, found beside the preload: the functions the
// interposer calls below its crossovers and when bigmul fails.
#pragma once

#include <gmp.h>

namespace bigmul::preload {

using mul_fn = mp_limb_t (*)(mp_ptr, mp_srcptr, mp_size_t, mp_srcptr, mp_size_t);
using mul_n_fn = void (*)(mp_ptr, mp_srcptr, mp_srcptr, mp_size_t);
using sqr_fn = void (*)(mp_ptr, mp_srcptr, mp_size_t);
using get_str_fn = size_t (*)(unsigned char*, int, mp_ptr, mp_size_t);
using set_str_fn = mp_size_t (*)(mp_ptr, const unsigned char*, size_t, int);

// Each resolves on first use (thread-safe) and then costs one load. A name
// GMP does not define ends the process with a one-line message: nothing
// else could compute the call.
mul_fn real_mul();
mul_n_fn real_mul_n();
sqr_fn real_sqr();
get_str_fn real_get_str();
set_str_fn real_set_str();

}  // namespace bigmul::preload
