/* SPDX-License-Identifier: BSD-3-Clause */
/* Output: the only stage that writes results (mg_run.h). Standard output in
 * the chosen format; the -o file (JSON Lines) written to a temporary file
 * beside the target and renamed at the end, so that it is complete or absent.
 */
#include "mg_run.h"

#include "config.h"
#include "mg_exit.h"
#include "mg_report.h"
#include "mg_stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Rank 0 opens a temporary file beside the target; every rank learns
 * whether that worked. */
int mg_out_open(mg_out_file *o, const char *path, const mg_ctx *ctx, char *err)
{
    int ok = 1;
    o->f = NULL;
    o->tmp_path = NULL;
    if (ctx->rank == 0) {
        size_t n = strlen(path) + 16;
        int fd;
        o->tmp_path = malloc(n);
        if (o->tmp_path == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
        snprintf(o->tmp_path, n, "%s.tmp.XXXXXX", path);
        fd = mkstemp(o->tmp_path);
        if (fd < 0 || (o->f = fdopen(fd, "w")) == NULL) {
            snprintf(err, MG_ERRLEN, "cannot write output file '%s': %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            free(o->tmp_path);
            o->tmp_path = NULL;
            ok = 0;
        }
    }
    MG_MPI_CHECK(MPI_Bcast(&ok, 1, MPI_INT, 0, ctx->comm));
    return ok;
}

/* Rank 0: make the file appear complete under its name, or not at all. */
int mg_out_commit(mg_out_file *o, const char *path)
{
    int rc = 0;
    if (o->f == NULL)
        return 0;
    if (fflush(o->f) != 0 || fsync(fileno(o->f)) != 0 || ferror(o->f))
        rc = -1;
    if (fclose(o->f) != 0)
        rc = -1;
    if (rc == 0 && rename(o->tmp_path, path) != 0)
        rc = -1;
    if (rc != 0) {
        fprintf(stderr, "mpigauge: cannot complete output file '%s': %s\n", path, strerror(errno));
        unlink(o->tmp_path);
    }
    free(o->tmp_path);
    o->f = NULL;
    return rc;
}

/* The benchmark's summary as one JSON record. */
static void write_summary(const mg_bench *b, mg_ctx *ctx, FILE *f)
{
    mg_json j;
    mg_json_init(&j, f);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "summary");
    mg_json_string(&j, "benchmark", b->name);
    b->summary(ctx, &j, NULL);
    mg_json_object_end(&j);
    fputc('\n', f);
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
    r.benchmark = b->name;
    r.size_bytes = size;
    r.unit = b->metric == MG_METRIC_LATENCY ? "us" : "MB/s";
    r.iterations = iters;
    r.stop = mg_stop_reason_name(why);
    if (b->variant_name) {
        mg_bench_variant_label(b, s->ctx.variant, label, sizeof label);
        r.variant = label;
    }
    if (s->cfg.validate)
        r.validation = ok ? "passed" : "failed";
    mg_to_metric(b, &s->ctx, size, samples, n);
    if (mg_stats_compute(samples, n, &r.stats) != 0)
        return -1;
    *st_out = r.stats;
    if (b->extras) {
        while (b->extra_names[r.nextra] && r.nextra < MG_MAX_EXTRA) {
            r.extra_names[r.nextra] = b->extra_names[r.nextra];
            r.extra[r.nextra] = NAN;
            r.nextra++;
        }
        b->extras(&s->ctx, size, &r.stats, rank_median_s, r.extra);
    }
    mg_report_row(stdout, (mg_format)s->cfg.format, &r);
    fflush(stdout);
    if (s->out.f)
        mg_report_row(s->out.f, MG_FORMAT_JSON, &r);
    return 0;
}

void mg_output_error(const mg_ctx *ctx, const mg_bench *b, const char *code, int exit_code,
                     const char *msg, const char *hint, int need_min, int need_max)
{
    mg_json j;
    if (ctx->rank != 0)
        return;
    fprintf(stderr, "mpigauge_%s: error: %s%s\n", b->name, msg, hint);
    fflush(stderr);
    if (!ctx->cfg || ctx->cfg->format != MG_FORMAT_JSON)
        return;
    mg_json_init(&j, stdout);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "error");
    mg_json_string(&j, "code", code);
    mg_json_string(&j, "benchmark", b->name);
    mg_json_int(&j, "exit_code", exit_code);
    mg_json_string(&j, "message", msg);
    if (need_min >= 0) {
        mg_json_int(&j, "ranks_min", need_min);
        mg_json_int(&j, "ranks_max", need_max);
        mg_json_int(&j, "ranks_got", ctx->nranks);
    }
    mg_json_object_end(&j);
    fputc('\n', stdout);
    fflush(stdout);
}

void mg_out_discard(mg_out_file *o)
{
    if (o->f == NULL)
        return;
    fclose(o->f);
    unlink(o->tmp_path);
    free(o->tmp_path);
    o->f = NULL;
    o->tmp_path = NULL;
}

/* Rank 0: the run record (JSON and the -o file), the provenance comment
 * (table) and the header of the chosen format. */
void mg_output_begin(const mg_run *s)
{
    const mg_bench *b = s->b;
    const mg_ctx *ctx = &s->ctx;
    mg_table_meta meta = {b->name,
                          b->description,
                          b->headline,
                          MG_VERSION_STRING,
                          b->extras ? b->extra_names : NULL,
                          b->variant_name};

    if (ctx->rank != 0)
        return;
    if (s->cfg.format == MG_FORMAT_TABLE)
        mg_prov_write_comment(stdout, &s->prov);
    if (s->cfg.format == MG_FORMAT_JSON)
        mg_prov_write(stdout, &s->prov, b, &s->cfg, ctx, &s->sweep, s->variants, s->nvariants,
                      s->argc, s->argv);
    mg_report_header(stdout, (mg_format)s->cfg.format, &meta);
    if (s->out.f)
        mg_prov_write(s->out.f, &s->prov, b, &s->cfg, ctx, &s->sweep, s->variants, s->nvariants,
                      s->argc, s->argv);
    fflush(stdout);
}

/* Rank 0, after the sweep: the benchmark's conclusions over all sizes. */
void mg_output_summary(mg_run *s)
{
    const mg_bench *b = s->b;
    if (s->ctx.rank != 0 || !b->summary)
        return;
    if (s->cfg.format == MG_FORMAT_TABLE)
        b->summary(&s->ctx, NULL, stdout);
    else if (s->cfg.format == MG_FORMAT_JSON)
        write_summary(b, &s->ctx, stdout);
    if (s->out.f)
        write_summary(b, &s->ctx, s->out.f);
    fflush(stdout);
}
