/* SPDX-License-Identifier: BSD-3-Clause */
/* The generic driver: see mg_driver.h; its stages in mg_run.h. */
#include "mg_run.h"

#include "mg_exit.h"
#include "mg_sentinel.h"
#include "mg_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_variants_from_list(const mg_list *given, const long *defaults, int ndefaults, long *values,
                          int max)
{
    const long *v = given->n ? given->v : defaults;
    int n = given->n ? given->n : ndefaults;
    if (n > max)
        n = max;
    memcpy(values, v, (size_t)n * sizeof *values);
    return n;
}

int mg_variants_ref_first(long ref, const mg_list *given, const long *defaults, int ndefaults,
                          long *values, int max)
{
    long listed[MG_LIST_MAX];
    int n = mg_variants_from_list(given, defaults, ndefaults, listed, MG_LIST_MAX), k = 1;
    values[0] = ref;
    for (int i = 0; i < n && k < max; ++i)
        if (listed[i] != ref)
            values[k++] = listed[i];
    return k;
}

void mg_bench_variant_label(const mg_bench *b, long v, char *buf, size_t len)
{
    if (b->sweep.variant_labels)
        snprintf(buf, len, "%s=%s", b->sweep.variant_name, b->sweep.variant_labels[v]);
    else
        snprintf(buf, len, "%s=%ld", b->sweep.variant_name, v);
}

/* Sample buffers of one run: every rank's own samples, rank 0's samples of
 * the sweep's decisions, rank 0's per-rank medians and figures. */
typedef struct {
    mg_policy_cfg pc;
    size_t cap;
    double *mine, *root, *rank_med, *figs;
} sweep_bufs;

static void sweep_alloc(const mg_run *s, sweep_bufs *w)
{
    const mg_bench *b = s->b;
    const int root = s->ctx.rank == 0;

    mg_policy_from_config(&s->cfg, s->prov.timer_overhead_s, s->prov.timer_resolution_s, &w->pc);
    if (b->timing.min_block_iters > 1)
        w->pc.min_block_iters = b->timing.min_block_iters;
    w->cap = w->pc.max_samples;
    if (b->timing.time_mode == MG_TIME_CALL) {
        /* a sample is one call: blocks of 1, room for -i N samples and for
         * late (dropped) calls besides them */
        w->pc.min_sample_s = 0.0;
        if (w->pc.iterations > 0 && (size_t)w->pc.iterations > w->pc.max_samples)
            w->pc.max_samples = (size_t)w->pc.iterations;
        w->cap = 2 * w->pc.max_samples + MG_CALL_BATCH;
    }
    w->mine = malloc(w->cap * sizeof *w->mine);
    w->root = malloc(w->pc.max_samples * sizeof *w->root);
    w->rank_med = root ? malloc((size_t)s->ctx.nranks * sizeof *w->rank_med) : NULL;
    w->figs =
        root ? malloc((size_t)s->ctx.nranks * (size_t)(b->report.nfigures + 1) * sizeof *w->figs)
             : NULL;
    if (!w->mine || !w->root || (root && (!w->rank_med || !w->figs)))
        mg_mpi_die(__FILE__, __LINE__, "out of memory for samples");
}

static void sweep_free(sweep_bufs *w)
{
    free(w->figs);
    free(w->mine);
    free(w->root);
    free(w->rank_med);
}

/* What rank 0 decides after a (size, variant) and every rank needs. */
typedef struct {
    double ref_s; /* the reference variant's raw median (v = 0) */
    int stop;     /* the benchmark's search ends the variants of this size */
    int failed;   /* no valid statistics: the sweep ends (ctx->fail on rank 0) */
} row_outcome;

/* One (size, variant): measured, validated, reported by rank 0. Rank 0's
 * statistics of the reference variant (v = 0) go to *ref and its raw median
 * to ctx->ref_s. Returns 1 when the benchmark's search stops the remaining
 * variants of this size, -1 when the sweep must end (ctx->fail says why on
 * rank 0), else 0; *ok = 0 on a validation failure. */
static int sweep_variant(mg_run *s, sweep_bufs *w, uint64_t size, int v, mg_stats *ref, int *ok)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;
    size_t n = 0, nmine = 0;
    unsigned long long iters = 0;
    mg_stop_reason why;
    row_outcome out = {0.0, 0, 0};

    ctx->variant = s->variants[v];
    ctx->variant_index = v;
    why = mg_measure(b, ctx, size, &w->pc, w->mine, w->cap, w->root, &n, &nmine, &iters);
    if (b->report.extras)
        mg_gather_rank_medians(ctx, w->mine, nmine, w->rank_med);
    if (b->report.figures)
        mg_gather_figures(b, ctx, w->figs);
    *ok = s->cfg.validate ? mg_validate(b, ctx, size) : 1;
    if (mg_mpi_agree_message(ctx->comm, ctx->fail, (int)sizeof ctx->fail) != 0)
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
    MG_MPI_CHECK(MPI_Bcast(&out, (int)sizeof out, MPI_BYTE, 0, ctx->comm));
    if (v == 0)
        ctx->ref_s = out.ref_s;
    return out.failed ? -1 : out.stop;
}

/* The sweep: sizes x variants, between the sentinels; the run record and
 * header first, the summary last. */
static int sweep(mg_run *s)
{
    mg_ctx *ctx = &s->ctx;
    sweep_bufs w;
    int rc = MG_EXIT_OK;

    sweep_alloc(s, &w);
    mg_output_begin(s);
    mg_turns_begin(ctx->turns);
    if (s->cfg.sentinel)
        mg_sentinel_take(ctx, "before", s->sink, s->nsinks);
    for (size_t k = 0; k < s->sweep.n; ++k) {
        uint64_t size = s->sweep.sizes_bytes[k];
        mg_stats ref;
        ctx->ref_s = NAN;
        ctx->ref = NULL;
        for (int v = 0; v < s->nvariants && !s->aborted; ++v) {
            int ok, next = sweep_variant(s, &w, size, v, &ref, &ok);
            if (!ok)
                rc = MG_EXIT_FAIL;
            if (next < 0) {
                char msg[sizeof ctx->fail + 64];
                snprintf(msg, sizeof msg, "size %llu: %s", (unsigned long long)size, ctx->fail);
                mg_output_error(ctx, s->b, "measurement", MG_EXIT_FAIL, msg, "", -1, -1);
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
    if (s->cfg.sentinel)
        mg_sentinel_take(ctx, "after", s->sink, s->nsinks);
    mg_output_summary(s);
    sweep_free(&w);
    if (ctx->rank == 0 && rc != MG_EXIT_OK)
        fprintf(stderr, "mpigauge_%s: validation failed (see the messages above)\n", s->b->id.name);
    return rc;
}

/* Everything after MPI_Init and before MPI_Finalize: plan, session, sweep,
 * and the -o file made complete. */
static int run(mg_run *s)
{
    int rc, done, served;

    if ((rc = mg_plan_report(s, &done)) != MG_EXIT_OK || done)
        return rc;
    if (mg_session_rails(s, &served, &rc) != 0)
        return rc;
    if ((rc = mg_plan_check(s)) != MG_EXIT_OK || (rc = mg_session_layout(s)) != MG_EXIT_OK)
        return rc;
    mg_prov_collect(&s->prov, &s->ctx);
    if ((rc = mg_session_resources(s)) != MG_EXIT_OK)
        return rc;
    rc = sweep(s);
    if (s->ctx.rank == 0 && s->aborted)
        mg_out_discard(&s->out);
    else if (s->ctx.rank == 0 && s->cfg.output && mg_out_commit(&s->out, s->cfg.output) != 0)
        rc = MG_EXIT_FAIL;
    return rc;
}

/* Before MPI_Init: the benchmark's parameters at their defaults, every
 * option parsed (the plan), the rails steered from it. */
static void plan(mg_run *s, const mg_bench *b, int argc, char **argv)
{
    memset(s, 0, sizeof *s);
    s->b = b;
    s->argc = argc;
    s->argv = argv;
    s->ctx.peer = -1;
    s->ctx.cfg = &s->cfg;
    mg_config_default(&s->cfg);
    mg_rail_opts_default(&s->rails);
    s->ctx.params = calloc(1, b->params.params_size ? b->params.params_size : 1);
    if (s->ctx.params == NULL) {
        fprintf(stderr, "mpigauge_%s: out of memory\n", b->id.name);
        exit(MG_EXIT_INTERNAL);
    }
    if (b->params.params_default)
        memcpy(s->ctx.params, b->params.params_default, b->params.params_size);
    mg_plan_parse(s);
    if (s->b->kernel.rails && !s->plan_failed && !s->cfg.help && !s->cfg.version &&
        (s->mr = mg_multirail_pre_init(&s->rails)) == NULL) {
        fprintf(stderr, "mpigauge_%s: out of memory\n", b->id.name);
        exit(MG_EXIT_INTERNAL);
    }
}

static void release(mg_run *s)
{
    mg_multirail_free(s->mr, s->ctx.sbuf);
    mg_multirail_free(s->mr, s->ctx.rbuf);
    mg_multirail_destroy(s->mr);
    free(s->ctx.reqs);
    free(s->ctx.state);
    free(s->node_of);
    free(s->partner_of);
    mg_sweep_free(&s->sweep);
    mg_prov_free(&s->prov);
    free(s->ctx.params);
}

/* --turns: the group's semaphores, opened even when the plan failed so that
 * the group learns this launch is done. */
static int open_turns(mg_run *s)
{
    char err[MG_ERRLEN] = "";
    s->ctx.turns = mg_turns_open(&s->turns, s->ctx.comm, s->cfg.turn_slice_s, s->cfg.turn_timeout_s,
                                 err, sizeof err);
    if (s->ctx.turns != NULL)
        return MG_EXIT_OK;
    mg_output_error(&s->ctx, s->b, "turns", MG_EXIT_INTERNAL, err, "", -1, -1);
    return MG_EXIT_INTERNAL;
}

int mg_main_refuse(const char *name, const char *code, int exit_code, const char *msg, int argc,
                   char **argv)
{
    mg_bench b;
    mg_config cfg;
    mg_ctx ctx;

    memset(&b, 0, sizeof b);
    memset(&ctx, 0, sizeof ctx);
    b.id.name = name;
    mg_config_default(&cfg);
    if (mg_json_requested(argc, argv))
        cfg.format = MG_FORMAT_JSON;
    ctx.cfg = &cfg;
    MG_MPI_CHECK(MPI_Init(&argc, &argv));
    MG_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &ctx.rank));
    if (exit_code == MG_EXIT_SKIP && ctx.rank == 0)
        fprintf(stderr, "mpigauge_%s: %s\n", name, msg);
    else if (exit_code != MG_EXIT_SKIP)
        mg_output_error(&ctx, &b, code, exit_code, msg, "", -1, -1);
    MG_MPI_CHECK(MPI_Finalize());
    return exit_code;
}

int mg_main(const mg_bench *b, int argc, char **argv)
{
    mg_run s;
    int rc = MG_EXIT_OK;

    plan(&s, b, argc, argv);
    MG_MPI_CHECK(MPI_Init(&argc, &argv));
    MG_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    s.ctx.comm = MPI_COMM_WORLD;
    MG_MPI_CHECK(MPI_Comm_rank(s.ctx.comm, &s.ctx.rank));
    MG_MPI_CHECK(MPI_Comm_size(s.ctx.comm, &s.ctx.nranks));
    s.node_of = mg_topology(&s.ctx);
    s.ctx.rails = s.mr;
    mg_xfer_init(&s.ctx.xfer, s.ctx.comm);

    if (s.has_turns)
        rc = open_turns(&s);
    if (rc == MG_EXIT_OK)
        rc = run(&s);
    mg_turns_close(s.ctx.turns);
    if (!s.rail_helper)
        mg_multirail_finish(s.mr, rc);
    release(&s);
    fflush(stdout);
    MG_MPI_CHECK(MPI_Finalize());
    return rc;
}
