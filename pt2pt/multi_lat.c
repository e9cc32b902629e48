/* SPDX-License-Identifier: BSD-3-Clause */
/* Multi-pair latency (OSU osu_multi_lat): N pairs ping-pong at once.
 *
 * Ranks are paired by --pairing (default block: i with i + P/2); in every
 * pair the lower rank sends N bytes and waits for N bytes back, the other
 * answers. One-way latency = round trip / 2 in us; each sample is the
 * slowest rank's. With an odd rank count the last rank stays idle. Extras:
 * the fastest and slowest pair's median latency.
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>

enum { TAG_PING = 1 };

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    if (c->peer < 0)
        return;
    for (long i = 0; i < iters; ++i) {
        if (mg_initiator(c)) {
            mg_xfer_send(x, c->sbuf, size, c->peer, TAG_PING);
            mg_xfer_recv(x, c->rbuf, size, c->peer, TAG_PING);
        } else {
            mg_xfer_recv(x, c->rbuf, size, c->peer, TAG_PING);
            mg_xfer_send(x, c->sbuf, size, c->peer, TAG_PING);
        }
    }
}

static const char *const extra_names[] = {"pair_min_us", "pair_max_us", NULL};

/* Per pair: the initiator's median round trip / 2. */
static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)size;
    (void)st;
    out[0] = INFINITY;
    out[1] = -INFINITY;
    for (int r = 0; r < c->nranks; ++r) {
        if (c->partner_of[r] > r) {
            double us = rank_s[r] * 0.5 * 1e6;
            out[0] = fmin(out[0], us);
            out[1] = fmax(out[1], us);
        }
    }
}

static const mg_opt opts[] = {MG_OPT_PAIRING, MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "multi_lat",
    .report.description =
        "latency of N pairs ping-ponging at once, one-way (round trip / 2) in us, "
        "slowest rank",
    MG_PT2PT_MANY_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(0.5),
    .params.params_size = sizeof(mg_pt2pt_params),
    .params.opts = opts,
    .layout.pairs = mg_pairs_by_option,
    .kernel.iterate = iterate,
    .valid.recv_slots = mg_recv_from_peer,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
