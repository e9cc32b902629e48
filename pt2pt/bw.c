/* SPDX-License-Identifier: BSD-3-Clause */
/* Unidirectional windowed bandwidth (seeds 000/002/004, OSU osu_bw).
 *
 * Per iteration rank 0 posts W back-to-back non-blocking sends of N bytes
 * and rank 1 the W matching receives; when all have completed rank 1 returns
 * a 4-byte acknowledgement. Bandwidth = W x N / time per iteration, in MB/s
 * (10^6 bytes/s). -b multiple gives every window slot its own buffer.
 */
#include "dtype.h"
#include "mg_bench.h"
#include "persistent.h"
#include "pt2pt.h"

enum { TAG_DATA = 1, TAG_ACK = 2, ACK_BYTES = 4 };

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)size * (double)mg_window(c);
}

/* --persistent: the W sends (or receives) of a window made once per size;
 * the acknowledgement stays a plain call. */
static void begin_persistent(mg_ctx *c, uint64_t size)
{
    const int send = mg_initiator(c);
    if (c->variant != MG_CALLS_PERSISTENT)
        return;
    for (int k = 0; k < (int)mg_window(c); ++k)
        mg_persist_init(c, k, send, mg_slot(c, send ? c->sbuf : c->rbuf, size, k), size, TAG_DATA);
}

static void iterate_persistent(mg_ctx *c, uint64_t size, long iters)
{
    const int w = (int)mg_window(c), send = mg_initiator(c);
    char ack[ACK_BYTES] = {0};
    if (c->variant != MG_CALLS_PERSISTENT) {
        mg_window_stream(c, size, iters);
        return;
    }
    for (long i = 0; i < iters; ++i) {
        MG_MPI_CHECK(MPI_Startall(w, c->reqs));
        mg_mpi_waitall(w, c->reqs);
        if (send)
            mg_xfer_recv(&c->xfer, ack, ACK_BYTES, c->peer, TAG_ACK);
        else
            mg_xfer_send(&c->xfer, ack, ACK_BYTES, c->peer, TAG_ACK);
    }
}

static const mg_opt opts[] = {MG_OPT_WINDOW, MG_OPT_BUFFERS, MG_OPT_PERSISTENT, MG_OPT_DATATYPES,
                              MG_OPT_LAST};
static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out);

static const mg_bench bench = {
    .id.name = "bw",
    .report.description = "unidirectional bandwidth, window of W non-blocking sends from rank 0 to "
                          "rank 1 then a short ack, in MB/s (10^6 bytes/s)",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_WINDOW_FIELDS,
    .params.opts = opts,
    .timing.bytes_per_iter = bytes_per_iter,
    .kernel.iterate = mg_window_stream,
    .kernel.rails = 1,
    .valid.recv_slots = mg_recv_if_receiver,
    .params.choose = choose,
    .params.check = mg_p2p_check,
};

static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out)
{
    return mg_p2p_choose(c, base, out, iterate_persistent, begin_persistent);
}

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
