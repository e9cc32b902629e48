/* SPDX-License-Identifier: BSD-3-Clause */
/* The sweep (mg_run.h): sizes x variants, each (size, variant) measured,
 * validated and handed to the sinks as one row; before it the buffers and
 * the -o file, after it the summary and the -o file made complete. Reaches
 * the other ranks only through ctx->drv.group, but for the optional --sentinel
 * probes and --turns hand-overs, which talk MPI themselves. */
#include "mg_run.h"

#include "mg_exit.h"
#include "mg_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sample buffers of one run: every rank's own samples, rank 0's samples of
 * the sweep's decisions, rank 0's per-rank medians and figures. */
typedef struct {
    mg_policy_cfg pc;
    size_t cap;
    double *mine, *root, *rank_med, *figs;
    mg_sample_log log; /* rank 0, for an observer that wants it (--samples) */
    mg_row_view view;  /* what the observers are told of the row */
    char label[96];    /* the row's variant label */
} sweep_bufs;

static void sweep_alloc(const mg_run *s, sweep_bufs *w)
{
    const mg_bench *b = s->b;
    const int root = s->ctx.rank == 0;

    mg_policy_from_config(&s->plan->cfg, s->prov.timer_overhead_s, s->prov.timer_resolution_s,
                          &w->pc);
    if (b->timing.min_block_iters > 1)
        w->pc.min_block_iters = b->timing.min_block_iters;
    w->cap = (size_t)w->pc.max_samples;
    if (b->timing.time_mode == MG_TIME_CALL) {
        /* a sample is one call: blocks of 1, room for -i N samples and for
         * late (dropped) calls besides them */
        w->pc.min_sample_s = 0.0;
        if (w->pc.iterations > w->pc.max_samples)
            w->pc.max_samples = w->pc.iterations;
        if (s->plan->cfg.iterations_large > w->pc.max_samples)
            w->pc.max_samples = s->plan->cfg.iterations_large;
        w->cap = 2 * (size_t)w->pc.max_samples + MG_CALL_BATCH;
    }
    w->mine = malloc(w->cap * sizeof *w->mine);
    w->root = malloc((size_t)w->pc.max_samples * sizeof *w->root);
    w->rank_med = root ? malloc((size_t)s->ctx.nranks * sizeof *w->rank_med) : NULL;
    w->figs =
        root ? malloc((size_t)s->ctx.nranks * (size_t)(b->report.nfigures + 1) * sizeof *w->figs)
             : NULL;
    memset(&w->log, 0, sizeof w->log);
    if (root && s->obs.wants_log) {
        w->log.start = malloc(w->cap * sizeof *w->log.start);
        w->log.iters = malloc(w->cap * sizeof *w->log.iters);
        w->log.index = malloc(w->cap * sizeof *w->log.index);
    }
    if (!w->mine || !w->root || (root && (!w->rank_med || !w->figs)) ||
        (root && s->obs.wants_log && (!w->log.start || !w->log.iters || !w->log.index)))
        mg_mpi_die(__FILE__, __LINE__, "out of memory for samples");
}

static void sweep_free(sweep_bufs *w)
{
    free(w->figs);
    free(w->log.start);
    free(w->log.iters);
    free(w->log.index);
    free(w->mine);
    free(w->root);
    free(w->rank_med);
}

/* What the observers are told of the row (mg_observe.h). */
static const mg_row_view *row_view(mg_run *s, sweep_bufs *w, uint64_t size, size_t n, size_t nmine)
{
    const mg_bench *b = s->b;
    const int by_value = b->timing.metric == MG_METRIC_VALUE;
    const int root = s->ctx.rank == 0;
    if (b->sweep.variant_name)
        mg_bench_variant_label(b, s->ctx.variant, w->label, sizeof w->label);
    w->view = (mg_row_view){.size = size,
                            .variant = b->sweep.variant_name ? w->label : NULL,
                            .per_iter_s = root ? w->root : NULL,
                            .n = n,
                            .log = root && w->log.start ? &w->log : NULL,
                            .mine = w->mine,
                            .nmine = nmine,
                            .rank_median_s = root && mg_names_ranks(b) ? w->rank_med : NULL,
                            .scale = by_value ? b->timing.time_scale : 1e6,
                            .nranks = s->ctx.nranks,
                            .by_value = by_value};
    return &w->view;
}

/* What rank 0 decides after a (size, variant) and every rank needs. */
typedef struct {
    double ref_s; /* the reference variant's raw median (v = 0) */
    int stop;     /* the benchmark's search ends the variants of this size */
    int failed;   /* no valid statistics: the sweep ends (ctx->drv.fail on rank 0) */
} row_outcome;

/* One (size, variant): measured, validated, reported by rank 0. Rank 0's
 * statistics of the reference variant (v = 0) go to *ref and its raw median
 * to ctx->ref_s. Returns 1 when the benchmark's search stops the remaining
 * variants of this size, -1 when the sweep must end (ctx->drv.fail says why on
 * rank 0), else 0; *ok = 0 on a validation failure. */
static int sweep_variant(mg_run *s, sweep_bufs *w, uint64_t size, int v, mg_stats *ref, int *ok)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;
    size_t n = 0, nmine = 0;
    unsigned long long iters = 0;
    mg_stop_reason why;
    row_outcome out = {0.0, 0, 0};

    const mg_policy_cfg pc = mg_policy_for_size(&s->plan->cfg, &w->pc, size);

    ctx->variant = s->variants[v];
    ctx->variant_index = v;
    why = mg_measure(b, ctx, size, &pc, w->mine, w->cap, w->root, &n, &nmine, &iters,
                     w->log.start ? &w->log : NULL);
    if (b->report.extras || mg_names_ranks(b))
        mg_gather_rank_medians(ctx, w->mine, nmine, w->rank_med);
    if (b->report.figures)
        mg_gather_figures(b, ctx, w->figs);
    mg_kv_clear(&s->row_observed);
    mg_observe_row(&s->obs, ctx, row_view(s, w, size, n, nmine), &s->row_observed);
    *ok = s->plan->cfg.validate ? mg_validate(b, ctx, size, s->io.err) : 1;
    if (mg_group_agree_message(&ctx->drv.group, ctx->drv.fail, sizeof ctx->drv.fail) != 0)
        return -1;
    if (ctx->rank == 0) {
        mg_stats st, raw;
        if (v == 0 && mg_stats_compute(w->root, n, &raw) == 0)
            out.ref_s = raw.median;
        ctx->rank_figures = w->figs;
        out.failed = mg_output_row(s, size, w->root, n, iters, why, *ok, w->rank_med, &st) != 0;
        if (out.failed)
            mg_ctx_fail(ctx, "no valid samples (every sample was zero or not finite)");
        if (v == 0 && !out.failed) {
            *ref = st;
            ctx->ref = ref;
        }
        out.stop = !out.failed && b->sweep.variant_stop && v + 1 < s->nvariants &&
                   b->sweep.variant_stop(ctx, &st);
    }
    mg_group_bcast(&ctx->drv.group, &out, sizeof out);
    if (v == 0)
        ctx->ref_s = out.ref_s;
    return out.failed ? -1 : out.stop;
}

/* The sweep: sizes x variants, between the observers' sweep phases (the
 * sentinels); the run record and header first, the summary last. */
static int sweep(mg_run *s)
{
    mg_ctx *ctx = &s->ctx;
    sweep_bufs w;
    int rc = MG_EXIT_OK;

    sweep_alloc(s, &w);
    mg_output_begin(s);
    mg_turns_begin(ctx->drv.turns);
    mg_observe_sweep(&s->obs, ctx, 0, s->sink, s->nsinks);
    for (size_t k = 0; k < s->plan->sweep.n; ++k) {
        uint64_t size = s->plan->sweep.sizes_bytes[k];
        mg_stats ref;
        ctx->ref_s = NAN;
        ctx->ref = NULL;
        for (int v = 0; v < s->nvariants && !s->aborted; ++v) {
            int ok, next = sweep_variant(s, &w, size, v, &ref, &ok);
            if (!ok)
                rc = MG_EXIT_FAIL;
            if (next < 0) {
                char msg[sizeof ctx->drv.fail + 64];
                snprintf(msg, sizeof msg, "size %llu: %s", (unsigned long long)size, ctx->drv.fail);
                mg_run_error(s, "measurement", MG_EXIT_FAIL, msg, "", -1, -1);
                s->aborted = 1;
                rc = MG_EXIT_FAIL;
            }
            if (next != 0)
                break;
        }
        if (s->aborted)
            break;
    }
    if (s->aborted) {
        sweep_free(&w);
        return rc;
    }
    mg_observe_sweep(&s->obs, ctx, 1, s->sink, s->nsinks);
    mg_output_summary(s);
    sweep_free(&w);
    if (ctx->rank == 0 && rc != MG_EXIT_OK)
        fprintf(s->io.err, "mpigauge_%s: validation failed (see the messages above)\n",
                s->b->id.name);
    return rc;
}

int mg_run_observe(mg_run *s, const mg_observer *const *list)
{
    char err[MG_ERRLEN];
    if (mg_observe_open(&s->obs, list, &s->ctx, err, sizeof err) != MG_EXIT_OK)
        return mg_run_usage(s, err);
    s->ctx.drv.obs = &s->obs;
    return MG_EXIT_OK;
}

int mg_run_sweep(mg_run *s)
{
    int rc;
    if ((rc = mg_session_resources(s)) != MG_EXIT_OK) {
        mg_observe_close(&s->obs, &s->ctx);
        if (s->ctx.rank == 0)
            mg_out_discard(&s->out); /* e.g. the buffers could not be had */
        return rc;
    }
    rc = sweep(s);
    /* what the observers keep made complete (the --samples file), unless
     * the sweep failed */
    if (!s->aborted && mg_observe_finish(&s->obs, &s->ctx) != 0)
        rc = MG_EXIT_FAIL;
    mg_observe_close(&s->obs, &s->ctx);
    if (s->b->kernel.teardown)
        s->b->kernel.teardown(&s->ctx);
    if (s->ctx.rank == 0 && s->aborted)
        mg_out_discard(&s->out);
    else if (s->ctx.rank == 0 && s->plan->cfg.output &&
             mg_out_commit(&s->out, s->plan->cfg.output) != 0)
        rc = MG_EXIT_FAIL;
    return rc;
}
