/* libmgslow: a PMPI library that makes an MPI library slower by a chosen
 * amount, for measuring mpigauge's own error rates (mpigauge selftest,
 * doc/compare.md). Built by `make` as bench/libmgslow.so next to the
 * programs of the build; never installed. Load it with LD_PRELOAD in the
 * ranks' environment.
 *
 *   MG_SLOW_PERCENT=P   every intercepted call lasts P% longer than it did
 *                       (its own duration times 1 + P/100, by spinning after
 *                       it returns); default 0
 *   MG_SLOW_NS=N        and N nanoseconds more per call; default 0
 *   MG_SLOW_RANKS=LIST  world ranks that slow down, e.g. 0 or 0,1 or all
 *                       (default 0: in a ping-pong or a window the pattern's
 *                       time grows by P% once, not again through the
 *                       partner's wait)
 *
 * Intercepted: MPI_Send, MPI_Isend, MPI_Recv, MPI_Wait, MPI_Waitall,
 * MPI_Waitany (the sends and completions of the point-to-point programs).
 * Every intercepted call is timed with CLOCK_MONOTONIC even at P = 0, so a
 * configuration at 0% pays the same timing cost as one at 10%: compare the
 * two, not one against a run without the library.
 */
#include <mpi.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double slow_factor; /* P / 100 */
static double slow_extra_s;
static int slow_active;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void stretch(double t0)
{
    if (!slow_active)
        return;
    double t1 = now_s();
    double until = t1 + (t1 - t0) * slow_factor + slow_extra_s;
    while (now_s() < until)
        ;
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
    double t0 = now_s();
    int rc = PMPI_Send(buf, count, type, dest, tag, comm);
    stretch(t0);
    return rc;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    double t0 = now_s();
    int rc = PMPI_Isend(buf, count, type, dest, tag, comm, req);
    stretch(t0);
    return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    double t0 = now_s();
    int rc = PMPI_Recv(buf, count, type, src, tag, comm, status);
    stretch(t0);
    return rc;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    double t0 = now_s();
    int rc = PMPI_Wait(req, status);
    stretch(t0);
    return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    double t0 = now_s();
    int rc = PMPI_Waitall(n, reqs, statuses);
    stretch(t0);
    return rc;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    double t0 = now_s();
    int rc = PMPI_Waitany(n, reqs, index, status);
    stretch(t0);
    return rc;
}
