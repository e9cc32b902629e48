/* SPDX-License-Identifier: BSD-3-Clause */
/* Derived-datatype layouts of -D (pt2pt/dtype.h): where the payload of a
 * message lies in its buffer, so that the MPI datatype and the validation
 * agree on it. Plain C, no MPI. */
#ifndef MG_LAYOUT_H
#define MG_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { MG_DT_BASIC = 0, MG_DT_CONTIGUOUS, MG_DT_VECTOR, MG_DT_INDEXED, MG_DT_RESIZED };
/* indexed: block k has 1 + k % MG_DT_INDEXED_CYCLE elements and is followed
 * by a gap of the same length. */
enum { MG_DT_INDEXED_CYCLE = 8 };

typedef struct {
    int kind;           /* MG_DT_* */
    long block, stride; /* vector: B and S elements */
} mg_dt_layout;

extern const char *const mg_dt_layout_names[]; /* by kind */

/* Parse -D: 0, or -1 with a message. */
int mg_dt_parse(const char *text, mg_dt_layout *out, char *err, size_t errlen);

/* The payload's byte blocks of a message of `size` bytes in elements of e
 * bytes (size / e elements): calls block(arg, offset, length) in offset
 * order; returns the extent in bytes (offset 0 to the end of the last
 * block; 0 without elements). */
uint64_t mg_dt_blocks(const mg_dt_layout *l, size_t e, uint64_t size,
                      void (*block)(void *arg, uint64_t off, uint64_t len), void *arg);

/* The extent alone (mg_dt_blocks without the blocks). */
uint64_t mg_dt_extent(const mg_dt_layout *l, size_t e, uint64_t size);

/* A variant label: ELEM for basic, vector:B:S/ELEM, LAYOUT/ELEM. */
void mg_dt_label(const mg_dt_layout *l, const char *elem, char *out, size_t len);

/* A received message of `size` payload bytes in this layout: every
 * payload byte is the pattern of seed `pay` (mg_pattern.h), every gap
 * byte before the last block the poison of seed `poison` (untouched since
 * mg_pattern_poison). 0, or -1 with the first bad offset in *bad and *gap
 * 1 when it lies in a gap. */
int mg_dt_check(const mg_dt_layout *l, size_t e, uint64_t size, const unsigned char *buf,
                uint64_t pay, uint64_t poison, uint64_t *bad, int *gap);

#ifdef __cplusplus
}
#endif

#endif
