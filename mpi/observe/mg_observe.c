/* SPDX-License-Identifier: BSD-3-Clause */
/* The observers' phases, called by the driver's stages (mg_observe.h). */
#include "mg_observe.h"

#include "mg_exit.h"
#include "mg_group.h"
#include "mg_mpi.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rank 0: the table columns of every joined observer, in order, and room
 * for a row's cells. */
static void gather_columns(mg_observe_set *set)
{
    const mg_cell_title *t[MG_MAX_OBSERVERS];
    int n[MG_MAX_OBSERVERS], total = 0;
    for (int i = 0; i < set->n; ++i) {
        n[i] = set->obs[i]->columns ? set->obs[i]->columns(set->state[i], &t[i]) : 0;
        total += n[i];
    }
    if (total == 0)
        return;
    if ((set->title = malloc((size_t)total * sizeof *set->title)) == NULL ||
        (set->cell = malloc((size_t)total * sizeof *set->cell)) == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory for the observers' columns");
    for (int i = 0; i < set->n; ++i)
        for (int k = 0; k < n[i]; ++k)
            set->title[set->ncells++] = t[i][k];
}

int mg_observe_open(mg_observe_set *set, const mg_observer *const *list, mg_ctx *ctx, char *err,
                    size_t errlen)
{
    memset(set, 0, sizeof *set);
    for (int i = 0; list[i] != NULL; ++i) {
        const mg_observer *o = list[i];
        void *st;
        if (i >= MG_MAX_OBSERVERS) /* a registry longer than the set: never silently short */
            mg_mpi_die(__FILE__, __LINE__, "more observers registered than MG_MAX_OBSERVERS");
        st = calloc(1, o->state_size ? o->state_size : 1);
        char msg[512] = ""; /* MG_ERRLEN: a refusal may name a long path */
        int join;
        if (st == NULL)
            snprintf(msg, sizeof msg, "out of memory for the observer %s", o->name);
        join = st == NULL ? -1 : o->open ? o->open(st, ctx, msg, sizeof msg) : 1;
        if (join < 0 && !msg[0])
            snprintf(msg, sizeof msg, "%s: cannot be observed", o->name);
        if (mg_group_agree_message(&ctx->drv.group, msg, sizeof msg) != 0) {
            snprintf(err, errlen, "%s", msg);
            if (join > 0 && o->close)
                o->close(st, ctx);
            free(st);
            mg_observe_close(set, ctx);
            return MG_EXIT_USAGE;
        }
        if (!mg_group_all_true(&ctx->drv.group, join > 0)) {
            if (join > 0 && o->close)
                o->close(st, ctx);
            free(st);
            continue;
        }
        set->obs[set->n] = o;
        set->state[set->n++] = st;
        set->wants_log |= o->wants_log;
    }
    if (ctx->rank == 0)
        gather_columns(set);
    return MG_EXIT_OK;
}

void mg_observe_timed(mg_observe_set *set, mg_ctx *ctx, int end, unsigned long long iters)
{
    for (int i = 0; set != NULL && i < set->n; ++i) {
        const mg_observer *o = set->obs[i];
        if (!end && o->timed_begin)
            o->timed_begin(set->state[i], ctx);
        else if (end && o->timed_end)
            o->timed_end(set->state[i], ctx, iters);
    }
}

void mg_observe_block(mg_observe_set *set, mg_ctx *ctx, int end, unsigned long long iters)
{
    for (int i = 0; set != NULL && i < set->n; ++i)
        if (set->obs[i]->block)
            set->obs[i]->block(set->state[i], ctx, end, iters);
}

void mg_observe_row(mg_observe_set *set, mg_ctx *ctx, const mg_row_view *v, mg_kvlist *out)
{
    for (int i = 0, at = 0; set != NULL && i < set->n; ++i) {
        const mg_observer *o = set->obs[i];
        const mg_cell_title *t;
        double *cell = set->cell ? set->cell + at : NULL;
        if (ctx->rank == 0 && o->columns) {
            const int n = o->columns(set->state[i], &t);
            for (int k = 0; k < n; ++k)
                cell[k] = NAN;
            at += n;
        }
        if (o->row == NULL)
            continue;
        const int before = out->n;
        if (ctx->rank == 0 && !o->flat)
            mg_kv_object(out, o->name);
        o->row(set->state[i], ctx, v, out, ctx->rank == 0 ? cell : NULL);
        if (ctx->rank == 0 && !o->flat && out->n == before + 1 && !out->overflow)
            out->n = before; /* it said nothing of this row: no empty object */
        else if (ctx->rank == 0 && !o->flat)
            mg_kv_end(out);
    }
}

void mg_observe_sweep(mg_observe_set *set, mg_ctx *ctx, int end, struct mg_sink *const *sink,
                      int nsinks)
{
    for (int i = 0; set != NULL && i < set->n; ++i)
        if (set->obs[i]->sweep)
            set->obs[i]->sweep(set->state[i], ctx, end, sink, nsinks);
}

int mg_observe_finish(mg_observe_set *set, mg_ctx *ctx)
{
    int rc = 0;
    for (int i = 0; set != NULL && i < set->n; ++i)
        if (set->obs[i]->finish && set->obs[i]->finish(set->state[i], ctx) != 0)
            rc = -1;
    return rc;
}

void mg_observe_close(mg_observe_set *set, mg_ctx *ctx)
{
    for (int i = 0; set != NULL && i < set->n; ++i) {
        if (set->obs[i]->close)
            set->obs[i]->close(set->state[i], ctx);
        free(set->state[i]);
    }
    if (set != NULL) {
        free(set->title);
        free(set->cell);
        set->title = NULL;
        set->cell = NULL;
        set->n = set->ncells = set->wants_log = 0;
    }
}

int mg_observer_params_make(mg_observer_params *p, const mg_observer *const *list)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; list[i] != NULL; ++i) {
        const mg_observer *o = list[i];
        if (o->opts == NULL)
            continue;
        if (p->n >= MG_MAX_OBSERVERS ||
            (p->params[p->n] = calloc(1, o->params_size ? o->params_size : 1)) == NULL) {
            mg_observer_params_free(p);
            return -1;
        }
        p->obs[p->n++] = o;
    }
    return 0;
}

void mg_observer_params_free(mg_observer_params *p)
{
    for (int i = 0; i < p->n; ++i)
        free(p->params[i]);
    memset(p, 0, sizeof *p);
}

size_t mg_observer_params_tables(mg_observer_params *p, mg_opt_table *tables)
{
    for (int i = 0; i < p->n; ++i)
        tables[i] = (mg_opt_table){p->obs[i]->opts, p->params[i], "common", NULL};
    return (size_t)p->n;
}

const void *mg_observer_params_of(const mg_observer_params *p, const mg_observer *o)
{
    for (int i = 0; p != NULL && i < p->n; ++i)
        if (p->obs[i] == o)
            return p->params[i];
    return NULL;
}

const void *mg_observe_params(const mg_ctx *ctx, const mg_observer *o)
{
    return mg_observer_params_of(ctx->drv.obs_params, o);
}

int mg_observe_early(const mg_observer_params *p, mg_ctx *ctx, FILE *out, mg_early_error *e)
{
    for (int i = 0; p != NULL && i < p->n; ++i) {
        int rc = p->obs[i]->early ? p->obs[i]->early(p->params[i], ctx, out, e) : -1;
        if (rc >= 0)
            return rc;
    }
    return -1;
}

const char *mg_observe_guarded_file(const mg_observer_params *p)
{
    for (int i = 0; p != NULL && i < p->n; ++i) {
        const char *f = p->obs[i]->guarded_file ? p->obs[i]->guarded_file(p->params[i]) : NULL;
        if (f != NULL)
            return f;
    }
    return NULL;
}
