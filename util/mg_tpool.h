/* SPDX-License-Identifier: BSD-3-Clause */
/* A fixed team of threads that run one function together, for kernels that
 * measure with several threads per rank (latency_mt, mbw_mr_mt, the
 * partitioned programs). The calling thread is member 0; members 1..n-1 are
 * POSIX threads made once and parked on a barrier between runs, so a run
 * costs two barrier crossings, not thread creation. */
#ifndef MG_TPOOL_H
#define MG_TPOOL_H

typedef void (*mg_tpool_fn)(void *arg, int member);

typedef struct mg_tpool mg_tpool;

/* A team of n members (1 <= n <= MG_TPOOL_MAX); NULL when a thread or the
 * memory could not be had (errno set). */
#define MG_TPOOL_MAX 256
mg_tpool *mg_tpool_create(int n);

/* Run fn(arg, m) on every member m = 0..n-1 at once (member 0 on the
 * calling thread); returns when every member has returned. */
void mg_tpool_run(mg_tpool *p, mg_tpool_fn fn, void *arg);

int mg_tpool_size(const mg_tpool *p);

/* Inside a run: member m waits until every member has called it the same
 * number of times (a spinning, sense-reversing barrier for loops whose
 * steps must stay in lockstep; after a few thousand spins it yields the
 * core, so oversubscribed ranks still progress). */
void mg_tpool_barrier(mg_tpool *p, int member);

/* Stop and join the members; NULL is allowed. */
void mg_tpool_destroy(mg_tpool *p);

#endif
