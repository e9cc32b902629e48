/* SPDX-License-Identifier: BSD-3-Clause */
/* Exchange (IMB, seed 001): every rank exchanges with both neighbours.
 *
 * One iteration on every rank of a periodic chain: receive N bytes from the
 * left and from the right neighbour and send N bytes to both (two MPI_Irecv,
 * two MPI_Isend, wait for all four). Reported: time per iteration in us, the
 * slowest rank of each sample, and bw_MB/s = 4 x N / median time (IMB).
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>

/* A message's tag says which way it travels, so that with 2 ranks (left ==
 * right) the two messages from the same neighbour cannot be confused. */
enum { TAG_RIGHTWARDS = 1, TAG_LEFTWARDS = 2 };

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    char *from_right = (char *)c->rbuf + size;
    for (long i = 0; i < iters; ++i) {
        mg_xfer_irecv(x, c->rbuf, size, mg_left(c), TAG_RIGHTWARDS, &c->reqs[0]);
        mg_xfer_irecv(x, from_right, size, mg_right(c), TAG_LEFTWARDS, &c->reqs[1]);
        mg_xfer_isend(x, c->sbuf, size, mg_right(c), TAG_RIGHTWARDS, &c->reqs[2]);
        mg_xfer_isend(x, c->sbuf, size, mg_left(c), TAG_LEFTWARDS, &c->reqs[3]);
        mg_xfer_waitall(&c->xfer, 4, c->reqs);
    }
}

/* The receive buffer holds two messages: from the left, then from the right. */
static size_t buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    (void)c;
    return 2 * (size_t)max_size;
}

static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size;
    (void)max;
    from[0] = mg_left(c);
    from[1] = mg_right(c);
    return 2;
}

static const char *const extra_names[] = {"bw_MB/s", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)c;
    (void)rank_s;
    out[0] = st->median > 0 ? 4.0 * (double)size / st->median : NAN;
}

static const mg_bench bench = {
    .id.name = "exchange",
    .report.description = "Exchange: periodic chain, every rank sends to and receives from both "
                          "neighbours at once; time per iteration in us (slowest rank)",
    MG_PT2PT_RING_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(1.0),
    .kernel.nrequests = 4,
    .kernel.buf_bytes = buf_bytes,
    .kernel.iterate = iterate,
    .valid.recv_slots = recv_slots,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
