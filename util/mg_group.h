/* SPDX-License-Identifier: BSD-3-Clause */
/* The ranks of a run as the measuring stage sees them: four collective calls.
 *
 * The driver's stages after the session (buffers, warm-up, timed samples,
 * stop decisions, validation, the sweep and its sink) talk to the other ranks
 * only through these four calls, so that they run in one process against a
 * one-rank fake (mg_group_solo) as well as over MPI (mpi/driver/mg_group_mpi.c).
 * Every call is collective: every rank of the group makes it, in the same
 * order. Rank 0 is the root of reduce_max and gather.
 */
#ifndef MG_GROUP_H
#define MG_GROUP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mg_group_ops {
    void (*barrier)(void *impl);
    /* root's `bytes` bytes at buf to every rank's buf */
    void (*bcast)(void *impl, void *buf, size_t bytes, int root);
    /* rank 0: out[i] = the largest in[i] over ranks (n doubles) */
    void (*reduce_max)(void *impl, const double *in, double *out, size_t n);
    /* rank 0: out[r * n + i] = rank r's in[i] (n doubles per rank) */
    void (*gather)(void *impl, const double *in, size_t n, double *out);
} mg_group_ops;

typedef struct {
    const mg_group_ops *ops;
    void *impl;
    int rank, size;
} mg_group;

static inline void mg_group_barrier(const mg_group *g) { g->ops->barrier(g->impl); }

static inline void mg_group_bcast(const mg_group *g, void *buf, size_t bytes)
{
    g->ops->bcast(g->impl, buf, bytes, 0);
}

static inline void mg_group_reduce_max(const mg_group *g, const double *in, double *out, size_t n)
{
    g->ops->reduce_max(g->impl, in, out, n);
}

static inline void mg_group_gather(const mg_group *g, const double *in, size_t n, double *out)
{
    g->ops->gather(g->impl, in, n, out);
}

/* A group of one rank (rank 0 of 1): bcast and barrier do nothing, reduce_max
 * and gather copy in to out. For tests and for stages run in one process. */
void mg_group_solo(mg_group *g);

/* Every rank: 1 when `mine` is nonzero on every rank (reduce_max, bcast). */
int mg_group_all_true(const mg_group *g, int mine);

/* Every rank: the largest `mine` over ranks. */
double mg_group_max(const mg_group *g, double mine);

/* When any rank's msg (len bytes, NUL-terminated) is not empty, every rank
 * gets the lowest such rank's msg and -1; else 0 and msg unchanged. */
int mg_group_agree_message(const mg_group *g, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#endif
