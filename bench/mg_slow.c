/* SPDX-License-Identifier: BSD-3-Clause */
/* libmgslow: a PMPI library that makes an MPI library slower by a chosen
 * amount, for measuring mpigauge's own error rates (mpigauge selftest,
 * doc/compare.md). Built by `make` as bench/libmgslow.so next to the
 * programs of the build; never installed. Load it with LD_PRELOAD in the
 * ranks' environment.
 *
 *   MG_SLOW_PERCENT=P   at every completion (MPI_Recv, MPI_Wait, MPI_Waitall,
 *                       MPI_Waitany) the rank waits P% of the time since its
 *                       previous completion, after the call returns: the
 *                       rank's communication pattern, sends included, takes
 *                       P% longer, and the delay lies on the critical path (a
 *                       delay after a send would overlap the partner's
 *                       reply); default 0
 *   MG_SLOW_NS=N        and N nanoseconds more per completion; default 0
 *   MG_SLOW_RANKS=LIST  world ranks that slow down, e.g. 0 or 0,1 or all
 *                       (default 0: in a ping-pong or a window the pattern's
 *                       time grows by P% once, not again through the
 *                       partner's wait)
 *   MG_SLOW_CALLS=LIST  collectives that alone slow down, each call by
 *   MG_SLOW_CALL_NS=N   N nanoseconds after it returns, on the ranks of
 *                       MG_SLOW_RANKS: of allreduce, bcast, reduce, allgather,
 *                       gather, scatter (a planted guideline violation,
 *                       doc/guidelines.md: MG_SLOW_CALLS=allreduce makes
 *                       MPI_Allreduce slower than MPI_Reduce + MPI_Bcast)
 *   MG_SLOW_ABOVE=N     the named collectives slow down only on communicators
 *                       of more than N ranks: a step planted between N and
 *                       N + 1 ranks of a --ranks-sweep (doc/collectives.md,
 *                       bench/scaling_steps.py); default 0 (every size)
 *
 * The first completion after MPI_Init does not wait: the time since
 * MPI_Init is start-up, not the pattern (waiting 40% of it, up to 0.4 s,
 * in the first row's warm-up left that row, with one iteration a sample,
 * at 5x its latency in 3 of 4 launches of MPICH 5.0.2 here, in some
 * machine states). A later interval longer than 1 s (a long barrier)
 * counts as 1 s.
 * MPI_Send and MPI_Isend are intercepted too: they are timed as completions
 * are not, so the cost of the library (two clock reads per call) is the same
 * at every P. Compare a configuration at P% with one at 0%, both with the
 * library loaded, not with a run without it.
 */
#include <mpi.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double slow_factor; /* P / 100 */
static double slow_extra_s;
static int slow_active;
static double last_completion_s;
static volatile double slow_sink;
static double call_extra_s;    /* MG_SLOW_CALL_NS */
static const char *slow_calls; /* MG_SLOW_CALLS */
static int slow_above;         /* MG_SLOW_ABOVE */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* After a send: only the clock read a completion also pays. */
static void sent(void) { slow_sink = now_s(); }

/* After a completion: wait P% of the time since the previous one. */
static void completed(void)
{
    double t1 = now_s();
    double interval = t1 - last_completion_s;
    if (interval > 1.0)
        interval = 1.0;
    if (slow_active && last_completion_s > 0.0) {
        double until = t1 + interval * slow_factor + slow_extra_s;
        while ((t1 = now_s()) < until)
            ;
    }
    last_completion_s = t1;
}

/* "all", or a comma-separated list containing `rank`. */
static int rank_listed(const char *list, int rank)
{
    if (list == NULL || *list == '\0')
        return rank == 0;
    if (strcmp(list, "all") == 0)
        return 1;
    for (const char *p = list; *p;) {
        char *end;
        long r = strtol(p, &end, 10);
        if (end == p)
            return 0;
        if (r == rank)
            return 1;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

static void slow_setup(void)
{
    const char *pct = getenv("MG_SLOW_PERCENT"), *ns = getenv("MG_SLOW_NS");
    int rank = 0;
    slow_factor = pct ? atof(pct) / 100.0 : 0.0;
    slow_extra_s = ns ? atof(ns) * 1e-9 : 0.0;
    if (slow_factor < 0.0)
        slow_factor = 0.0;
    if (slow_extra_s < 0.0)
        slow_extra_s = 0.0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    slow_active = rank_listed(getenv("MG_SLOW_RANKS"), rank);
    slow_calls = getenv("MG_SLOW_CALLS");
    call_extra_s = getenv("MG_SLOW_CALL_NS") ? atof(getenv("MG_SLOW_CALL_NS")) * 1e-9 : 0.0;
    slow_above = getenv("MG_SLOW_ABOVE") ? atoi(getenv("MG_SLOW_ABOVE")) : 0;
    last_completion_s = 0.0; /* the first completion does not wait */
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        slow_setup();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        slow_setup();
    return rc;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    int rc = PMPI_Send(buf, count, type, dest, tag, comm);
    sent();
    return rc;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    int rc = PMPI_Isend(buf, count, type, dest, tag, comm, req);
    sent();
    return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    int rc = PMPI_Recv(buf, count, type, src, tag, comm, status);
    completed();
    return rc;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    int rc = PMPI_Wait(req, status);
    completed();
    return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    int rc = PMPI_Waitall(n, reqs, statuses);
    completed();
    return rc;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    int rc = PMPI_Waitany(n, reqs, index, status);
    completed();
    return rc;
}

/* MG_SLOW_CALLS: after a named collective returns, N ns more on a slow rank
 * (of a communicator of more than MG_SLOW_ABOVE ranks). */
static int slowed_call(const char *name, MPI_Comm comm)
{
    size_t n = strlen(name);
    int size = 0;
    if (!slow_active || slow_calls == NULL || call_extra_s <= 0.0)
        return 0;
    if (slow_above > 0 && (PMPI_Comm_size(comm, &size) != MPI_SUCCESS || size <= slow_above))
        return 0;
    for (const char *p = slow_calls; (p = strstr(p, name)) != NULL; p += n)
        if ((p == slow_calls || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

static int after_call(const char *name, MPI_Comm comm, int rc)
{
    if (slowed_call(name, comm)) {
        double until = now_s() + call_extra_s;
        while (now_s() < until)
            ;
    }
    return rc;
}

int MPI_Allreduce(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    return after_call("allreduce", comm, PMPI_Allreduce(s, r, count, t, op, comm));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
    return after_call("bcast", comm, PMPI_Bcast(buf, count, t, root, comm));
}

int MPI_Reduce(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, int root,
               MPI_Comm comm)
{
    return after_call("reduce", comm, PMPI_Reduce(s, r, count, t, op, root, comm));
}

int MPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt,
                  MPI_Comm comm)
{
    return after_call("allgather", comm, PMPI_Allgather(s, sc, st, r, rc, rt, comm));
}

int MPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root,
               MPI_Comm comm)
{
    return after_call("gather", comm, PMPI_Gather(s, sc, st, r, rc, rt, root, comm));
}

int MPI_Scatter(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root,
                MPI_Comm comm)
{
    return after_call("scatter", comm, PMPI_Scatter(s, sc, st, r, rc, rt, root, comm));
}
