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
    unsigned long long iters, blocks;
    int broken;                     /* a reading failed in this row: no figures */
    double read_user_s, read_sys_s; /* the CPU one reading itself costs (open) */
    double fig[MG_HOST_NFIG];       /* this rank's, of the last row */
    double *all;                    /* rank 0: every rank's */
} host_state;

/* One reading, its getrusage nearest the block: at its start (end 0) the
 * perf counters are read first, at its end (end 1) last, so the CPU time
 * of their reads (four system calls, a few us: 40% of the CPU a latency row
 * at 8 B reported) lies outside what is counted. */
static int read_usage(const host_state *h, const mg_ctx *ctx, mg_host_usage *u, int end)
{
    mg_host_usage perf;
    if (ctx->drv.usage)
        return ctx->drv.usage(ctx, u);
    if (!end)
        mg_perf_read(&h->perf, &perf);
    if (mg_host_usage_now(u) != 0)
        return -1;
    if (end)
        mg_perf_read(&h->perf, u);
    else
        memcpy(u->perf, perf.perf, sizeof u->perf);
    return 0;
}

static void forget_row(host_state *h)
{
    for (int k = 0; k < MG_HOST_NFIG; ++k)
        h->fig[k] = NAN;
}

/* The CPU one reading costs the block it brackets: between the getrusage
 * of a block's start and the one of its end lie, besides the block, about
 * one getrusage call (the end of one, the start of the other). Measured
 * here as the mean of readings back to back, and taken off each block's
 * CPU: a block of a few iterations of a small message would otherwise
 * show more CPU than wall time (20% at 8 B here). */
static void reading_cost(host_state *h, const mg_host_usage *first)
{
    enum { N = 256 };
    mg_host_usage u = *first;
    /* getrusage alone, back to back: the perf reads lie outside the pair */
    for (int k = 0; k < N; ++k)
        if (mg_host_usage_now(&u) != 0)
            return;
    h->read_user_s = fmax(0.0, (u.user_s - first->user_s) / N);
    h->read_sys_s = fmax(0.0, (u.sys_s - first->sys_s) / N);
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
    if (read_usage(h, ctx, &probe, 0) != 0)
        return 0; /* the others stay out with this one */
    if (ctx->drv.usage == NULL)
        reading_cost(h, &probe);
    return 1;
}

static void host_timed_begin(void *st, mg_ctx *ctx)
{
    host_state *h = st;
    (void)ctx;
    memset(&h->sum, 0, sizeof h->sum);
    h->wall_s = 0.0;
    h->iters = 0;
    h->blocks = 0;
    h->broken = 0;
}

static void host_block(void *st, mg_ctx *ctx, int end, unsigned long long iters)
{
    host_state *h = st;
    mg_host_usage after;
    if (h->broken)
        return;
    if (!end) {
        h->broken = read_usage(h, ctx, &h->before, 0) != 0;
        h->t0_s = mg_now(ctx);
        return;
    }
    const double t1_s = mg_now(ctx);
    if (read_usage(h, ctx, &after, 1) != 0) {
        h->broken = 1;
        return;
    }
    mg_host_add(&h->sum, &h->before, &after);
    h->wall_s += t1_s - h->t0_s;
    h->iters += iters;
    h->blocks++;
}

static void host_timed_end(void *st, mg_ctx *ctx, unsigned long long iters)
{
    host_state *h = st;
    const mg_host_usage zero = {0};
    (void)ctx;
    (void)iters; /* the blocks' own: the same count */
    if (h->broken) {
        forget_row(h);
        return;
    }
    /* the readings' own CPU off, never below none */
    h->sum.user_s = fmax(0.0, h->sum.user_s - (double)h->blocks * h->read_user_s);
    h->sum.sys_s = fmax(0.0, h->sum.sys_s - (double)h->blocks * h->read_sys_s);
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
