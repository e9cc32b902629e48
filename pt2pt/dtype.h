/* SPDX-License-Identifier: BSD-3-Clause */
/* -T/-D: typed and derived-datatype messages for latency, bw and bibw
 * (pt2pt/dtype.c). With either option the program measures, size by size,
 * a second variant datatype=bytes|LAYOUT: the reference is N bytes of
 * MPI_BYTE, the other carries the same N bytes of payload as elements of -T
 * laid out by -D:
 *   basic          N/e elements of the type (no derived type)
 *   contiguous     one MPI_Type_contiguous of N/e elements
 *   vector:B:S     MPI_Type_vector: blocks of B elements every S elements
 *                  (a shorter last block when B does not divide N/e)
 *   indexed        MPI_Type_indexed: blocks of 1, 2, ..., 8 elements, each
 *                  followed by a gap of its own length
 *   resized        N/e of the type resized to twice its extent (every
 *                  other element: a column-like stride)
 * e is the element size (char 1, int 4, float 4, double 8); N must be a
 * multiple of it. Sends and receives use the same layout, so the payload
 * lands at the same offsets; validation checks every payload byte and that
 * every gap byte is untouched. The typed variant's calls go through the
 * transfer layer's ops (plain_calls: no rails); the extra ratio_to_bytes is
 * its median over the bytes variant's at that size. */
#ifndef MG_PT2PT_DTYPE_H
#define MG_PT2PT_DTYPE_H

#include "mg_layout.h"
#include "pt2pt.h"

enum { MG_DT_VARIANT_BYTES = 0, MG_DT_VARIANT_TYPED = 1 };

extern const char *const mg_dt_elem_names[];

#define MG_OPT_DATATYPES                                                                           \
    {.short_name = 'T',                                                                            \
     .long_name = "type",                                                                          \
     .type = MG_OPT_CHOICE,                                                                        \
     .offset = offsetof(mg_pt2pt_params, elem),                                                    \
     .arg_name = "char|int|float|double",                                                          \
     .help =                                                                                       \
         "also measure messages of this element type (variant datatype=bytes|LAYOUT, the bytes "   \
         "the reference); -m stays the payload in bytes",                                          \
     .choices = mg_dt_elem_names},                                                                 \
    {                                                                                              \
        .short_name = 'D', .long_name = "layout", .type = MG_OPT_STRING,                           \
        .offset = offsetof(mg_pt2pt_params, layout),                                               \
        .arg_name = "basic|contiguous|vector:B:S|indexed|resized",                                 \
        .help = "the typed variant's layout (with -T, default basic; alone, of char elements): "   \
                "derived datatypes, so the cost of packing shows beside contiguous bytes"          \
    }

/* The datatype form of b, a pure function from form to form: the datatype
 * variant (labels: "bytes", the reference, then the typed layout's), the
 * typed kernel's hooks and validation, sizes of at least one element. */
mg_bench mg_dt_form(mg_bench b, const char *const *labels, size_t elem_bytes);
/* A program's choose and check for -T/-D together with --persistent: 1 with
 * the datatype form or the persistent form in *out, or 0 (b). */
int mg_p2p_choose(const mg_ctx *c, const mg_bench *b, mg_form *out,
                  void (*iterate_persistent)(mg_ctx *, uint64_t, long),
                  void (*begin_persistent)(mg_ctx *, uint64_t));
int mg_p2p_check(const mg_ctx *c, char *err, size_t errlen);

#endif
