/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal to the driver (mg_main): the state of one run and its stages.
 * The rooms of mpi/ (mpi/local.mk, doc/develop.md):
 *
 *   mpi/mg_bench.h  what a benchmark includes: descriptor, kernel context,
 *                   helpers, option macros
 *   driver/         the stages below and their one entry point
 *   observe/        the extension point (mg_observe.h) and the run-wide
 *                   features on it (obs_*.c, registered in mg_observers.c)
 *   transport/      the plain transport, the rails (mg_mr_*), derived types
 *   mpit/           MPI_T: cvars, pvars (mg_pvars.c, read by
 *                   observe/obs_pvars.c)
 *   record/         the run record: provenance (mg_prov) and the facts
 *                   recorded once per run, each a contributor (mg_facts)
 *   osu/            the OSU drop-in: translation and names (its table is
 *                   util/mg_report_osu.c)
 *
 * The stages, in driver/:
 *   config   mg_config.c   the common option rows and the policy (a leaf)
 *   plan     mg_plan.c     before MPI_Init: every option table parsed, the
 *                          form chosen, sizes parsed, usage decided (a const
 *                          mg_plan); after it, with the rank count: the
 *                          benchmark's options resolved (params.resolve)
 *                          then checked
 *   session  mg_session.c  communicator, topology, the transport (ctx->xfer:
 *                          plain or the rails), pairs, variants, buffers,
 *                          requests, calibration
 *   measure  mg_measure.c  one (size, variant): warm-up, timed samples (the
 *                          observers' timed phases around them), validation,
 *                          per-rank figures
 *   output   mg_output.c   the only stage that writes, through the sinks
 *                          (util/mg_sink.c: the table layouts, CSV, JSON
 *                          Lines, each a sink chosen once; the -o file is a
 *                          second JSON Lines sink, complete or absent): run
 *                          record (from the plain mg_prov and mg_run_info),
 *                          header, rows (with what the observers said),
 *                          the benchmark's summary, and errors; to the run's
 *                          streams (mg_run.io)
 *   sweep    mg_sweep.c    sizes x variants, each row to the observers and
 *                          the sinks
 *   driver   mg_driver.c   mg_main, and mg_run_stages: every stage after
 *                          MPI_Init in an injected environment (mg_env)
 */
#ifndef MG_RUN_H
#define MG_RUN_H

#include "mg_bench.h"
#include "mg_multirail.h"
#include "mg_observe.h"
#include "mg_osu.h"
#include "mg_outfile.h"
#include "mg_policy.h"
#include "mg_prov.h"
#include "mg_size.h"
#include "mg_turns.h"

#include <limits.h>
#include <stdio.h>

#define MG_ERRLEN 512
_Static_assert(MG_ERRLEN == MG_OUT_ERRLEN, "the -o file's messages are a run's messages");
#define MG_MAX_VARIANTS 1024
#define MG_CALL_BATCH 64
/* MG_CALL_BATCH: MG_TIME_CALL's calls per batch between decisions;
 * MG_MAX_BENCH_OPTS: rows of a benchmark's option table */
#define MG_MAX_BENCH_OPTS 64

/* Rank 0: the finished rows a benchmark's summary reads (kept only when it
 * has one), with their variant labels. */
typedef struct {
    mg_result *row;
    char (*label)[96];
    size_t n, cap;
} mg_rows;

/* Where a run writes: its results (standard output) and its messages
 * (standard error); mg_run_init sets the process's, a test its own. */
typedef struct {
    FILE *out, *err;
} mg_streams;

/* What the plan decides, before MPI_Init and without MPI: every option
 * table parsed, the form chosen, its defaults filled, the sizes parsed, the
 * usage checked as far as it does not depend on the rank count, and the
 * help text. mg_plan_make is its only writer; mg_main owns it and every
 * later stage reads it through mg_run.plan (const). */
typedef struct {
    const mg_bench *base; /* the program's descriptor */
    const mg_bench *b;    /* what runs: base, or &form_b */
    mg_form form;         /* what params.choose chose */
    mg_bench form_b;      /* base's identity and options with that form */
    mg_config cfg;
    void *params; /* the benchmark's options as parsed (base->params.params_size bytes) */
    unsigned char given[MG_MAX_BENCH_OPTS]; /* the benchmark's rows the command line gives */
    mg_sweep sweep;                         /* -m, or the form's default sweep */
    mg_rail_opts rails;
    mg_turns_spec turns; /* --turns, parsed (has_turns) */
    int has_turns;
    mg_pctl pctl; /* -z, parsed (pctl.n > 0) */
    int argc;
    char **argv;
    int failed; /* 1: a usage error in err; 2: an internal error */
    char err[MG_ERRLEN];
    char note[MG_ERRLEN]; /* rank 0 says it on standard error ("" none) */
    char *help;           /* --help / --version: the text rank 0 writes, or NULL */
    const mg_osu *osu;    /* started under an OSU name (mg_osu.h), or NULL */
    /* the registered observers' options (mg_observers), parsed with the
     * common ones */
    mg_observer_params obs;
} mg_plan;

typedef struct mg_env mg_env;

/* One run of the plan: the session's and the sweep's state. */
typedef struct mg_run {
    const mg_plan *plan;
    const mg_bench *b; /* plan->b */
    mg_streams io;
    mg_ctx ctx; /* ctx.params: the run's copy of plan->params, which resolve changes */
    /* the configuration the run record shows: the plan's, with the -M guard
     * the session used */
    mg_config rec_cfg;
    long variants[MG_MAX_VARIANTS];
    int nvariants;
    int *node_of, *partner_of;
    mg_prov prov;
    mg_out_file out;
    mg_sink own[2];   /* rank 0: standard output in the chosen format, the -o file */
    mg_sink *inject;  /* a sink the caller adds (a test's; NULL: none), fed like them */
    mg_sink *sink[3]; /* rank 0: the run's sinks (own ones, then the injected one) */
    int nsinks;
    mg_rows rows;
    /* the run-wide features that joined (mg_observe.h), and rank 0's copy of
     * what they said of the row being written */
    const mg_env *env; /* where the stages run (mg_run_stages) */
    mg_observe_set obs;
    mg_kvlist row_observed;
    /* rank 0: what the run record says, built by mg_output_begin */
    mg_run_info info;
    mg_opt_table info_tables[3]; /* the common tables, then the benchmark's */
    char (*info_variants)[96];
    mg_kvlist info_kernel;
    mg_rails *mr;    /* the session's rails (NULL: the benchmark takes no rails) */
    int rail_helper; /* this process serves a rail group (mg_multirail_serve) */
    int aborted;     /* the sweep ended on an agreed failure (ctx.drv.fail) */
} mg_run;

/* The measuring stages' clock: MPI_Wtime called directly (no indirect call
 * next to a timed block), or the fake clock of a one-process test. */
static inline double mg_now(const mg_ctx *ctx)
{
    return ctx->drv.clock.now_s == mg_wtime ? MPI_Wtime()
                                            : ctx->drv.clock.now_s(ctx->drv.clock.ctx);
}

/* --sync window's clock offsets over ctx->comm (mg_group_mpi.c). */
double mg_mpi_clock_offset(const mg_ctx *ctx, double *rtt_max_s);

/* Before MPI_Init, without MPI: the plan of program b for argv (an error
 * is kept in p->failed and p->err for mg_plan_report); osu: the OSU name it
 * was started under, or NULL. Exits on memory exhaustion. */
/* observers: the run's (mg_env.observers), whose options the plan parses
 * with the common ones. */
void mg_plan_make(mg_plan *p, const mg_bench *b, const mg_osu *osu,
                  const mg_observer *const *observers, int argc, char **argv);
void mg_plan_free(mg_plan *p);
/* A run of plan p: the context's parameters copied, the kernel state of the
 * chosen form, the rails prepared (before MPI_Init). */
void mg_run_init(mg_run *s, const mg_plan *p);
/* Free what the session allocated. */
void mg_run_release(mg_run *s);

/* plan */
void mg_config_default(mg_config *c);
int mg_json_requested(int argc, char **argv);
void mg_policy_from_config(const mg_config *c, double timer_overhead_s, double tick_s,
                           mg_policy_cfg *p);
/* p for one size: above MG_LARGE_SIZE, --iterations-large and --warmup-large
 * where given (OSU's split). */
mg_policy_cfg mg_policy_for_size(const mg_config *c, const mg_policy_cfg *p, uint64_t size);
/* After MPI_Init: the plan's usage error (rank 0 says it), or --help /
 * --version (*done = 1). */
int mg_plan_report(const mg_run *s, int *done);
/* The checks that need the rank count (after the rails' groups are known):
 * the ranks, then the benchmark's resolve (on the run's copy of its
 * options, ctx.params) and check. */
int mg_plan_check(mg_run *s);
/* Rank 0: a usage error (exit 2) through the run's streams and its sink of
 * standard output; every rank returns MG_EXIT_USAGE. With need_min >= 0 the
 * rank counts go with it (code "ranks"). */
int mg_run_usage(const mg_run *s, const char *msg);
int mg_run_usage_error(const mg_run *s, const char *code, const char *msg, int need_min,
                       int need_max);

/* session */
int *mg_topology(mg_ctx *ctx);
/* Rails: build them; *served = 1 when this process was a rail helper. */
int mg_session_rails(mg_run *s, int *served, int *rc);
/* Pairs, variants, kernel state. */
int mg_session_layout(mg_run *s);
/* Memory guard, -o file, buffers, requests, calibration, rail pairs. */
int mg_session_resources(mg_run *s);

/* measure: one (size, variant); rank 0 ends with the samples in root (and,
 * with log, their starts and iterations). */
mg_stop_reason mg_measure(const mg_bench *b, mg_ctx *ctx, uint64_t size, const mg_policy_cfg *pc,
                          double *mine, size_t cap, double *root, size_t *n_out, size_t *nmine_out,
                          unsigned long long *iters_out, mg_sample_log *log);
/* Every rank: 1 when the delivered data were right; a rank that saw wrong
 * data says where on err. */
int mg_validate(const mg_bench *b, mg_ctx *ctx, uint64_t size, FILE *err);
void mg_to_metric(const mg_bench *b, const mg_ctx *ctx, uint64_t size, double *x, size_t n);
void mg_gather_figures(const mg_bench *b, const mg_ctx *ctx, double *all);
void mg_gather_rank_medians(const mg_ctx *ctx, const double *mine, size_t n, double *all);
/* Whether the rows of b name their slowest and fastest rank: a benchmark
 * that can span more than a pair (its ranks each time their own loop). */
static inline int mg_names_ranks(const mg_bench *b) { return b->layout.max_ranks > 2; }
void mg_calibrate_compute(mg_ctx *ctx);

/* output */
void mg_output_begin(mg_run *s);
/* Rank 0: one row; -1 (nothing written) when the samples give no valid
 * statistics. */
int mg_output_row(mg_run *s, uint64_t size, double *samples, size_t n, unsigned long long iters,
                  mg_stop_reason why, int ok, const double *rank_median_s, mg_stats *st_out);
/* Rank 0: an error that ends the run on the run's standard error
 * ("mpigauge_NAME: error: MSG HINT") and through the sink of its standard
 * output (in JSON mode {"type":"error","code":CODE,"exit_code":...}, with the
 * rank counts when need_min >= 0; doc/output.md). Returns exit_code. */
int mg_run_error(const mg_run *s, const char *code, int exit_code, const char *msg,
                 const char *hint, int need_min, int need_max);
/* The same for a program without a run (mg_main_refuse). */
void mg_error_write(const mg_streams *io, int format, const mg_error_info *e, const char *hint);
/* The -o / --output value on the command line (for a run whose parse failed
 * before it), or NULL. */
const char *mg_output_requested(int argc, char **argv);
void mg_output_summary(mg_run *s);

/* The environment the stages run in, injected (as UCX perftest's
 * ucx_perf_run serves its tool and its tests): the MPI library's for the
 * programs (mg_env_mpi), a fake one for the one-process tests
 * (tests/unit/driver_fake.c). */
struct mg_env {
    /* the run's ranks: ctx's comm, rank, nranks, drv.group, drv.clock,
     * drv.clock_offset (and drv.usage: NULL reads the host's), s->node_of */
    void (*join)(mg_run *s, void *arg);
    /* the run record's facts: the library, the host, the environment */
    void (*prov)(mg_prov *p, const mg_ctx *ctx, void *arg);
    const mg_observer *const *observers; /* the run-wide features on offer */
    void *arg;
};
extern const mg_env mg_env_mpi;

/* Everything after MPI_Init and before MPI_Finalize, the tool's and the
 * one-process tests' alike: the ranks joined (env->join), --turns, the
 * plan reported, what the library lacks refused, rails, layout, the run
 * record's facts (env->prov), the observers (env->observers), then
 * mg_run_sweep. Returns the exit code. */
int mg_run_stages(mg_run *s, const mg_env *env);

/* After the session's MPI set-up (topology, rails, layout, provenance):
 * buffers and the -o file (mg_session_resources), the sweep through the
 * sinks, the -o file made complete. Reaches the other ranks only through
 * ctx->drv.group and reads time only through ctx->drv.clock (--sentinel and --turns
 * aside, which need MPI): it runs in one process with mg_group_solo and a
 * fake clock. Returns the exit code. */
int mg_run_sweep(mg_run *s);
/* The run-wide features of list that join this run (mg_observe.h), once
 * the run record's facts are collected (ctx.drv.prov); the exit code.
 * mg_run_sweep closes them. */
int mg_run_observe(mg_run *s, const mg_observer *const *list);

#endif
