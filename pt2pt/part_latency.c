/* SPDX-License-Identifier: BSD-3-Clause */
/* Partitioned ping-pong latency (MPI-4; pt2pt/part.h).
 *
 * Rank 0 sends a message of P partitions of N bytes to rank 1 with
 * MPI_Psend_init; rank 1's threads poll their partitions with MPI_Parrived
 * and mark the same partition of the reply ready (MPI_Pready) as soon as it
 * has arrived, so the reply is pipelined partition by partition, as a
 * partitioned halo exchange would be; rank 0's threads then wait for their
 * partitions of the reply. One-way latency = round trip / 2 in us. Extra:
 * message_bytes (P x N). Compare with latency at P x N bytes: the cost of
 * partitioning and of the threads' MPI_Pready/MPI_Parrived calls.
 */
#include "part.h"

enum { REQ_SEND = 0, REQ_RECV = 1, TAG_PART = 3 };

static void begin_size(mg_ctx *c, uint64_t size)
{
    mg_part_state *s = c->state;
    mg_part_begin_size(c, size);
    mg_part_init(c, REQ_SEND, 1, c->sbuf, TAG_PART);
    mg_part_init(c, REQ_RECV, 0, c->rbuf, TAG_PART);
    s->receives = 1;
}

static void start(mg_ctx *c) { MG_MPI_CHECK(MPI_Startall(2, c->reqs)); }

static void step(mg_ctx *c, int member)
{
    if (c->rank == 0) {
        mg_part_ready(c, member, c->reqs[REQ_SEND]);
        mg_part_arrived(c, member, c->reqs[REQ_RECV]);
    } else {
        mg_part_relay(c, member, c->reqs[REQ_RECV], c->reqs[REQ_SEND]);
    }
}

static void complete(mg_ctx *c) { mg_mpi_waitall(2, c->reqs); }

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    (void)size;
    mg_part_run(c, iters, start, step, complete);
}

static const char *const extra_names[] = {"message_bytes", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)st, (void)rank_s;
    out[0] = (double)mg_part_count(c) * (double)size;
}

static const mg_opt opts[] = {MG_OPT_PART, MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "part_latency",
    .report.description = "partitioned ping-pong (MPI_Psend_init/MPI_Pready/MPI_Parrived): P "
                          "partitions of N bytes, T threads per rank; one-way latency, in us",
    MG_PART_FIELDS,
    .report.headline = "Latency (us)",
    .timing.metric = MG_METRIC_LATENCY,
    .timing.time_scale = 0.5,
    .kernel.iterate = iterate,
    .kernel.begin_size = begin_size,
    .kernel.end_size = mg_part_end_size,
    .kernel.nrequests = 2,
    .params.opts = opts,
    .params.unsupported = mg_part_pingpong_unsupported,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
