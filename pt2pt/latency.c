/* SPDX-License-Identifier: BSD-3-Clause */
/* Ping-pong latency (seeds 000/002/004, OSU osu_latency, IMB PingPong).
 *
 * Rank 0 sends a message of N bytes, rank 1 receives it and sends N bytes
 * back with blocking calls. One-way latency = round-trip time / 2, in us:
 * the driver scales the time per iteration by time_scale = 0.5.
 */
#include "dtype.h"
#include "mg_bench.h"
#include "persistent.h"
#include "pt2pt.h"

enum { TAG_PING = 1 };

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    if (c->rank == 0) {
        for (long i = 0; i < iters; ++i) {
            mg_xfer_send(x, c->sbuf, size, c->peer, TAG_PING);
            mg_xfer_recv(x, c->rbuf, size, c->peer, TAG_PING);
        }
    } else {
        for (long i = 0; i < iters; ++i) {
            mg_xfer_recv(x, c->rbuf, size, c->peer, TAG_PING);
            mg_xfer_send(x, c->sbuf, size, c->peer, TAG_PING);
        }
    }
}

/* --persistent: one send and one receive request made per size. */
static void begin_persistent(mg_ctx *c, uint64_t size)
{
    if (c->variant != MG_CALLS_PERSISTENT)
        return;
    mg_persist_init(c, 0, 1, c->sbuf, size, TAG_PING);
    mg_persist_init(c, 1, 0, c->rbuf, size, TAG_PING);
}

static void iterate_persistent(mg_ctx *c, uint64_t size, long iters)
{
    MPI_Request *snd = &c->reqs[0], *rcv = &c->reqs[1];
    if (c->variant != MG_CALLS_PERSISTENT) {
        iterate(c, size, iters);
        return;
    }
    for (long i = 0; i < iters; ++i) {
        MPI_Request *first = c->rank == 0 ? snd : rcv, *second = c->rank == 0 ? rcv : snd;
        MG_MPI_CHECK(MPI_Start(first));
        MG_MPI_CHECK(MPI_Wait(first, MPI_STATUS_IGNORE));
        MG_MPI_CHECK(MPI_Start(second));
        MG_MPI_CHECK(MPI_Wait(second, MPI_STATUS_IGNORE));
    }
}

static const mg_opt opts[] = {MG_OPT_PERSISTENT, MG_OPT_DATATYPES, MG_OPT_LAST};
static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out);

static const mg_bench bench = {
    .id.name = "latency",
    .report.description = "ping-pong one-way latency (round trip / 2) between ranks 0 and 1, in us",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(0.5),
    .kernel.iterate = iterate,
    .kernel.rails = 1,
    .kernel.nrequests = 2,
    .valid.recv_slots = mg_recv_from_peer,
    .params.opts = opts,
    .params.params_size = sizeof(mg_pt2pt_params),
    .params.choose = choose,
    .params.check = mg_p2p_check,
};

static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out)
{
    return mg_p2p_choose(c, base, out, iterate_persistent, begin_persistent);
}

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
