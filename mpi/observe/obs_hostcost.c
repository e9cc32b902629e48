/* SPDX-License-Identifier: BSD-3-Clause */
/* The observer "host": what the host paid per timed iteration of a row,
 * on every rank (util/mg_hostcost.h: getrusage around the timed samples),
 * as the mean over ranks and the rank that paid the most CPU. The result
 * record's "host" object (doc/output.md):
 *
 *   "host": {"user_us_per_iter":..,"sys_us_per_iter":..,"vol_cs_per_iter":..,
 *            "invol_cs_per_iter":..,"minor_faults_per_iter":..,
 *            "major_faults_per_iter":..,"cpu_util":..,"migrations_per_iter":..,
 *            "instructions_per_iter":..,"cycles_per_iter":..,
 *            "cache_misses_per_iter":..,"busiest_rank":R}
 * (the last four from perf counters where the kernel allows; null else)
 *
 * The readings are taken around each timed block, outside its clock
 * readings (the block phase), and summed over the row's blocks: the figures
 * count the timed work alone, not the warm-up, the checkpoints or the
 * barriers between blocks, and cpu_util is over the blocks' own wall time.
 * The timed figures do not pay for the readings. */
#include "mg_observe.h"

#include "mg_group.h"
#include "mg_hostcost.h"
#include "mg_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    mg_perf perf;         /* this rank's perf counters (those the kernel allows) */
    mg_host_usage before; /* at the start of the block under way */
    mg_host_usage sum;    /* over the row's blocks so far */
    double t0_s, wall_s;  /* the block's start; the blocks' wall time */
    unsigned long long iters;
    int broken;               /* a reading failed in this row: no figures */
    double fig[MG_HOST_NFIG]; /* this rank's, of the last row */
    double *all;              /* rank 0: every rank's */
} host_state;

static int read_usage(const host_state *h, const mg_ctx *ctx, mg_host_usage *u)
{
    if (ctx->drv.usage)
        return ctx->drv.usage(ctx, u);
    if (mg_host_usage_now(u) != 0)
        return -1;
    mg_perf_read(&h->perf, u);
    return 0;
}

static void forget_row(host_state *h)
{
    for (int k = 0; k < MG_HOST_NFIG; ++k)
        h->fig[k] = NAN;
}

static int host_open(void *st, mg_ctx *ctx, char *err, size_t errlen)
{
    host_state *h = st;
    mg_host_usage probe;
    (void)err;
    (void)errlen;
    forget_row(h);
    for (int k = 0; k < MG_PERF_N; ++k)
        h->perf.fd[k] = -1;
    if (ctx->rank == 0 &&
        (h->all = malloc((size_t)ctx->nranks * MG_HOST_NFIG * sizeof *h->all)) == NULL)
        return 0;
    if (ctx->drv.usage == NULL)
        (void)mg_perf_open(&h->perf);
    return read_usage(h, ctx, &probe) == 0; /* the others stay out with this one */
}

static void host_timed_begin(void *st, mg_ctx *ctx)
{
    host_state *h = st;
    (void)ctx;
    memset(&h->sum, 0, sizeof h->sum);
    h->wall_s = 0.0;
    h->iters = 0;
    h->broken = 0;
}

static void host_block(void *st, mg_ctx *ctx, int end, unsigned long long iters)
{
    host_state *h = st;
    mg_host_usage after;
    if (h->broken)
        return;
    if (!end) {
        h->broken = read_usage(h, ctx, &h->before) != 0;
        h->t0_s = mg_now(ctx);
        return;
    }
    const double t1_s = mg_now(ctx);
    if (read_usage(h, ctx, &after) != 0) {
        h->broken = 1;
        return;
    }
    mg_host_add(&h->sum, &h->before, &after);
    h->wall_s += t1_s - h->t0_s;
    h->iters += iters;
}

static void host_timed_end(void *st, mg_ctx *ctx, unsigned long long iters)
{
    host_state *h = st;
    const mg_host_usage zero = {0};
    (void)ctx;
    (void)iters; /* the blocks' own: the same count */
    if (h->broken)
        forget_row(h);
    else
        mg_host_figures(&zero, &h->sum, h->iters, h->wall_s, h->fig);
}

static void host_row(void *st, mg_ctx *ctx, const mg_row_view *v, mg_kvlist *out, double *cell)
{
    host_state *h = st;
    (void)v;
    (void)cell;
    mg_group_gather(&ctx->drv.group, h->fig, MG_HOST_NFIG, h->all);
    if (ctx->rank == 0) {
        double mean[MG_HOST_NFIG];
        int busiest;
        mg_host_summary(h->all, ctx->nranks, mean, &busiest);
        for (int k = 0; k < MG_HOST_NFIG; ++k)
            mg_kv_number(out, mg_host_names[k], mean[k]);
        if (busiest >= 0)
            mg_kv_number(out, "busiest_rank", busiest);
        else
            mg_kv_null(out, "busiest_rank");
    }
    forget_row(h);
}

static void host_close(void *st, mg_ctx *ctx)
{
    host_state *h = st;
    (void)ctx;
    mg_perf_close(&h->perf);
    free(h->all);
}

const mg_observer mg_obs_hostcost = {.name = "host",
                                     .state_size = sizeof(host_state),
                                     .open = host_open,
                                     .timed_begin = host_timed_begin,
                                     .timed_end = host_timed_end,
                                     .block = host_block,
                                     .row = host_row,
                                     .close = host_close};
