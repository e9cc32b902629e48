/* SPDX-License-Identifier: BSD-3-Clause */
/* The driver's extension point for run-wide features: an observer joins a
 * run and the phases of its rows, and adds named values to each result
 * record, without a line in the driver's stages (doc/develop.md, "Adding a
 * run-wide feature"). The model is hwloc's components with phases and
 * ReproMPI's one folder per measurement module: one file per observer
 * (mpi/obs_NAME.c), one registration line (mpi/mg_observers.c).
 *
 * The phases, in order, on every rank:
 *
 *   open         after the session (communicator, buffers, provenance),
 *                before the run record: join (1), stay out (0), or refuse
 *                the run (-1, a usage error, exit 2); collective
 *   timed_begin  right before a row's first timed sample, outside the
 *                timed blocks; no communication (a rank at a time)
 *   timed_end    right after the row's last timed sample, with the timed
 *                iterations of this rank
 *   columns      rank 0, once, after open: the columns it adds to the
 *                default table (mg_cell_title; NULL: none)
 *   row          the row measured, before it is written: collective over
 *                the run's ranks through ctx->drv.group; rank 0 adds its
 *                values to the record (an object named after the observer,
 *                "host": {...}, in JSON; the table and CSV leave it out)
 *                and fills its table cells, one per column (NaN: none)
 *   close        the sweep over (also after a failed one)
 *
 * An observer keeps its state in state_size bytes the driver gives it,
 * zeroed, one per run and rank: no statics (tests/code_rules.sh). It reads
 * the host through the injected environment of ctx->drv (the clock, the
 * usage probe), so the one-process tests see the same phases with fake
 * values.
 */
#ifndef MG_OBSERVE_H
#define MG_OBSERVE_H

#include "mg_driver.h"
#include "mg_kv.h"
#include "mg_report.h"

#include <stddef.h>

typedef struct mg_observer {
    const char *name; /* its key in a result record */
    size_t state_size;
    int (*open)(void *st, mg_ctx *ctx, char *err, size_t errlen); /* NULL: always joins */
    void (*timed_begin)(void *st, mg_ctx *ctx);
    void (*timed_end)(void *st, mg_ctx *ctx, unsigned long long iters);
    int (*columns)(void *st, const mg_cell_title **title); /* how many, *title their titles */
    void (*row)(void *st, mg_ctx *ctx, mg_kvlist *out, double *cell);
    void (*close)(void *st, mg_ctx *ctx);
} mg_observer;

/* Every observer, NULL-terminated (mpi/mg_observers.c). */
extern const mg_observer *const mg_observers[];

#define MG_MAX_OBSERVERS 8

/* The observers that joined a run, and their states. */
struct mg_observe_set {
    const mg_observer *obs[MG_MAX_OBSERVERS];
    void *state[MG_MAX_OBSERVERS];
    int n;
    /* rank 0: the table columns of them all, in order, and the row's cells */
    mg_cell_title *title;
    double *cell;
    int ncells;
};
typedef struct mg_observe_set mg_observe_set;

/* Every registered observer's open, in registration order (collective):
 * MG_EXIT_OK, or MG_EXIT_USAGE with the lowest failing rank's message in
 * err on every rank. */
int mg_observe_open(mg_observe_set *set, const mg_observer *const *list, mg_ctx *ctx, char *err,
                    size_t errlen);
/* timed_begin (end 0) or timed_end (end 1, iters) of every joined observer;
 * set NULL: nothing. */
void mg_observe_timed(mg_observe_set *set, mg_ctx *ctx, int end, unsigned long long iters);
/* row of every joined observer (collective), each inside an object of its
 * name in out and its cells in set->cell (rank 0's; the other ranks' out
 * is not written). */
void mg_observe_row(mg_observe_set *set, mg_ctx *ctx, mg_kvlist *out);
void mg_observe_close(mg_observe_set *set, mg_ctx *ctx);

#endif
