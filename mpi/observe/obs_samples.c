/* SPDX-License-Identifier: BSD-3-Clause */
/* The observer "samples" (--samples FILE): every timed sample of every row
 * to FILE (doc/output.md, "The samples file"), complete or not at all: a
 * header record, then per (size, variant) a record with each sample's
 * start (seconds since the sweep began, rank 0's clock), its time per
 * iteration (seconds, before conversion to the row's unit) and its
 * iterations; with --per-rank also every rank's own samples, the entries
 * rank 0's samples were made of. Kept in memory on rank 0 and written at
 * the end (a path that is written through, a pipe, is opened before
 * measuring); a path that cannot be written is refused before measuring. */
#include "mg_observe.h"

#include "mg_group.h"
#include "mg_run.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const mg_observer mg_obs_samples;

typedef struct {
    const char *path; /* --samples FILE */
} samples_params;

static const mg_opt samples_opts[] = {
    {.long_name = "samples",
     .type = MG_OPT_STRING,
     .offset = offsetof(samples_params, path),
     .arg_name = "FILE",
     .help = "write every timed sample (its start on rank 0's clock, time per iteration, "
             "iterations) to FILE as JSON Lines, complete or not at all (doc/output.md)",
     .key = ""},
    {.type = MG_OPT_END}};

/* The -o file's guard watches FILE too. */
static const char *samples_guarded(const void *params)
{
    return ((const samples_params *)params)->path;
}

typedef struct {
    const char *path; /* --samples FILE */
    int per_rank;     /* --per-rank: every rank's own samples too */
    mg_out_file out;  /* the FILE when written through, else opened at the end */
    FILE *mem;        /* rank 0: the records so far */
    char *text;
    size_t len;
    double t_zero;    /* rank 0: its clock when the sweep began */
    double *rank_all; /* rank 0, --per-rank: every rank's own samples of a row */
    size_t rank_cap;
} samples_state;

static int samples_open(void *st, mg_ctx *ctx, char *err, size_t errlen)
{
    samples_state *p = st;
    const samples_params *prm = mg_observe_params(ctx, &mg_obs_samples);
    const char *path = prm != NULL ? prm->path : NULL;
    char why[MG_ERRLEN] = "";
    if (path == NULL)
        return 0;
    p->path = path;
    p->per_rank = mg_obs_per_rank_on(ctx);
    p->out.log = ctx->drv.err;
    if (!mg_out_distinct(ctx->cfg->output, "-o", path, "--samples", &ctx->drv.group, why) ||
        !mg_out_prepare(&p->out, path, &ctx->drv.group, why)) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    return 1;
}

/* The header record, when the sweep begins. */
static void samples_sweep(void *st, mg_ctx *ctx, int end, struct mg_sink *const *sink, int nsinks)
{
    samples_state *p = st;
    char lib[256];
    mg_json j;
    (void)sink, (void)nsinks;
    if (end || ctx->rank != 0)
        return;
    snprintf(lib, sizeof lib, "%.*s", (int)strcspn(ctx->drv.prov->library, "\n"),
             ctx->drv.prov->library);
    if ((p->mem = open_memstream(&p->text, &p->len)) == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory for --samples");
    p->t_zero = mg_now(ctx);
    mg_json_init(&j, p->mem);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "samples");
    mg_json_string(&j, "benchmark", ctx->drv.bench->id.name);
    mg_json_string(&j, "mpi_library", lib);
    mg_json_int(&j, "nranks", ctx->nranks);
    mg_json_string(&j, "time_mode", mg_time_mode_name(ctx->drv.bench->timing.time_mode));
    mg_json_string(&j, "date_utc", ctx->drv.prov->date_utc);
    mg_json_array_begin(&j, "fields");
    mg_json_string(&j, NULL, "start_s");
    mg_json_string(&j, NULL, "per_iteration_s");
    mg_json_string(&j, NULL, "iterations");
    if (p->per_rank)
        mg_json_string(&j, NULL, "rank_per_iteration_s");
    mg_json_array_end(&j);
    mg_json_object_end(&j);
    fputc('\n', p->mem);
}

/* --per-rank: every rank's own samples to rank 0 (the same count on every
 * rank: one schedule); NULL without it. */
static const double *gather_ranks(samples_state *p, mg_ctx *ctx, const mg_row_view *v)
{
    const size_t need = (size_t)ctx->nranks * v->nmine;
    if (!p->per_rank)
        return NULL;
    if (ctx->rank == 0 && need > p->rank_cap) {
        free(p->rank_all);
        if ((p->rank_all = malloc((need ? need : 1) * sizeof *p->rank_all)) == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory for --samples");
        p->rank_cap = need;
    }
    mg_group_gather(&ctx->drv.group, v->mine, v->nmine, p->rank_all);
    return p->rank_all;
}

static void json_numbers(mg_json *j, const char *key, const double *x, size_t n, double minus)
{
    mg_json_array_begin(j, key);
    for (size_t i = 0; i < n; ++i)
        mg_json_number(j, NULL, x[i] - minus);
    mg_json_array_end(j);
}

static void samples_row(void *st, mg_ctx *ctx, const mg_row_view *v, mg_kvlist *out, double *cell)
{
    samples_state *p = st;
    const double *ranks = gather_ranks(p, ctx, v);
    mg_json j;
    (void)out, (void)cell;
    if (ctx->rank != 0 || p->mem == NULL)
        return;
    mg_json_init(&j, p->mem);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "sample_series");
    mg_json_uint(&j, "size_bytes", (unsigned long long)v->size);
    if (v->variant)
        mg_json_string(&j, "variant", v->variant);
    json_numbers(&j, "start_s", v->log->start, v->n, p->t_zero);
    json_numbers(&j, "per_iteration_s", v->per_iter_s, v->n, 0.0);
    mg_json_array_begin(&j, "iterations");
    for (size_t i = 0; i < v->n; ++i)
        mg_json_int(&j, NULL, v->log->iters[i]);
    mg_json_array_end(&j);
    if (ranks) {
        mg_json_array_begin(&j, "rank_per_iteration_s");
        for (int r = 0; r < ctx->nranks; ++r) {
            const double *own = ranks + (size_t)r * v->nmine;
            mg_json_array_begin(&j, NULL);
            for (size_t i = 0; i < v->n; ++i)
                mg_json_number(&j, NULL, own[v->log->index[i]]);
            mg_json_array_end(&j);
        }
        mg_json_array_end(&j);
    }
    mg_json_object_end(&j);
    fputc('\n', p->mem);
}

/* Every rank, after a complete sweep: the samples to FILE, complete or not
 * at all; 0, or -1 when it could not be written (rank 0 says why). */
static int samples_finish(void *st, mg_ctx *ctx)
{
    samples_state *p = st;
    const char *path = p->path;
    char err[MG_ERRLEN];
    int rc = 0, opened = p->out.f != NULL; /* written through: opened before measuring */

    if (p->mem != NULL && fclose(p->mem) != 0)
        rc = -1;
    p->mem = NULL;
    mg_group_bcast(&ctx->drv.group, &opened, sizeof opened);
    if (!opened && !mg_out_open(&p->out, path, &ctx->drv.group, err)) {
        if (ctx->rank == 0)
            fprintf(ctx->drv.err, "mpigauge_%s: error: %s\n", ctx->drv.bench->id.name, err);
        return -1;
    }
    if (ctx->rank == 0 &&
        (rc != 0 || fwrite(p->text, 1, p->len, p->out.f) != p->len || fflush(p->out.f) != 0)) {
        fprintf(ctx->drv.err, "mpigauge_%s: error: cannot write samples file '%s': %s\n",
                ctx->drv.bench->id.name, path, rc != 0 ? "out of memory" : strerror(errno));
        mg_out_discard(&p->out);
        rc = -1;
    } else if (ctx->rank == 0)
        rc = mg_out_commit(&p->out, path);
    mg_group_bcast(&ctx->drv.group, &rc, sizeof rc);
    return rc;
}

/* Whatever was not made complete (a failed sweep, a pipe written through)
 * is dropped. */
static void samples_close(void *st, mg_ctx *ctx)
{
    samples_state *p = st;
    if (p->mem)
        fclose(p->mem);
    if (ctx->rank == 0)
        mg_out_discard(&p->out);
    free(p->text);
    free(p->rank_all);
}

/* flat: it adds nothing to the result record (whose "samples" is the
 * sample count) */
const mg_observer mg_obs_samples = {.name = "samples",
                                    .flat = 1,
                                    .wants_log = 1,
                                    .opts = samples_opts,
                                    .params_size = sizeof(samples_params),
                                    .guarded_file = samples_guarded,
                                    .state_size = sizeof(samples_state),
                                    .open = samples_open,
                                    .sweep = samples_sweep,
                                    .row = samples_row,
                                    .finish = samples_finish,
                                    .close = samples_close};
