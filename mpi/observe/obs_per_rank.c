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

#include <stddef.h>

extern const mg_observer mg_obs_per_rank;

/* --per-rank (obs_samples.c reads it too: every rank's samples) */
typedef struct {
    int on;
} per_rank_params;

static const mg_opt per_rank_opts[] = {
    {.long_name = "per-rank",
     .type = MG_OPT_FLAG,
     .offset = offsetof(per_rank_params, on),
     .help = "JSON: every rank's median per iteration (us) in each result (rank_median_us), "
             "and with --samples every rank's own samples; benchmarks of more than a pair name "
             "their slowest and fastest rank without it",
     .key = ""},
    {.type = MG_OPT_END}};

int mg_obs_per_rank_on(const mg_ctx *ctx)
{
    const per_rank_params *p = mg_observe_params(ctx, &mg_obs_per_rank);
    return p != NULL && p->on;
}

static int per_rank_open(void *st, mg_ctx *ctx, char *err, size_t errlen)
{
    (void)st, (void)err, (void)errlen;
    return mg_obs_per_rank_on(ctx);
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

const mg_observer mg_obs_per_rank = {.name = "per_rank",
                                     .flat = 1,
                                     .opts = per_rank_opts,
                                     .params_size = sizeof(per_rank_params),
                                     .open = per_rank_open,
                                     .row = per_rank_row};
