/* SPDX-License-Identifier: BSD-3-Clause */
/* Deterministic data patterns for --validate.
 *
 * The byte at offset i of a message is a pure function of a seed and i, and
 * the seed depends on the sending rank, the message size and the iteration,
 * so a message delivered to the wrong place, a stale buffer from an earlier
 * iteration, a truncated or a corrupted message all fail the check.
 */
#ifndef MG_PATTERN_H
#define MG_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Seed of the message that `rank` sends, of `size_bytes`, in `iteration`. */
/* splitmix64's finaliser: a well-mixed 64-bit value of one word (the
 * patterns' seeds and words, the sparse matrices' draws, --arrival random). */
uint64_t mg_mix64(uint64_t x);

uint64_t mg_pattern_seed(int rank, uint64_t size_bytes, uint64_t iteration);

/* Byte at offset `off` of the pattern with that seed. */
uint8_t mg_pattern_byte(uint64_t seed, uint64_t off);

void mg_pattern_fill(void *buf, size_t len, uint64_t seed);

/* The bitwise complement of the pattern: every byte differs from what a
 * correct delivery writes (a receive buffer before validation). */
void mg_pattern_poison(void *buf, size_t len, uint64_t seed);

/* 0 if buf holds the pattern, else -1 with the first bad offset. */
int mg_pattern_check(const void *buf, size_t len, uint64_t seed, size_t *first_bad);

#ifdef __cplusplus
}
#endif

#endif
