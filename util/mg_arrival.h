/* SPDX-License-Identifier: BSD-3-Clause */
/* Arrival patterns of a collective's ranks (--arrival, doc/collectives.md):
 * how late each rank starts each call after the common start of its window
 * (--sync window), so that a collective can be measured when its ranks do
 * not arrive together.
 *
 *   skew:US          rank r starts US x r / (P - 1) late: the last rank US late
 *   random:US        every rank and call a delay drawn in [0, US), the same
 *                    on every rank (a hash of the seed, the rank and the call)
 *   one-late:US[@R]  rank R (default the last) US late, the others on time
 *
 * Every rank can compute every rank's delay, so each knows when the last
 * rank arrived. Pure C, no MPI.
 */
#ifndef MG_ARRIVAL_H
#define MG_ARRIVAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MG_ARRIVAL_NONE = 0,
    MG_ARRIVAL_SKEW,
    MG_ARRIVAL_RANDOM,
    MG_ARRIVAL_ONE_LATE
} mg_arrival_kind;

typedef struct {
    mg_arrival_kind kind;
    double us;     /* the largest delay, us */
    int late_rank; /* one-late: the late rank; -1: the last */
} mg_arrival;

/* Parse SPEC (NULL or "none": no pattern). 0, or -1 with the reason in err. */
int mg_arrival_parse(const char *spec, mg_arrival *out, char *err, size_t errlen);

/* The delay in seconds of `rank` of `nranks` at call `call` (counted from
 * 0 over the size's calls) under pattern a; seed: random's draw. */
double mg_arrival_delay_s(const mg_arrival *a, int rank, int nranks, uint64_t call, uint64_t seed);

/* The largest delay of any rank at that call (when the last rank arrives). */
double mg_arrival_last_s(const mg_arrival *a, int nranks, uint64_t call, uint64_t seed);

/* The pattern in words for the record ("one-late:50@3"), into buf. */
void mg_arrival_format(const mg_arrival *a, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
