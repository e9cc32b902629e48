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
