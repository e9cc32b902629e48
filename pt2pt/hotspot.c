/* SPDX-License-Identifier: BSD-3-Clause */
/* Hot-spot (seed 004): a master exchanges with k slaves in turn.
 *
 * Rank 0 is the master, ranks 1..k the slaves; k is swept from 1 to
 * --max-slaves (default P - 1) as the variant "slaves". One iteration:
 *  --direction send: the master sends N bytes to slaves 1..k in turn, then
 *    receives a 4-byte acknowledgement from each;
 *  --direction recv: the master sends a 4-byte synchronisation message to
 *    each slave, then receives N bytes from slaves 1..k in turn.
 * Reported: the time of one iteration in us on the master's clock. Seed
 * defaults: 4-byte messages, up to 7 slaves.
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <errno.h>
#include <stdio.h>

enum { TAG_DATA = 1, TAG_SYNC = 2, SMALL = 4, DIR_SEND = 0, DIR_RECV = 1 };

typedef struct {
    int direction;
    long max_slaves; /* 0: P - 1 */
} hotspot_params;

static const char *const directions[] = {"send", "recv", NULL};

static const hotspot_params *params(const mg_ctx *c) { return c->params; }

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    const long k = c->variant;
    const int send = params(c)->direction == DIR_SEND;
    char small[SMALL] = {0};
    if (c->rank > k)
        return;
    for (long i = 0; i < iters; ++i) {
        if (c->rank == 0) {
            for (int s = 1; s <= k; ++s) {
                if (send)
                    mg_xfer_send(x, c->sbuf, size, s, TAG_DATA);
                else
                    mg_xfer_send(x, small, SMALL, s, TAG_SYNC);
            }
            for (int s = 1; s <= k; ++s) {
                if (send)
                    mg_xfer_recv(x, small, SMALL, s, TAG_SYNC);
                else
                    mg_xfer_recv(x, c->rbuf, size, s, TAG_DATA);
            }
        } else if (send) {
            mg_xfer_recv(x, c->rbuf, size, 0, TAG_DATA);
            mg_xfer_send(x, small, SMALL, 0, TAG_SYNC);
        } else {
            mg_xfer_recv(x, small, SMALL, 0, TAG_SYNC);
            mg_xfer_send(x, c->sbuf, size, 0, TAG_DATA);
        }
    }
}

static int check(const mg_ctx *c, char *err, size_t errlen)
{
    if (params(c)->max_slaves > c->nranks - 1) {
        snprintf(err, errlen, "--max-slaves %ld needs at least %ld ranks, got %d",
                 params(c)->max_slaves, params(c)->max_slaves + 1, c->nranks);
        return -EINVAL;
    }
    return 0;
}

static int variants(const mg_ctx *c, long *values, int max)
{
    long top = params(c)->max_slaves ? params(c)->max_slaves : c->nranks - 1;
    int n = 0;
    for (long k = 1; k <= top && n < max; ++k)
        values[n++] = k;
    return n;
}

/* Send: each active slave gets the master's message. Recv: the master's
 * buffer ends with the last slave's message. */
static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size;
    (void)max;
    if (params(c)->direction == DIR_SEND && c->rank >= 1 && c->rank <= c->variant) {
        from[0] = 0;
        return 1;
    }
    if (params(c)->direction == DIR_RECV && c->rank == 0) {
        from[0] = (int)c->variant;
        return 1;
    }
    return 0;
}

static const mg_opt opts[] = {{.long_name = "direction",
                               .type = MG_OPT_CHOICE,
                               .offset = offsetof(hotspot_params, direction),
                               .arg_name = "send|recv",
                               .help = "the master sends to the slaves, or receives from them",
                               .choices = directions,
                               .def = "send"},
                              {.long_name = "max-slaves",
                               .type = MG_OPT_LONG,
                               .offset = offsetof(hotspot_params, max_slaves),
                               .arg_name = "K",
                               .help = "sweep k = 1..K slaves (default: all other ranks)",
                               .min = 1,
                               .max = 1 << 24},
                              MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "hotspot",
    .report.description = "hot-spot: rank 0 exchanges N bytes with k slaves in turn; time per "
                          "iteration in us, k swept",
    .report.headline = "Latency (us)",
    .layout.min_ranks = 2,
    .layout.max_ranks = 1 << 24,
    .timing.time_mode = MG_TIME_ROOT,
    .layout.links = MG_LINKS_STAR,
    .timing.metric = MG_METRIC_LATENCY,
    .timing.time_scale = 1.0,
    .sizes.min_size = 0,
    .sizes.default_min_size = 4,
    .sizes.default_max_size = 4,
    .params.params_size = sizeof(hotspot_params),
    .params.opts = opts,
    .params.check = check,
    .sweep.variant_name = "slaves",
    .sweep.variants = variants,
    .kernel.iterate = iterate,
    .valid.recv_slots = recv_slots,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
