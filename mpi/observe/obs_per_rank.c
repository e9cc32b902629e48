/* SPDX-License-Identifier: BSD-3-Clause */
/* The observer "per_rank" (--per-rank): every rank's median of its own
 * timed samples of a row, for the programs that name their ranks (more
 * than a pair), as a member of the result record itself (doc/output.md):
 *
 *   "rank_median_us": [r0, r1, ...]   (a time, in us)
 *   "rank_median": [...]              (another figure, in the row's unit)
 *
 * The driver gathers these medians to name the slowest and fastest rank;
 * this observer only writes them. */
#include "mg_observe.h"

#include "mg_run.h"

static int per_rank_open(void *st, mg_ctx *ctx, char *err, size_t errlen)
{
    (void)st, (void)err, (void)errlen;
    return ctx->cfg->per_rank != 0;
}

static void per_rank_row(void *st, mg_ctx *ctx, const mg_row_view *v, mg_kvlist *out, double *cell)
{
    (void)st, (void)ctx, (void)cell;
    if (v->rank_median_s == NULL)
        return;
    mg_kv_array(out, v->by_value ? "rank_median" : "rank_median_us");
    for (int i = 0; i < v->nranks; ++i)
        mg_kv_number(out, NULL, v->rank_median_s[i] * v->scale);
    mg_kv_end(out);
}

const mg_observer mg_obs_per_rank = {
    .name = "per_rank", .flat = 1, .open = per_rank_open, .row = per_rank_row};
