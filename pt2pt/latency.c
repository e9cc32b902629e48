/* SPDX-License-Identifier: BSD-3-Clause */
/* Ping-pong latency (seeds 000/002/004, OSU osu_latency, IMB PingPong).
 *
 * Rank 0 sends a message of N bytes, rank 1 receives it and sends N bytes
 * back with blocking calls. One-way latency = round-trip time / 2, in us:
 * the driver scales the time per iteration by time_scale = 0.5.
 */
#include "mg_driver.h"
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

static const mg_bench bench = {
    .id.name = "latency",
    .id.description = "ping-pong one-way latency (round trip / 2) between ranks 0 and 1, in us",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(0.5),
    .kernel.iterate = iterate,
    .kernel.rails = 1,
    .valid.recv_slots = mg_recv_from_peer,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
