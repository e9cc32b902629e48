/* SPDX-License-Identifier: BSD-3-Clause */
/* Unidirectional bandwidth with a queue (seed 004).
 *
 * Rank 0 keeps between Q/2 and Q sends of N bytes outstanding to rank 1: the
 * queue is filled with Q messages before timing (begin_size); each iteration
 * waits for the older half and posts Q/2 new ones; the queue is drained after
 * timing (end_size). Rank 1 mirrors it with receives. Bandwidth =
 * Q/2 x N / time per iteration, in MB/s, timed on rank 0: the steady-state
 * rate, with no acknowledgement in the loop. Since the sender may run up to
 * Q messages ahead of the data, a sample spans at least 20 iterations (the
 * lag is then at most 10% of a sample and cancels out over samples). Seed
 * defaults Q = 100 (also 8 and 16); Q must be even.
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <errno.h>
#include <stdio.h>

enum { TAG_DATA = 1 };

typedef struct {
    long half; /* which half of the queue is the older one */
} queue_state;

static void post(mg_ctx *c, uint64_t size, long first, long n)
{
    for (long k = first; k < first + n; ++k) {
        if (c->rank == 0)
            mg_xfer_isend(&c->xfer, mg_slot(c, c->sbuf, size, k), size, c->peer, TAG_DATA,
                          &c->reqs[k]);
        else
            mg_xfer_irecv(&c->xfer, mg_slot(c, c->rbuf, size, k), size, c->peer, TAG_DATA,
                          &c->reqs[k]);
    }
}

static void begin_size(mg_ctx *c, uint64_t size)
{
    ((queue_state *)c->state)->half = 0;
    post(c, size, 0, mg_window(c));
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    queue_state *q = c->state;
    const long h = mg_window(c) / 2;
    for (long i = 0; i < iters; ++i) {
        mg_xfer_waitall(&c->xfer, (int)h, &c->reqs[q->half * h]);
        post(c, size, q->half * h, h);
        q->half ^= 1;
    }
}

static void end_size(mg_ctx *c, uint64_t size)
{
    (void)size;
    mg_xfer_waitall(&c->xfer, (int)mg_window(c), c->reqs);
}

static int check(const mg_ctx *c, char *err, size_t errlen)
{
    if (mg_window(c) < 2 || mg_window(c) % 2 != 0) {
        snprintf(err, errlen, "-Q: the queue length must be even and at least 2, got %ld",
                 mg_window(c));
        return -EINVAL;
    }
    return 0;
}

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)size * (double)(mg_window(c) / 2);
}

static const mg_opt opts[] = {{.short_name = 'Q',
                               .long_name = "queue",
                               .type = MG_OPT_LONG,
                               .offset = offsetof(mg_pt2pt_params, window),
                               .arg_name = "Q",
                               .help = "keep between Q/2 and Q messages outstanding (even)",
                               .min = 2,
                               .max = 65536,
                               .def = "100"},
                              MG_OPT_BUFFERS,
                              MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "qbw",
    .report.description =
        "unidirectional bandwidth with a queue of Q/2..Q outstanding messages from "
        "rank 0 to rank 1, in MB/s (10^6 bytes/s)",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_WINDOW_FIELDS,
    .params.opts = opts,
    .params.check = check,
    .kernel.state_size = sizeof(queue_state),
    .timing.min_block_iters = 20,
    .kernel.begin_size = begin_size,
    .kernel.end_size = end_size,
    .timing.bytes_per_iter = bytes_per_iter,
    .kernel.iterate = iterate,
    .valid.recv_slots = mg_recv_if_receiver,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
