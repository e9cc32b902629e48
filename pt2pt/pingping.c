/* SPDX-License-Identifier: BSD-3-Clause */
/* PingPing (IMB, seed 001): both ranks send at once, then receive.
 *
 * One iteration on each rank: MPI_Isend of N bytes to the other rank,
 * MPI_Recv of the other rank's N bytes, MPI_Wait for the send. Reported: the
 * time of one iteration in us (IMB's t, not halved), timed on rank 0: a
 * message's latency while a message in the other direction competes.
 */
#include "mg_bench.h"
#include "pt2pt.h"

enum { TAG_PING = 1 };

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    for (long i = 0; i < iters; ++i) {
        mg_xfer_isend(x, c->sbuf, size, c->peer, TAG_PING, &c->reqs[0]);
        mg_xfer_recv(x, c->rbuf, size, c->peer, TAG_PING);
        mg_xfer_waitall(&c->xfer, 1, c->reqs);
    }
}

static const mg_bench bench = {
    .id.name = "pingping",
    .report.description =
        "PingPing: both ranks MPI_Isend N bytes, MPI_Recv the other's, wait; time "
        "per iteration in us",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(1.0),
    .kernel.nrequests = 1,
    .kernel.iterate = iterate,
    .valid.recv_slots = mg_recv_from_peer,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
