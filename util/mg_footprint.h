/* SPDX-License-Identifier: BSD-3-Clause */
/* A process's memory as the kernel and the C library count it, for
 * mpigauge_footprint (pt2pt/footprint.c): resident and proportional set
 * sizes from /proc/self/smaps_rollup (PSS splits every shared page among
 * the processes that map it, so the ranks' PSS add up to what they occupy
 * together) and the heap in use from malloc's own count (mallinfo2: the
 * arenas' allocated bytes and malloc's mmapped blocks; a library that maps
 * its memory itself is in RSS and PSS only). The parser is pure; no MPI.
 */
#ifndef MG_FOOTPRINT_H
#define MG_FOOTPRINT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double rss_kib, pss_kib;            /* Rss:, Pss: */
    double pss_anon_kib, pss_shmem_kib; /* Pss_Anon:, Pss_Shmem: (NaN when absent) */
    double heap_kib;                    /* malloc's bytes in use / 1024 (NaN: unknown) */
} mg_footprint;

/* smaps_rollup's text into *out (heap_kib untouched): 0, or -1 when Rss or
 * Pss is missing. Fields the kernel lacks (Pss_Anon and Pss_Shmem came in
 * Linux 5.10) are NaN. */
int mg_footprint_parse(const char *text, mg_footprint *out);

/* This process now: 0, or -1 when /proc/self/smaps_rollup cannot be read
 * (not Linux, or before 4.14). */
int mg_footprint_read(mg_footprint *out);

#ifdef __cplusplus
}
#endif

#endif
