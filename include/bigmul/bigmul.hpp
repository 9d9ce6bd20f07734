// SPDX-License-Identifier: LGPL-3.0-or-later
/// @file
/// @brief Everything in bigmul's public C++ API: `#include <bigmul/bigmul.hpp>`.
///
/// The core (integer and its arithmetic, limb-level mul, modular arithmetic,
/// errors, version) always; the bridges where what they need is found: the GMP
/// bridge when <gmp.h> is (the program then links GMP), the Boost.Multiprecision
/// backend when Boost's headers are (define BIGMUL_NO_BOOST to leave it out),
/// the device API in CUDA builds (BIGMUL_HAVE_CUDA). The distributed product
/// (<bigmul/mpi.hpp>, library bigmul::mpi) and the C ABI (<bigmul/bigmul.h>,
/// library bigmul_c) are separate libraries with their own headers.
#pragma once

#include "bigmul/arith.hpp"
#include "bigmul/config.hpp"
#include "bigmul/error.hpp"
#include "bigmul/fixed_factor.hpp"
#include "bigmul/hd.hpp"
#include "bigmul/integer.hpp"
#include "bigmul/modular.hpp"
#include "bigmul/mul.hpp"
#include "bigmul/version.hpp"

#if __has_include(<gmp.h>)
#include "bigmul/gmp.hpp"
#include "bigmul/gmp_guard.hpp"
#endif
#if __has_include(<boost/multiprecision/number.hpp>) && !defined(BIGMUL_NO_BOOST)
#include "bigmul/boost.hpp"
#endif
#if defined(BIGMUL_HAVE_CUDA)
#include "bigmul/device.hpp"
#endif
