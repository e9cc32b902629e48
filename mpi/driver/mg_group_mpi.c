/* SPDX-License-Identifier: BSD-3-Clause */
/* The four-call group over an MPI communicator (util/mg_group.h), and the
 * clock offsets of --sync window (mg_run.h). */
#include "mg_run.h"

#include "mg_clocksync.h"

#include <limits.h>
#include <math.h>

static MPI_Comm comm_of(void *impl) { return *(const MPI_Comm *)impl; }

static int count_of(size_t n)
{
    if (n > (size_t)INT_MAX)
        mg_mpi_die(__FILE__, __LINE__, "a group call of more than INT_MAX elements");
    return (int)n;
}

static void mpi_barrier(void *impl) { MG_MPI_CHECK(MPI_Barrier(comm_of(impl))); }

static void mpi_bcast(void *impl, void *buf, size_t bytes, int root)
{
    MG_MPI_CHECK(MPI_Bcast(buf, count_of(bytes), MPI_BYTE, root, comm_of(impl)));
}

static void mpi_reduce_max(void *impl, const double *in, double *out, size_t n)
{
    MG_MPI_CHECK(MPI_Reduce(in, out, count_of(n), MPI_DOUBLE, MPI_MAX, 0, comm_of(impl)));
}

static void mpi_gather(void *impl, const double *in, size_t n, double *out)
{
    MG_MPI_CHECK(
        MPI_Gather(in, count_of(n), MPI_DOUBLE, out, count_of(n), MPI_DOUBLE, 0, comm_of(impl)));
}

static const mg_group_ops mpi_ops = {mpi_barrier, mpi_bcast, mpi_reduce_max, mpi_gather};

void mg_group_mpi(mg_group *g, MPI_Comm *comm)
{
    g->ops = &mpi_ops;
    g->impl = comm;
    MG_MPI_CHECK(MPI_Comm_rank(*comm, &g->rank));
    MG_MPI_CHECK(MPI_Comm_size(*comm, &g->size));
}

#define MG_SYNC_PROBES 16
#define MG_SYNC_TAG 28007

/* Rank 0's side: MG_SYNC_PROBES ping-pongs with each other rank in turn,
 * each rank's offset sent back to it. */
static void serve_offsets(MPI_Comm comm, int nranks, double *rtt_max_s)
{
    for (int r = 1; r < nranks; ++r) {
        mg_clock_probe p[MG_SYNC_PROBES];
        double o = 0.0, rtt = 0.0;
        for (int k = 0; k < MG_SYNC_PROBES; ++k) {
            p[k].send_s = MPI_Wtime();
            MG_MPI_CHECK(MPI_Send(&p[k].send_s, 1, MPI_DOUBLE, r, MG_SYNC_TAG, comm));
            MG_MPI_CHECK(
                MPI_Recv(&p[k].remote_s, 1, MPI_DOUBLE, r, MG_SYNC_TAG, comm, MPI_STATUS_IGNORE));
            p[k].recv_s = MPI_Wtime();
        }
        mg_clock_offset(p, MG_SYNC_PROBES, &o, &rtt);
        MG_MPI_CHECK(MPI_Send(&o, 1, MPI_DOUBLE, r, MG_SYNC_TAG, comm));
        *rtt_max_s = fmax(*rtt_max_s, rtt);
    }
}

/* --sync window: this rank's clock minus rank 0's, from MG_SYNC_PROBES
 * ping-pongs with rank 0 (the one with the smallest round trip,
 * util/mg_clocksync.h). Rank 0 serves the ranks in turn: O(nranks) messages
 * and memory. Rank 0 gets the largest chosen round trip in *rtt_max_s. */
double mg_mpi_clock_offset(const mg_ctx *ctx, double *rtt_max_s)
{
    double off = 0.0;
    *rtt_max_s = 0.0;
    if (ctx->rank == 0) {
        serve_offsets(ctx->comm, ctx->nranks, rtt_max_s);
        return 0.0;
    }
    for (int k = 0; k < MG_SYNC_PROBES; ++k) {
        double t;
        MG_MPI_CHECK(MPI_Recv(&t, 1, MPI_DOUBLE, 0, MG_SYNC_TAG, ctx->comm, MPI_STATUS_IGNORE));
        t = MPI_Wtime();
        MG_MPI_CHECK(MPI_Send(&t, 1, MPI_DOUBLE, 0, MG_SYNC_TAG, ctx->comm));
    }
    MG_MPI_CHECK(MPI_Recv(&off, 1, MPI_DOUBLE, 0, MG_SYNC_TAG, ctx->comm, MPI_STATUS_IGNORE));
    return off;
}
