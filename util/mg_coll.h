/* SPDX-License-Identifier: BSD-3-Clause */
/* The pure arithmetic of the collective benchmarks (collective/,
 * doc/collectives.md): element types and reduction operations by name, the
 * known inputs of a reduction and the value every element of its result must
 * have, the unequal block counts and displacements of the v-variants, and the
 * overlap formula of the non-blocking ones. Pure C, no MPI.
 */
#ifndef MG_COLL_H
#define MG_COLL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* -T: element types (char is a signed char: MPI_SIGNED_CHAR; long is
 * MPI_LONG_LONG). */
/* long is a long long (8 bytes; OSU's atomics use MPI_LONG_LONG). */
typedef enum {
    MG_ELEM_CHAR = 0,
    MG_ELEM_INT,
    MG_ELEM_FLOAT,
    MG_ELEM_DOUBLE,
    MG_ELEM_LONG
} mg_elem_type;
extern const char *const mg_elem_type_names[]; /* NULL-terminated, in enum order */
size_t mg_elem_size(mg_elem_type t);
/* Element i of buf as type t: store v (char wraps modulo 256), load it. */
void mg_elem_store(int t, void *buf, size_t i, double v);
double mg_elem_load(int t, const void *buf, size_t i);

/* --op: reduction operations. */
typedef enum { MG_RED_SUM = 0, MG_RED_PROD, MG_RED_MAX, MG_RED_MIN } mg_red_op;
extern const char *const mg_red_op_names[]; /* NULL-terminated, in enum order */

/* Input of element i on `rank` of `nranks` for op. Small whole numbers, so
 * every result is exact in every type (sums of char wrap modulo 256):
 *   sum   (rank + i) mod 4
 *   prod  2 + i mod 3 on rank i mod nranks, 1 elsewhere
 *   max, min  (rank + i) mod M + i mod 5, M = min(nranks, 100) */
double mg_red_input(mg_red_op op, int nranks, int rank, uint64_t i);

/* The result for element i of op over ranks 0..n-1 (1 <= n <= nranks: n =
 * nranks for reduce and allreduce, rank + 1 for scan, rank for exscan), as
 * the type stores it. O(1): no loop over ranks. */
double mg_red_expected(mg_red_op op, mg_elem_type t, int nranks, int n, uint64_t i);

/* Elements that src sends to dst in a v-variant for a nominal count: count
 * when src + dst is even, count - count / 2 when it is odd, so blocks are
 * unequal and never above count (buffers sized for count stay enough).
 * gatherv, scatterv, allgatherv and reduce_scatter use dst = 0 (rank r's
 * block depends on r alone); alltoallv uses the pair. */
uint64_t mg_coll_vcount(uint64_t count, int src, int dst);

/* Packed displacement of rank r's block (blocks of mg_coll_vcount(count, k,
 * 0) for k < r, back to back). O(1). */
uint64_t mg_coll_vdispl(uint64_t count, int r);

/* Overlap of a non-blocking collective in percent (IMB-NBC's definition, on
 * our medians): 100 x (t_pure + t_cpu - t_overall) / min(t_pure, t_cpu),
 * clamped to [0, 100]. t_pure: the call alone (start + wait); t_cpu: the
 * computation put between start and wait; t_overall: start + computation +
 * wait. NaN when a time is not positive or not finite. */
double mg_coll_overlap_pct(double pure_s, double cpu_s, double overall_s);

/* Bus bandwidth (nccl-tests' convention, doc/collectives.md): how the
 * size converts to nccl-tests' S and which factor turns S / t into the bus
 * bandwidth, for P ranks. */
enum {
    MG_BUS_NONE = 0, /* none (barrier, v- and neighbourhood variants, scans) */
    MG_BUS_WHOLE,    /* S = size, factor 1 (bcast, reduce) */
    MG_BUS_ALLRED,   /* S = size, factor 2 (P - 1) / P (allreduce) */
    MG_BUS_BLOCKS    /* S = P x size, factor (P - 1) / P (allgather, alltoall,
                      * reduce_scatter_block, gather, scatter) */
};

/* The algorithm and bus bandwidth (GB/s, 10^9 bytes/s) of a call of size
 * bytes on P ranks taking t_us; both NaN for MG_BUS_NONE. Pure. */
void mg_coll_bus_bw(int bus, uint64_t size, int nranks, double t_us, double *alg, double *busbw);

#ifdef __cplusplus
}
#endif

#endif
