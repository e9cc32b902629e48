/* SPDX-License-Identifier: BSD-3-Clause */
/* Sendrecv (IMB, seed 001): a periodic chain on any number of ranks.
 *
 * One iteration on every rank: receive N bytes from the left neighbour and
 * send N bytes to the right one at once (MPI_Irecv + MPI_Isend + wait, the
 * semantics of MPI_Sendrecv). Reported: time per iteration in us, the
 * slowest rank of each sample (IMB's t_max), and the extra bw_MB/s =
 * 2 x N / median time (IMB counts the bytes sent and received).
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>

enum { TAG_CHAIN = 1 };

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    for (long i = 0; i < iters; ++i) {
        mg_xfer_irecv(x, c->rbuf, size, mg_left(c), TAG_CHAIN, &c->reqs[0]);
        mg_xfer_isend(x, c->sbuf, size, mg_right(c), TAG_CHAIN, &c->reqs[1]);
        mg_xfer_waitall(&c->xfer, 2, c->reqs);
    }
}

static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size;
    (void)max;
    from[0] = mg_left(c);
    return 1;
}

static const char *const extra_names[] = {"bw_MB/s", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)c;
    (void)rank_s;
    out[0] = st->median > 0 ? 2.0 * (double)size / st->median : NAN;
}

static const mg_bench bench = {
    .id.name = "sendrecv",
    .report.description =
        "Sendrecv: periodic chain, every rank receives from the left and sends to "
        "the right at once; time per iteration in us (slowest rank)",
    MG_PT2PT_RING_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(1.0),
    .kernel.nrequests = 2,
    .kernel.iterate = iterate,
    .valid.recv_slots = recv_slots,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
