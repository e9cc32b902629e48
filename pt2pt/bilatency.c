/* SPDX-License-Identifier: BSD-3-Clause */
/* Bidirectional latency (seed 004): both sides send at the same time.
 *
 * One iteration on each rank: pre-post MPI_Irecv for the other rank's N
 * bytes, MPI_Isend N bytes, wait for both. Reported: the time of one such
 * simultaneous exchange in us, timed on rank 0, comparable with the one-way
 * latency of mpigauge_latency (seed 004: bidirectional latency is higher).
 * Unlike pingping the receive is posted before the send.
 */
#include "mg_bench.h"
#include "pt2pt.h"

enum { TAG_DATA = 1 };

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    for (long i = 0; i < iters; ++i) {
        mg_xfer_irecv(x, c->rbuf, size, c->peer, TAG_DATA, &c->reqs[0]);
        mg_xfer_isend(x, c->sbuf, size, c->peer, TAG_DATA, &c->reqs[1]);
        mg_xfer_waitall(&c->xfer, 2, c->reqs);
    }
}

static const mg_bench bench = {
    .id.name = "bilatency",
    .report.description =
        "bidirectional latency: both ranks post a receive and send N bytes at once; "
        "time per exchange in us",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(1.0),
    .kernel.nrequests = 2,
    .kernel.iterate = iterate,
    .valid.recv_slots = mg_recv_from_peer,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
