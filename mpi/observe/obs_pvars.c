/* SPDX-License-Identifier: BSD-3-Clause */
/* The observer "pvars": the MPI library's performance variables (MPI_T
 * pvars, mpi/mpit/mg_pvars.c) read on every rank right before a row's first
 * timed sample and right after its last. Which: --pvars all|queues|NAME,...
 * as given ("none": none), else "queues" for the point-to-point programs
 * (their message queues and rendezvous transfers, where the library counts
 * them; a default selection that cannot be read is left out). The result
 * record's "pvars" object (doc/output.md), one member per variable:
 *
 *   "pvars": {"NAME": {"class":..,"sum":..,"max":..,"max_rank":R}, ...}
 *
 * (sum over ranks, the largest rank's value and the lowest rank with it),
 * and, when --pvars named them, a column per variable in the table: its
 * sum (the default selection stays in JSON, out of the table's 80 columns). */
#include "mg_observe.h"

#include "mg_exit.h"
#include "mg_group.h"
#include "mg_mpi.h"
#include "mg_mpit.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    mg_pvars pvars;
    int given;            /* --pvars named them: columns in the table too */
    mg_cell_title *title; /* rank 0: a column per pvar */
    double *all;          /* rank 0: every rank's values, rank by rank */
} pvars_state;

extern const mg_observer mg_obs_pvars;

typedef struct {
    const char *spec; /* --pvars */
} pvars_params;

static const mg_opt pvars_opts[] = {
    {.long_name = "pvars",
     .type = MG_OPT_STRING,
     .offset = offsetof(pvars_params, spec),
     .arg_name = "list|all|queues|none|NAME,...",
     .help = "the MPI library's performance variables (MPI_T pvars): list prints those it "
             "offers and measures nothing; all, queues (message queues, rendezvous: the "
             "default of point-to-point programs) or NAME,... reads them around every row's "
             "timed samples, each rank's change (or value) summarised in the results; none "
             "reads none",
     .key = ""},
    {.type = MG_OPT_END}};

/* --pvars list: rank 0 prints what the library offers (after MPI_Init, when
 * its components have registered theirs) and the run ends. */
static int pvars_early(const void *params, mg_ctx *ctx, FILE *out, mg_early_error *e)
{
    const char *spec = ((const pvars_params *)params)->spec;
    if (spec == NULL || strcmp(spec, "list") != 0)
        return -1;
    if (mg_pvars_list(out, ctx->cfg->format == MG_FORMAT_JSON) != 0) {
        e->code = "mpi_t";
        snprintf(e->msg, sizeof e->msg, "MPI_T is not available in this library");
        return MG_EXIT_SKIP;
    }
    return out == NULL || fflush(out) == 0 ? MG_EXIT_OK : MG_EXIT_INTERNAL;
}

/* The selection of this run, or NULL: none; *given 1 when --pvars named it. */
static const char *pvars_spec(const mg_ctx *ctx, int *given)
{
    const pvars_params *prm = mg_observe_params(ctx, &mg_obs_pvars);
    const char *spec = prm != NULL ? prm->spec : NULL;
    *given = spec != NULL;
    if (spec != NULL)
        return strcmp(spec, "none") == 0 ? NULL : spec;
    return ctx->base->id.facts & MG_FACT_NO_QUEUE_PVARS ? NULL : "queues";
}

static int pvars_open(void *st, mg_ctx *ctx, char *err, size_t errlen)
{
    pvars_state *p = st;
    int given;
    const char *spec = pvars_spec(ctx, &given);
    if (spec == NULL)
        return 0;
    p->given = given;
    if (mg_pvars_open(&p->pvars, spec, &ctx->comm, err, errlen) != 0) {
        mg_pvars_close(&p->pvars);
        if (!given) { /* the default selection: left out, without a word */
            err[0] = '\0';
            return 0;
        }
        if (!err[0])
            snprintf(err, errlen, "--pvars: cannot be read");
        return -1;
    }
    if (p->pvars.n == 0) {
        mg_pvars_close(&p->pvars);
        return 0;
    }
    if (ctx->rank == 0 &&
        (!(p->all = calloc((size_t)p->pvars.n * (size_t)ctx->nranks, sizeof *p->all)) ||
         !(p->title = calloc((size_t)p->pvars.n, sizeof *p->title))))
        mg_mpi_die(__FILE__, __LINE__, "out of memory for --pvars");
    for (int k = 0; ctx->rank == 0 && k < p->pvars.n; ++k) {
        p->title[k].title = p->pvars.name[k];
        p->title[k].counts = strcmp(p->pvars.cls[k], "timer") != 0; /* a timer's in seconds */
    }
    return 1;
}

static void pvars_timed_begin(void *st, mg_ctx *ctx)
{
    (void)ctx;
    mg_pvars_mark(&((pvars_state *)st)->pvars, 0);
}

static void pvars_timed_end(void *st, mg_ctx *ctx, unsigned long long iters)
{
    (void)ctx;
    (void)iters;
    mg_pvars_mark(&((pvars_state *)st)->pvars, 1);
}

static int pvars_columns(void *st, const mg_cell_title **title)
{
    pvars_state *p = st;
    *title = p->title;
    return p->given ? p->pvars.n : 0; /* the default selection: in JSON only */
}

/* Every rank's change (or value) to rank 0, summarised there per pvar: the
 * sum over ranks (its table cell), the largest and the lowest rank with it. */
static void pvars_row(void *st, mg_ctx *ctx, const mg_row_view *v, mg_kvlist *out, double *cell)
{
    pvars_state *p = st;
    (void)v;
    const int n = p->pvars.n, nr = ctx->nranks;
    mg_group_gather(&ctx->drv.group, p->pvars.value, (size_t)n, p->all);
    if (ctx->rank != 0)
        return;
    for (int k = 0; k < n; ++k) {
        double sum = 0.0;
        int top = 0;
        for (int r = 0; r < nr; ++r) {
            const double v = p->all[(size_t)r * (size_t)n + (size_t)k];
            sum += v;
            if (v > p->all[(size_t)top * (size_t)n + (size_t)k])
                top = r;
        }
        mg_kv_object(out, p->pvars.name[k]);
        mg_kv_string(out, "class", p->pvars.cls[k]);
        mg_kv_number(out, "sum", sum);
        mg_kv_number(out, "max", p->all[(size_t)top * (size_t)n + (size_t)k]);
        mg_kv_number(out, "max_rank", top);
        mg_kv_end(out);
        if (p->given)
            cell[k] = sum;
    }
}

static void pvars_close(void *st, mg_ctx *ctx)
{
    pvars_state *p = st;
    (void)ctx;
    mg_pvars_close(&p->pvars);
    free(p->title);
    free(p->all);
}

const mg_observer mg_obs_pvars = {.name = "pvars",
                                  .opts = pvars_opts,
                                  .params_size = sizeof(pvars_params),
                                  .early = pvars_early,
                                  .state_size = sizeof(pvars_state),
                                  .open = pvars_open,
                                  .timed_begin = pvars_timed_begin,
                                  .timed_end = pvars_timed_end,
                                  .columns = pvars_columns,
                                  .row = pvars_row,
                                  .close = pvars_close};
