/* SPDX-License-Identifier: BSD-3-Clause */
/* Output: the only stage that writes results (mg_run.h). Standard output in
 * the chosen format, and the -o file (JSON Lines; mg_outfile.c opens,
 * completes and discards it).
 */
#include "mg_run.h"

#include "config.h"
#include "mg_exit.h"
#include "mg_report.h"
#include "mg_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Rank 0: keep a finished row for the benchmark's summary. */
static void keep_row(mg_rows *t, const mg_result *r)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        mg_result *row = realloc(t->row, cap * sizeof *row);
        char(*label)[96] = row ? realloc(t->label, cap * sizeof *label) : NULL;
        if (row)
            t->row = row;
        if (label == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
        t->label = label;
        t->cap = cap;
    }
    t->row[t->n] = *r;
    if (r->variant) {
        snprintf(t->label[t->n], sizeof t->label[t->n], "%s", r->variant);
        t->row[t->n].variant = t->label[t->n];
    }
    t->n++;
}

/* The slowest and fastest rank of a row. */
static void name_ranks(const mg_run *s, const double *median_s, mg_result *r)
{
    const int n = s->ctx.nranks;
    double mean_s;
    /* a figure other than time: in its unit, the largest named the heaviest */
    const double scale = s->b->timing.metric == MG_METRIC_VALUE ? s->b->timing.time_scale : 1e6;
    r->ranks_by_value = s->b->timing.metric == MG_METRIC_VALUE;
    r->ranks_timed = mg_rank_extremes(median_s, n, &r->slowest_rank, &r->fastest_rank, &mean_s);
    if (r->ranks_timed > 0) {
        r->rank_mean_us = mean_s * scale;
        r->slowest_rank_us = median_s[r->slowest_rank] * scale;
        r->fastest_rank_us = median_s[r->fastest_rank] * scale;
        r->slowest_host = s->prov.hosts ? s->prov.hosts[r->slowest_rank] : NULL;
        r->fastest_host = s->prov.hosts ? s->prov.hosts[r->fastest_rank] : NULL;
    }
}

/* Rank 0: statistics, extras and the output of one (size, variant); the
 * statistics go to *st_out. */
int mg_output_row(mg_run *s, uint64_t size, double *samples, size_t n, unsigned long long iters,
                  mg_stop_reason why, int ok, const double *rank_median_s, mg_stats *st_out)
{
    const mg_bench *b = s->b;
    char label[96];
    mg_result r;

    memset(&r, 0, sizeof r);
    r.benchmark = b->id.name;
    r.size_bytes = size;
    r.unit = b->timing.metric == MG_METRIC_LATENCY ? "us"
             : b->timing.metric == MG_METRIC_VALUE ? b->timing.unit
                                                   : "MB/s";
    r.iterations = iters;
    r.stop = mg_stop_reason_name(why);
    if (b->sweep.variant_name) {
        mg_bench_variant_label(b, s->ctx.variant, label, sizeof label);
        r.variant = label;
        r.variant_value = s->ctx.variant;
    }
    if (s->plan->cfg.validate)
        r.validation = ok ? "passed" : "failed";
    mg_to_metric(b, &s->ctx, size, samples, n);
    if (s->plan->pctl.n > 0)
        r.pctl = &s->plan->pctl;
    if (mg_stats_compute_pct(samples, n, s->plan->pctl.p, s->plan->pctl.n, r.pctl_v, &r.stats) != 0)
        return -1;
    *st_out = r.stats;
    if (b->report.extras) {
        while (b->report.extra_names[r.nextra] && r.nextra < MG_MAX_EXTRA) {
            r.extra_names[r.nextra] = b->report.extra_names[r.nextra];
            r.extra[r.nextra] = NAN;
            r.nextra++;
        }
        b->report.extras(&s->ctx, size, &r.stats, rank_median_s, r.extra);
    }
    if (rank_median_s && mg_names_ranks(b))
        name_ranks(s, rank_median_s, &r);
    if (s->obs.n > 0)
        r.observed = &s->row_observed;
    r.cell = s->obs.cell;
    for (int k = 0; k < s->nsinks; ++k)
        s->sink[k]->ops->row(s->sink[k], &r);
    if (b->report.summary)
        keep_row(&s->rows, &r);
    return 0;
}

void mg_error_write(const mg_streams *io, int format, const mg_error_info *e, const char *hint)
{
    mg_sink sink;
    fprintf(io->err, "mpigauge_%s: error: %s%s\n", e->benchmark, e->message, hint);
    fflush(io->err);
    mg_sink_init(&sink, (mg_format)format, io->out);
    sink.ops->error(&sink, e);
}

int mg_run_error(const mg_run *s, const char *code, int exit_code, const char *msg,
                 const char *hint, int need_min, int need_max)
{
    const mg_error_info e = {.benchmark = s->b->id.name,
                             .code = code,
                             .message = msg,
                             .exit_code = exit_code,
                             .ranks_min = need_min,
                             .ranks_max = need_max,
                             .ranks_got = s->ctx.nranks};
    if (s->ctx.rank == 0)
        mg_error_write(&s->io, s->plan->cfg.format, &e, hint);
    if (s->ctx.rank == 0 && s->inject)
        s->inject->ops->error(s->inject, &e);
    return exit_code;
}

/* The sinks' run record: JSON, or the provenance comment above a table. */
static void write_record(FILE *f, const void *arg, int as_comment)
{
    const mg_run *s = arg;
    if (as_comment)
        mg_prov_write_comment(f, &s->prov, &s->info);
    else {
        mg_prov_write(f, &s->prov, &s->info);
        mg_prov_write_cvars(f, &s->prov);
    }
}

/* Rank 0: the run record's data, from the run (plain: mg_prov.h). */
static void build_info(mg_run *s)
{
    const mg_bench *b = s->b;
    const mg_ctx *ctx = &s->ctx;
    mg_run_info *ri = &s->info;
    memset(ri, 0, sizeof *ri);
    ri->benchmark = b->id.name;
    ri->description = b->report.description;
    ri->family = b->id.family;
    ri->node_of = ctx->node_of;
    ri->partner_of = ctx->partner_of;
    ri->links = b->layout.links;
    if (b->kernel.compute) {
        ri->compute = &ctx->compute;
        ri->compute_err_max = ctx->drv.compute_err_max;
    }
    if (b->report.describe) {
        mg_kv_init(&s->info_kernel);
        b->report.describe(ctx, &s->info_kernel);
        ri->kernel = &s->info_kernel;
    }
    ri->transport = &ctx->xfer;
    ri->sizes = s->plan->sweep.sizes_bytes;
    ri->nsizes = s->plan->sweep.n;
    if (b->sweep.variant_name) {
        s->info_variants = calloc((size_t)s->nvariants + 1, sizeof *s->info_variants);
        if (s->info_variants == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
        for (int i = 0; i < s->nvariants; ++i)
            mg_bench_variant_label(b, s->variants[i], s->info_variants[i],
                                   sizeof s->info_variants[i]);
        ri->variant_name = b->sweep.variant_name;
        ri->variants = s->info_variants;
        ri->nvariants = s->nvariants;
    }
    ri->common = s->info_tables;
    ri->ncommon = mg_config_tables(b, &s->rec_cfg, s->info_tables);
    if (b->params.opts) {
        s->info_tables[ri->ncommon] =
            (mg_opt_table){b->params.opts, ctx->params, "benchmark", NULL};
        ri->bench_options = &s->info_tables[ri->ncommon];
    }
    ri->precision_rule = mg_config_precision_rule(&s->plan->cfg);
    ri->time_mode = mg_time_mode_name(b->timing.time_mode);
    ri->argc = s->plan->argc;
    ri->argv = s->plan->argv;
    ri->algorithm = (b->id.facts & MG_FACT_ALGORITHM) != 0;
    if (s->plan->osu) {
        ri->osu_name = s->plan->osu->e->osu;
        ri->osu_buffers = s->plan->osu->buffers;
        ri->osu_substituted = s->plan->osu->substituted;
        ri->osu_argc = s->plan->osu->given_argc;
        ri->osu_argv = s->plan->osu->given_argv;
    }
}

/* The OSU layout's facts: the name's, mpigauge's note line, the one-sided
 * programs' window. */
static void osu_facts(mg_run *s, mg_osu_table *osu)
{
    char where[128];
    mg_osu_table_meta(s->plan->osu, osu);
    mg_prov_where(&s->prov, where, sizeof where);
    snprintf(osu->note, sizeof osu->note,
             "mpigauge %s, %s: every figure a median over samples (doc/osu.md)", s->prov.version,
             where);
    mg_osu_window_lines(mg_kv_find_string(&s->info_kernel, "window", "flavor"),
                        mg_kv_find_string(&s->info_kernel, "window", "sync"), osu);
}

/* Rank 0: the sinks (standard output in the chosen format, and the -o
 * file's JSON Lines) and their beginning: the run record and header. */
void mg_output_begin(mg_run *s)
{
    const mg_bench *b = s->b;
    mg_table_meta meta = {.benchmark = b->id.name,
                          .description = b->report.description,
                          .headline = b->report.headline,
                          .version = s->prov.version,
                          .extra_names = b->report.extras ? b->report.extra_names : NULL,
                          .variant_name = b->sweep.variant_name,
                          .gbits = b->timing.metric == MG_METRIC_BANDWIDTH,
                          .ranks_named = mg_names_ranks(b),
                          .ncells = s->obs.ncells,
                          .cell = s->obs.title,
                          .columns = s->plan->cfg.columns,
                          .validated = s->plan->cfg.validate,
                          .pctl = s->plan->pctl.n > 0 ? &s->plan->pctl : NULL};
    mg_osu_table osu = {.nprocs = s->ctx.nranks};

    if (s->ctx.rank != 0)
        return;
    build_info(s);
    if (s->plan->osu)
        osu_facts(s, &osu);
    s->nsinks = 0;
    mg_sink_layout(&s->own[0], (mg_format)s->plan->cfg.format, s->plan->cfg.columns,
                   s->plan->osu ? &osu : NULL, s->io.out);
    s->sink[s->nsinks++] = &s->own[0];
    if (s->out.f) {
        mg_sink_init(&s->own[1], MG_FORMAT_JSON, s->out.f);
        s->sink[s->nsinks++] = &s->own[1];
    }
    if (s->inject)
        s->sink[s->nsinks++] = s->inject;
    for (int k = 0; k < s->nsinks; ++k)
        s->sink[k]->ops->begin(s->sink[k], &meta, write_record, s);
}

/* Rank 0, after the sweep: the benchmark's conclusions over all sizes. */
void mg_output_summary(mg_run *s)
{
    const mg_bench *b = s->b;
    mg_kvlist kv;
    if (s->ctx.rank != 0 || !b->report.summary)
        return;
    mg_kv_init(&kv);
    b->report.summary(s->rows.row, s->rows.n, &kv);
    if (!mg_kv_complete(&kv))
        mg_mpi_die(__FILE__, __LINE__, "a benchmark's summary is not a complete key-value list");
    for (int k = 0; k < s->nsinks; ++k)
        s->sink[k]->ops->summary(s->sink[k], b->id.name, &kv);
    mg_kv_free(&kv);
}

/* All ranks reach the same verdict; rank 0 says why, on standard error and,
 * in JSON mode, as a record on standard output ({"type":"error"}, with the
 * rank counts when `code` is "ranks"; doc/output.md) so that a runner never
 * reads prose. need_min < 0: no counts. */
int mg_run_usage_error(const mg_run *s, const char *code, const char *msg, int need_min,
                       int need_max)
{
    return mg_run_error(s, code, MG_EXIT_USAGE, msg, " (see --help)", need_min, need_max);
}

int mg_run_usage(const mg_run *s, const char *msg)
{
    return mg_run_usage_error(s, "usage", msg, -1, -1);
}
