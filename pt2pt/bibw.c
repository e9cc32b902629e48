/* SPDX-License-Identifier: BSD-3-Clause */
/* Bidirectional windowed bandwidth (seeds 000/002/004, OSU osu_bibw).
 *
 * Per iteration both ranks post W non-blocking receives and W non-blocking
 * sends of N bytes to each other and wait for all 2W. Aggregate bandwidth =
 * 2 x W x N / time per iteration (rank 0's clock), in MB/s (10^6 bytes/s).
 */
#include "dtype.h"
#include "mg_bench.h"
#include "persistent.h"
#include "pt2pt.h"

enum { TAG_DATA = 1 };

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    const int w = (int)mg_window(c);
    for (long i = 0; i < iters; ++i) {
        for (int k = 0; k < w; ++k)
            mg_xfer_irecv(x, mg_slot(c, c->rbuf, size, k), size, c->peer, TAG_DATA, &c->reqs[k]);
        for (int k = 0; k < w; ++k)
            mg_xfer_isend(x, mg_slot(c, c->sbuf, size, k), size, c->peer, TAG_DATA,
                          &c->reqs[w + k]);
        mg_xfer_waitall(&c->xfer, 2 * w, c->reqs);
    }
}

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return 2.0 * (double)size * (double)mg_window(c);
}

/* --persistent: W receives and W sends made once per size. */
static void begin_persistent(mg_ctx *c, uint64_t size)
{
    const int w = (int)mg_window(c);
    if (c->variant != MG_CALLS_PERSISTENT)
        return;
    for (int k = 0; k < w; ++k) {
        mg_persist_init(c, k, 0, mg_slot(c, c->rbuf, size, k), size, TAG_DATA);
        mg_persist_init(c, w + k, 1, mg_slot(c, c->sbuf, size, k), size, TAG_DATA);
    }
}

static void iterate_persistent(mg_ctx *c, uint64_t size, long iters)
{
    const int w = (int)mg_window(c);
    if (c->variant != MG_CALLS_PERSISTENT) {
        iterate(c, size, iters);
        return;
    }
    for (long i = 0; i < iters; ++i) {
        MG_MPI_CHECK(MPI_Startall(2 * w, c->reqs));
        mg_mpi_waitall(2 * w, c->reqs);
    }
}

static const mg_opt opts[] = {MG_OPT_WINDOW, MG_OPT_BUFFERS, MG_OPT_PERSISTENT, MG_OPT_DATATYPES,
                              MG_OPT_LAST};
static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out);

static const mg_bench bench = {
    .id.name = "bibw",
    .report.description =
        "bidirectional bandwidth, both ranks post W receives and W sends at once, "
        "aggregate MB/s (10^6 bytes/s)",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_WINDOW_FIELDS,
    .params.opts = opts,
    .timing.bytes_per_iter = bytes_per_iter,
    .kernel.iterate = iterate,
    .kernel.rails = 1,
    .valid.recv_slots = mg_recv_window_from_peer,
    .params.choose = choose,
    .params.check = mg_p2p_check,
};

static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out)
{
    return mg_p2p_choose(c, base, out, iterate_persistent, begin_persistent);
}

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
