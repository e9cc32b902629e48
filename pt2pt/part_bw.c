/* SPDX-License-Identifier: BSD-3-Clause */
/* Partitioned bandwidth and partition rate (MPI-4; pt2pt/part.h; the
 * measurement of pmodels/mpich#5462).
 *
 * Per iteration rank 0 starts W partitioned sends (MPI_Startall) of P
 * partitions of N bytes; its T threads mark every partition of every send
 * ready (thread t: partitions t, t+T, ... of each). Rank 1 starts W
 * partitioned receives and its threads poll their partitions with
 * MPI_Parrived; after the W messages have completed, rank 1 returns a
 * 4-byte acknowledgement. Reported: bandwidth = W x P x N / time in MB/s;
 * extras: the message rate (W / time), partitions per second (W x P /
 * time, the rate of MPI_Pready calls the receiver saw complete) and
 * message_bytes (P x N).
 */
#include "part.h"

enum { TAG_PART = 4, TAG_ACK = 5, ACK_BYTES = 4 };

static void begin_size(mg_ctx *c, uint64_t size)
{
    mg_part_state *s = c->state;
    mg_part_begin_size(c, size);
    for (int k = 0; k < (int)mg_window(c); ++k)
        mg_part_init(c, k, c->rank == 0, c->rank == 0 ? c->sbuf : c->rbuf, TAG_PART);
    s->receives = c->rank == 1;
}

static void start(mg_ctx *c) { MG_MPI_CHECK(MPI_Startall((int)mg_window(c), c->reqs)); }

static void step(mg_ctx *c, int member)
{
    for (int k = 0; k < (int)mg_window(c); ++k) {
        if (c->rank == 0)
            mg_part_ready(c, member, c->reqs[k]);
        else
            mg_part_arrived(c, member, c->reqs[k]);
    }
}

static void complete(mg_ctx *c)
{
    char ack[ACK_BYTES] = {0};
    mg_mpi_waitall((int)mg_window(c), c->reqs);
    if (c->rank == 0)
        MG_MPI_CHECK(
            MPI_Recv(ack, ACK_BYTES, MPI_BYTE, c->peer, TAG_ACK, c->comm, MPI_STATUS_IGNORE));
    else
        MG_MPI_CHECK(MPI_Send(ack, ACK_BYTES, MPI_BYTE, c->peer, TAG_ACK, c->comm));
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    (void)size;
    mg_part_run(c, iters, start, step, complete);
}

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)mg_window(c) * (double)mg_part_count(c) * (double)size;
}

static size_t requests(const mg_ctx *c) { return (size_t)mg_window(c); }

static const char *const extra_names[] = {"msg_rate_per_s", "partitions_per_s", "message_bytes",
                                          NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)rank_s;
    out[1] = st->median * 1e6 / (double)size;
    out[0] = out[1] / (double)mg_part_count(c);
    out[2] = (double)mg_part_count(c) * (double)size;
}

static const mg_opt opts[] = {MG_OPT_PART, MG_OPT_WINDOW, MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "part_bw",
    .report.description =
        "partitioned bandwidth: W partitioned sends of P partitions of N bytes per "
        "iteration, T threads per rank marking and polling partitions; MB/s",
    MG_PART_FIELDS,
    .report.headline = "Bandwidth (MB/s)",
    .timing.metric = MG_METRIC_BANDWIDTH,
    .timing.time_scale = 1.0,
    .timing.bytes_per_iter = bytes_per_iter,
    .kernel.iterate = iterate,
    .kernel.begin_size = begin_size,
    .kernel.end_size = mg_part_end_size,
    .kernel.requests = requests,
    .params.opts = opts,
    .params.unsupported = mg_part_unsupported,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
