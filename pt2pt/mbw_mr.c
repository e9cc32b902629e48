/* SPDX-License-Identifier: BSD-3-Clause */
/* Multi-pair bandwidth and message rate (seed 000/002 two-pair tests, OSU
 * osu_mbw_mr).
 *
 * Ranks are paired by --pairing (block, cyclic or internode); in every pair
 * the lower rank streams windows of W non-blocking sends of N bytes to the
 * other, which acknowledges each window with 4 bytes (as bw). All pairs run
 * at once; each sample is the slowest rank's time. Reported: aggregate
 * bandwidth = pairs x W x N / time in MB/s; extras: the message rate
 * (messages/s over all pairs) and the slowest and fastest pair's bandwidth
 * (from each sender's own median time). An odd rank count leaves the last
 * rank idle.
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)mg_ctx_npairs(c) * (double)mg_window(c) * (double)size;
}

static const char *const extra_names[] = {"msg_rate_per_s", "pair_min_MB/s", "pair_max_MB/s", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    out[0] = size > 0 ? st->median * 1e6 / (double)size : NAN;
    out[1] = INFINITY;
    out[2] = -INFINITY;
    for (int r = 0; r < c->nranks; ++r) {
        if (c->partner_of[r] > r && rank_s[r] > 0) {
            double mbs = (double)mg_window(c) * (double)size / rank_s[r] / 1e6;
            out[1] = fmin(out[1], mbs);
            out[2] = fmax(out[2], mbs);
        }
    }
}

static const mg_opt opts[] = {MG_OPT_WINDOW, MG_OPT_BUFFERS, MG_OPT_PAIRING, MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "mbw_mr",
    .report.description = "multi-pair bandwidth: every pair streams windows of W sends at once; "
                          "aggregate MB/s (10^6 bytes/s), slowest rank",
    MG_PT2PT_MANY_FIELDS,
    MG_PT2PT_WINDOW_FIELDS,
    .params.opts = opts,
    .layout.pairs = mg_pairs_by_option,
    .timing.bytes_per_iter = bytes_per_iter,
    .kernel.iterate = mg_window_stream,
    .kernel.rails = 1,
    .valid.recv_slots = mg_recv_if_receiver,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
