// SPDX-License-Identifier: LGPL-3.0-or-later
/**
 * @file bigmul.h
 * @brief bigmul's C ABI: limb-level products with GMP's mpn contract.
 *
 * A C99 interface over the C++ library for C programs and for other
 * languages' foreign-function interfaces (Rust, Julia, Java, .NET, Python's
 * ctypes). Numbers are arrays of 64-bit limbs, least significant limb first,
 * without sign: GMP's mpn layout, so an `mp_limb_t*` from GMP (with 64-bit
 * limbs) can be passed as it is.
 *
 * No function throws or aborts: each returns a status code, and on failure
 * bigmul_last_error() gives a one-line message for the calling thread. Every
 * function may be called from many threads at once.
 *
 * Link with `-lbigmul_c` (pkg-config: `bigmul_c`; CMake: `bigmul::bigmul_c`).
 */
#ifndef BIGMUL_BIGMUL_H
#define BIGMUL_BIGMUL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Version of this interface: major * 10000 + minor * 100 + patch. */
#define BIGMUL_C_API_VERSION 100

/** @brief Symbol visibility of the C ABI's functions (exported from libbigmul_c.so). */
#if defined(__GNUC__)
#define BIGMUL_C_EXPORT __attribute__((visibility("default")))
#else
#define BIGMUL_C_EXPORT
#endif

/** @brief A limb: 64 bits, least significant limb first (GMP's mp_limb_t on 64-bit systems). */
typedef uint64_t bigmul_limb_t;

/** @brief What a call returns. */
typedef enum bigmul_status {
  BIGMUL_OK = 0,                /**< Success: the result is written. */
  BIGMUL_ERROR_ARGUMENT = 1,    /**< Invalid arguments (null pointer, a zero or out-of-order size, overlap). */
  BIGMUL_ERROR_MEMORY = 2,      /**< Out of memory (or a result no allocation can hold). */
  BIGMUL_ERROR_INTERNAL = 3     /**< Any other failure (a bug or a refused computation); the message says which. */
} bigmul_status;

/**
 * @brief {rp, un + vn} = {up, un} * {vp, vn}, GMP's mpn_mul contract.
 *
 * Requires un >= vn >= 1 and rp not overlapping {up, un} or {vp, vn}; up may
 * equal vp (a square when un == vn). rp receives all un + vn limbs, the top
 * one possibly zero.
 * @param rp  result, un + vn limbs
 * @param up  first operand, un limbs
 * @param un  limbs of up
 * @param vp  second operand, vn limbs
 * @param vn  limbs of vp
 * @param top if not NULL, receives rp[un + vn - 1] (what mpn_mul returns)
 * @return BIGMUL_OK, or an error code with rp's contents unspecified
 */
BIGMUL_C_EXPORT bigmul_status bigmul_mul(bigmul_limb_t* rp, const bigmul_limb_t* up, size_t un,
                                         const bigmul_limb_t* vp, size_t vn, bigmul_limb_t* top);

/**
 * @brief {rp, 2n} = {up, n} * {vp, n}, GMP's mpn_mul_n contract.
 *
 * Requires n >= 1 and rp not overlapping either operand; up may equal vp.
 * @return BIGMUL_OK, or an error code with rp's contents unspecified
 */
BIGMUL_C_EXPORT bigmul_status bigmul_mul_n(bigmul_limb_t* rp, const bigmul_limb_t* up, const bigmul_limb_t* vp,
                                           size_t n);

/**
 * @brief {rp, 2n} = {up, n}^2, GMP's mpn_sqr contract.
 *
 * Requires n >= 1 and rp not overlapping {up, n}.
 * @return BIGMUL_OK, or an error code with rp's contents unspecified
 */
BIGMUL_C_EXPORT bigmul_status bigmul_sqr(bigmul_limb_t* rp, const bigmul_limb_t* up, size_t n);

/**
 * @brief Sets the threads a product may use, for the whole process.
 *
 * 0 restores the default: the environment variable BIGMUL_THREADS when set,
 * else the processor's hardware threads.
 * @return BIGMUL_OK
 */
BIGMUL_C_EXPORT bigmul_status bigmul_set_threads(unsigned threads);

/**
 * @brief The threads a product uses now (never 0).
 *
 * When BIGMUL_THREADS is set to something that is not a thread count, and no
 * count was set with bigmul_set_threads(), returns 1 and bigmul_last_error()
 * names the variable (a product then fails with BIGMUL_ERROR_INTERNAL).
 */
BIGMUL_C_EXPORT unsigned bigmul_threads(void);

/**
 * @brief The smaller operand's size in limbs from which bigmul's product beats
 * GMP's on this processor (measured; below it a caller should keep GMP's mpn_mul).
 *
 * SIZE_MAX (use GMP throughout) when the environment's engine choice
 * (BIGMUL_NTT_ENGINE) is invalid; bigmul_last_error() then says why.
 */
BIGMUL_C_EXPORT size_t bigmul_gmp_crossover_limbs(void);

/**
 * @brief The calling thread's last failure as one line of text ("" after a
 * success). Valid until the thread's next bigmul call.
 */
BIGMUL_C_EXPORT const char* bigmul_last_error(void);

/** @brief A fixed description of a status code ("unknown status" for others). */
BIGMUL_C_EXPORT const char* bigmul_status_string(bigmul_status status);

/** @brief The library's version, e.g. "0.1.0". */
BIGMUL_C_EXPORT const char* bigmul_version(void);

#ifdef __cplusplus
}
#endif

#endif /* BIGMUL_BIGMUL_H */
