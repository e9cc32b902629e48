/* SPDX-License-Identifier: BSD-3-Clause */
/* The driver's extension point for run-wide features: an observer joins a
 * run and the phases of its rows, and adds named values to each result
 * record, without a line in the driver's stages (doc/develop.md, "Adding a
 * run-wide feature"). The model is hwloc's components with phases and
 * ReproMPI's one folder per measurement module: one file per observer
 * (mpi/obs_NAME.c), one registration line (mpi/observe/mg_observers.c).
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
 *   block        right before (end 0) and right after (end 1, with its
 *                iterations) each timed block between them: a block of
 *                iterations, or one call in call sampling; outside the
 *                block's clock readings (under --sync window the wait for
 *                the call's window lies inside); no communication. What
 *                the timed work alone costs is the sum over blocks (the
 *                warm-up, checkpoints and barriers between blocks are not
 *                in it)
 *   columns      rank 0, once, after open: the columns it adds to the
 *                default table (mg_cell_title; NULL: none)
 *   sweep        the sweep begins (after the run record and header) and
 *                ends (before the summary): whole records to the sinks
 *   row          the row measured, before it is written: collective over
 *                the run's ranks through ctx->drv.group; rank 0 adds its
 *                values to the record (an object named after the observer,
 *                "host": {...}, in JSON, or members of the record itself
 *                when flat; the table and CSV leave it out) and fills its
 *                table cells, one per column (NaN: none); v: what the
 *                driver knows of the row
 *   finish       the sweep complete: make what it keeps complete (a file)
 *   close        the sweep over (also after a failed one)
 *
 * Before all of these, an observer's options: the rows of `opts` are
 * parsed with the program's common options (the plan, before MPI_Init) into
 * params_size bytes of its own (zeroed, then the rows' defaults), which it
 * reads with mg_observe_params; `early` runs after MPI_Init and before the
 * session for an option that only reports (--pvars list), and
 * `guarded_file` names a file it will write that the -o file's guard should
 * watch. The driver names no observer: a new one with an option is one
 * file and one line of mg_observers.c (doc/develop.md).
 *
 * An observer keeps its state in state_size bytes the driver gives it,
 * zeroed, one per run and rank: no statics (tests/code_rules.sh). It reads
 * the host through the injected environment of ctx->drv (the clock, the
 * usage probe), so the one-process tests see the same phases with fake
 * values.
 */
#ifndef MG_OBSERVE_H
#define MG_OBSERVE_H

#include "mg_bench.h"
#include "mg_kv.h"
#include "mg_report.h"

#include <stddef.h>
#include <stdint.h>

/* Rank 0, for an observer that wants it (wants_log): where each sample of
 * the row began (rank 0's clock), its iterations and which of the ranks'
 * own samples (mine) it was (a call dropped as late leaves a gap with time
 * mode call), index by index. The measurement keeps it. */
typedef struct {
    double *start;
    long *iters;
    size_t *index;
} mg_sample_log;

/* What the driver knows of a row when the observers' row phase comes
 * (rank 0's; on the other ranks rank_median_s, per_iter_s and log are
 * NULL). */
#define MG_MAX_OBSERVERS 16

typedef struct mg_row_view {
    uint64_t size;
    const char *variant; /* its label ("ways=2"), or NULL */
    /* rank 0: the row's samples, raw (seconds per iteration), n of them,
     * and with wants_log where each began */
    const double *per_iter_s;
    size_t n;
    const mg_sample_log *log;
    /* every rank: its own samples of the row (the same count everywhere) */
    const double *mine;
    size_t nmine;
    /* programs that name their ranks (more than a pair): every rank's
     * median of its own timed samples, raw (x scale: in us, or in the
     * figure's own unit when by_value); NULL: not gathered */
    const double *rank_median_s;
    double scale;
    int nranks;
    int by_value; /* the figure is not a time (memory) */
} mg_row_view;

/* What an early phase that ended the run says: an error record's code
 * (doc/output.md: "mpi_t", ...) and its message. */
typedef struct {
    const char *code;
    char msg[256];
} mg_early_error;

typedef struct mg_observer {
    /* its key in a result record: not one of the record's own keys
     * (doc/output.md); an object it leaves empty is not written */
    const char *name;
    /* its options (NULL: none), rows whose offsets are into params_size
     * bytes; listed with the common options (--help, group "common") */
    const mg_opt *opts;
    size_t params_size;
    /* after MPI_Init, before the session (NULL: none): -1, the run goes on;
     * else the run ends with that exit code (rank 0 wrote to out, NULL on
     * the other ranks; a code other than 0 with e's message) */
    int (*early)(const void *params, mg_ctx *ctx, FILE *out, mg_early_error *e);
    /* a file it will write, for the -o file's guard (NULL: none) */
    const char *(*guarded_file)(const void *params);
    /* 1: its values are members of the result record itself ("algorithm",
     * "rank_median_us"), not of an object named after it */
    int flat;
    int wants_log; /* 1: the measurement keeps the sample log for it (mg_row_view) */
    size_t state_size;
    int (*open)(void *st, mg_ctx *ctx, char *err, size_t errlen); /* NULL: always joins */
    void (*timed_begin)(void *st, mg_ctx *ctx);
    void (*timed_end)(void *st, mg_ctx *ctx, unsigned long long iters);
    void (*block)(void *st, mg_ctx *ctx, int end, unsigned long long iters);
    int (*columns)(void *st, const mg_cell_title **title); /* how many, *title their titles */
    /* the sweep begins (end 0: after the run record and the header) or
     * ended (end 1: after its last row, before the summary; not after a
     * failed sweep): collective; rank 0 may hand whole records to the
     * run's sinks (JSON ones write them: mg_sink_ops.record) */
    void (*sweep)(void *st, mg_ctx *ctx, int end, struct mg_sink *const *sink, int nsinks);
    void (*row)(void *st, mg_ctx *ctx, const mg_row_view *v, mg_kvlist *out, double *cell);
    /* the sweep complete (not after a failed one): collective; 0, or -1
     * when what it keeps could not be made complete (rank 0 said why): the
     * run then exits 1 */
    int (*finish)(void *st, mg_ctx *ctx);
    void (*close)(void *st, mg_ctx *ctx);
} mg_observer;

/* Every observer, NULL-terminated (mpi/observe/mg_observers.c). */
extern const mg_observer *const mg_observers[];

/* The observers that joined a run, and their states. */
struct mg_observe_set {
    const mg_observer *obs[MG_MAX_OBSERVERS];
    void *state[MG_MAX_OBSERVERS];
    int n;
    /* rank 0: the table columns of them all, in order, and the row's cells */
    mg_cell_title *title;
    double *cell;
    int ncells;
    int wants_log; /* one of them wants the sample log */
};
typedef struct mg_observe_set mg_observe_set;

/* --per-rank was given (obs_per_rank.c's option; obs_samples.c reads it
 * too: every rank's own samples). */
int mg_obs_per_rank_on(const mg_ctx *ctx);

/* The observers' parsed options: params[i] belongs to obs[i] (those with
 * options, from a registry), made by the plan and kept for the run. */
typedef struct mg_observer_params {
    const mg_observer *obs[MG_MAX_OBSERVERS];
    void *params[MG_MAX_OBSERVERS];
    int n;
} mg_observer_params;

/* A block of params for every observer of list that has options: 0, or -1
 * (out of memory; p freed). */
int mg_observer_params_make(mg_observer_params *p, const mg_observer *const *list);
void mg_observer_params_free(mg_observer_params *p);
/* Their option tables (group "common") into tables: how many. */
size_t mg_observer_params_tables(mg_observer_params *p, mg_opt_table *tables);
/* o's parsed options, or NULL (none, or p NULL). */
const void *mg_observer_params_of(const mg_observer_params *p, const mg_observer *o);
/* o's parsed options in this run (ctx->drv.obs_params), or NULL: an
 * observer reads its own, or another's by its object. */
const void *mg_observe_params(const mg_ctx *ctx, const mg_observer *o);
/* The early phase of every observer in p that has one, in order: -1 when
 * the run goes on, else the first exit code (e set). */
int mg_observe_early(const mg_observer_params *p, mg_ctx *ctx, FILE *out, mg_early_error *e);
/* The first file an observer in p will write that the -o guard should
 * watch, or NULL. */
const char *mg_observe_guarded_file(const mg_observer_params *p);

/* Every registered observer's open, in registration order (collective):
 * MG_EXIT_OK, or MG_EXIT_USAGE with the lowest failing rank's message in
 * err on every rank. */
int mg_observe_open(mg_observe_set *set, const mg_observer *const *list, mg_ctx *ctx, char *err,
                    size_t errlen);
/* timed_begin (end 0) or timed_end (end 1, iters) of every joined observer;
 * set NULL: nothing. */
void mg_observe_timed(mg_observe_set *set, mg_ctx *ctx, int end, unsigned long long iters);
/* block (end 0: before a timed block, 1: after it, with its iterations) of
 * every joined observer that has one; set NULL: nothing. */
void mg_observe_block(mg_observe_set *set, mg_ctx *ctx, int end, unsigned long long iters);
/* row of every joined observer (collective), each inside an object of its
 * name in out and its cells in set->cell (rank 0's; the other ranks' out
 * is not written). */
void mg_observe_row(mg_observe_set *set, mg_ctx *ctx, const mg_row_view *v, mg_kvlist *out);
/* sweep of every joined observer (collective). */
void mg_observe_sweep(mg_observe_set *set, mg_ctx *ctx, int end, struct mg_sink *const *sink,
                      int nsinks);
/* finish of every joined observer (collective): 0, or -1 when one failed. */
int mg_observe_finish(mg_observe_set *set, mg_ctx *ctx);
void mg_observe_close(mg_observe_set *set, mg_ctx *ctx);

#endif
