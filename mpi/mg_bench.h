/* SPDX-License-Identifier: BSD-3-Clause */
/* What a benchmark includes (and the transport's headers, mpi/transport):
 * the one generic driver runs every benchmark as a descriptor, by mg_main.
 * The driver's internals (mpi/driver, observe, mpit, record, osu) are not for
 * benchmark code (tests/code_rules.sh).
 *
 * A benchmark supplies what is particular to it (rank limits, metric, size
 * limits, its own options, and a kernel that runs N iterations of the
 * pattern); the driver owns everything else: option parsing on every rank,
 * the size sweep, buffers and the memory guard, warm-up, the timed samples
 * and the iteration policy, statistics, gathering to rank 0, validation,
 * provenance and output.
 */
#ifndef MG_BENCH_H
#define MG_BENCH_H

#include "mg_arrival.h"
#include "mg_compute.h"
#include "mg_group.h"
#include "mg_json.h"
#include "mg_mpi.h"
#include "mg_noise.h"
#include "mg_opts.h"
#include "mg_policy.h"
#include "mg_report.h"
#include "mg_sink.h"
#include "mg_size.h"
#include "mg_stats.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    MG_METRIC_LATENCY,   /* microseconds per iteration x time_scale */
    MG_METRIC_BANDWIDTH, /* MB/s (10^6 bytes) of bytes_per_iter */
    /* A figure other than time (memory): the kernel adds its value per
     * iteration to ctx->sample_s (times_itself), reported x time_scale in
     * timing.unit; the rank with the largest is named the heaviest. */
    MG_METRIC_VALUE
} mg_metric;

enum { MG_LINKS_PAIRS = 0, MG_LINKS_RING, MG_LINKS_STAR };

typedef enum {
    MG_TIME_ROOT, /* the sample is rank 0's time */
    MG_TIME_MAX,  /* the sample is the maximum over ranks of their times */
    MG_TIME_CALL  /* a sample is one call (iterate with iters = 1), each rank timing
                   * its own; ranks are synchronised before every call (not timed)
                   * by --sync barrier (an MPI_Barrier, the default) or --sync
                   * window (a common start time on rank 0's clock, estimated per
                   * size with ping-pongs, minimum-RTT method; a sample in which a
                   * rank starts late is dropped and counted, ctx->late). The
                   * sample is the maximum over ranks (window: the latest end
                   * minus the common start). Samples reach rank 0 in batches
                   * between calls. The per-rank medians given to extras are of
                   * each rank's own call times (doc/measurement.md). */
} mg_time_mode;

/* --sync of MG_TIME_CALL benchmarks. */
enum { MG_SYNC_BARRIER = 0, MG_SYNC_WINDOW };

/* Options common to every program (filled from the command line). */
/* -M's default: this share of the node's memory, divided by its ranks. */
#define MG_MEMORY_SHARE_NUM 3
#define MG_MEMORY_SHARE_DEN 4
/* Above this size --iterations-large and --warmup-large apply (OSU's
 * LARGE_MESSAGE_SIZE). */
#define MG_LARGE_SIZE 8192
/* --sync window's automatic length is at least this (us). */
#define MG_SYNC_WINDOW_MIN_US 10

typedef struct {
    const char *sizes_spec; /* -m; NULL: the benchmark's default range */
    /* -i (iterations; 0: adaptive), -x (warmup_iters; -1: timed warm-up),
     * --precision, --time-budget, --min-samples, --max-samples: the option
     * rows write the measuring policy's own fields; the sweep completes it
     * with what the timer measured (mg_policy_from_config). */
    mg_policy_cfg policy;
    /* --iterations-large, --warmup-large: -i and -x for sizes above
     * MG_LARGE_SIZE (OSU's split); 0 and -1: as -i and -x */
    long iterations_large, warmup_large;
    int validate;            /* -c */
    uint64_t max_memory;     /* -M; 0: automatic */
    int format;              /* mg_format */
    int columns;             /* --columns: MG_COLUMNS_* (table, and CSV's validation) */
    const char *percentiles; /* -z LIST, or NULL */
    const char *output;      /* -o */
    int help, version;
    int mpi_library;          /* --mpi-library: print the loaded library, no MPI_Init */
    int osu_names;            /* --osu-names: print the OSU names (mg_osu.h), no MPI_Init */
    int sync;                 /* --sync (MG_TIME_CALL only): MG_SYNC_BARRIER or MG_SYNC_WINDOW */
    double sync_window_us;    /* --sync-window; 0: automatic */
    const char *arrival_spec; /* --arrival (MG_TIME_CALL only), or NULL */
    mg_arrival arrival;       /* --arrival as parsed by the plan (needs --sync window) */
    const char *noise_spec;   /* --noise (MG_TIME_CALL only), or NULL */
    mg_noise noise;           /* --noise as parsed by the plan */
    int no_cvars;             /* --no-cvars: the library's control variables are not read */
    const char *turns;        /* --turns NAME:ROLE:COUNT (mg_turns.h), or NULL */
    double turn_slice_s;      /* --turn-slice */
    double turn_timeout_s;    /* --turn-timeout */
} mg_config;

typedef struct mg_ctx mg_ctx;
struct mg_bench;
struct mg_host_usage;
struct mg_form;

/* The driver's own part of the context: how its measuring stages reach the
 * other ranks and read the time, and what it keeps for the run. Benchmark
 * code does not touch it (tests/code_rules.sh): it asks through
 * mg_ctx_given and mg_ctx_fail. */
typedef struct {
    /* The four calls over comm (mg_group_mpi) and MPI_Wtime, or a one-rank
     * fake and a fake clock in the unit tests. */
    mg_group group;
    mg_clock clock;
    /* --sync window: this rank's clock minus rank 0's, and (rank 0) the
     * largest round trip of the estimate (collective). */
    double (*clock_offset)(const mg_ctx *ctx, double *rtt_max_s);
    double compute_err_max; /* rank 0: the largest calibration error over ranks */
    struct mg_turns *turns; /* --turns: the group this launch takes turns in, or NULL */
    /* The run-wide features that joined this run (mg_observe.h), or NULL:
     * called right before a (size, variant)'s first timed sample and right
     * after its last, outside the timed blocks. */
    struct mg_observe_set *obs;
    /* The observers' parsed options (mg_observe_params), or NULL. */
    const struct mg_observer_params *obs_params;
    /* The run record's facts (rank 0's complete; mpi/record/mg_prov.h), once the
     * environment collected them: what an observer may read of them. */
    const struct mg_prov *prov;
    /* The descriptor the run runs (the chosen form) and the run's standard
     * error (what an observer says to the user goes there). */
    const struct mg_bench *bench;
    FILE *err;
    /* How the host's usage is read (getrusage; a fake in the one-process
     * tests, as the clock): 0, or -1 when it cannot be; NULL: getrusage. */
    int (*usage)(const mg_ctx *ctx, struct mg_host_usage *u);
    const mg_opt *opts;         /* the benchmark's option rows, and which of them the */
    const unsigned char *given; /* command line gives (mg_ctx_given) */
    /* A condition the user's settings cause, met by a kernel or the driver
     * on any rank (mg_ctx_fail): after this (size, variant) every rank stops
     * the sweep with exit 1, and rank 0 says the lowest failing rank's
     * message. Empty: nothing failed. */
    char fail[256];
} mg_ctx_driver;

/* What a kernel sees (and, in drv, the driver's own part). */
struct mg_ctx {
    MPI_Comm comm;
    int rank, nranks;
    int nnodes, local_rank, local_ranks;
    int thread_provided;        /* the thread level MPI provides (MPI_Query_thread) */
    const int *node_of;         /* node index (0..nnodes-1) of every rank */
    const int *partner_of;      /* partner of every rank (bench->layout.pairs), or NULL */
    int peer;                   /* this rank's partner, -1 when it has none */
    long variant;               /* current value of the benchmark's second sweep dimension */
    int variant_index;          /* its position in the variant list (0: the reference) */
    double ref_s;               /* the reference variant's median seconds per iteration at
                        * this size (all ranks); NaN while measuring it */
    const mg_stats *ref;        /* rank 0, in extras: the reference variant's statistics */
    int timed;                  /* 1 while the driver times samples, 0 in warm-up/validation */
    const double *rank_figures; /* rank 0, in extras: nranks x nfigures */
    int validating;             /* 1 during the driver's validation passes: leave payload alone */
    double sample_s;          /* bench->timing.times_itself: the kernel adds the timed part of each
                        * iteration here; zeroed by the driver before each sample */
    mg_compute_calib compute; /* bench->kernel.compute: this rank's calibrated busy loop */
    void *state;              /* bench->kernel.state_size bytes of kernel scratch, zeroed */
    mg_xfer xfer;             /* the session's transport (plain, or the rails of --rails) */
    void *sbuf, *rbuf;        /* page-aligned, max size each (times the bench's count) */
    size_t buf_bytes;         /* size of each of sbuf and rbuf */
    void *params;             /* the benchmark's own option struct */
    const struct mg_bench *base; /* the program's own descriptor (before params.choose) */
    /* The sizes the sweep measures, parsed once from -m (or the defaults)
     * by the plan before params.check runs; NULL before. */
    const mg_sweep *sizes;
    MPI_Request *reqs; /* bench->kernel.requests(ctx) requests for the kernel */
    const mg_config *cfg;
    /* MG_TIME_CALL, rank 0, in extras: samples of this (size, variant) dropped
     * because a rank started after its window (--sync window), and the window
     * length in seconds at the end (0 with --sync barrier). */
    unsigned long long late;
    double window_s;
    mg_ctx_driver drv;
};

typedef struct mg_bench_id {
    const char *name; /* "latency": program mpigauge_latency */
    /* The family the run record names, which the front-end files the
     * benchmark under (its dashboard's pages): "collective",
     * "onesided", "overlap"; NULL: "pt2pt". Set once in a family's
     * shared descriptor, so a new collective or RMA operation is filed
     * by its ops row alone. */
    const char *family;
    /* What the driver does for the program, as facts of the descriptor
     * (the driver never compares the family's name), set with the family:
     *   MG_FACT_NO_QUEUE_PVARS  its messages are not the point-to-point
     *                           traffic --pvars reads by default (the
     *                           library's matching queues): none by default
     *   MG_FACT_ALGORITHM       the library chooses an algorithm for the
     *                           operation: the run record's "algorithm" and
     *                           every row name the one that served it
     *   MG_FACT_ALONE           it measures its own launch (MPI's start, the
     *                           first message, the memory it takes): the
     *                           front-end never starts it beside another
     *                           launch, even taking turns (--mpi-library
     *                           says "runs_alone") */
    unsigned facts;
} mg_bench_id;

#define MG_FACT_NO_QUEUE_PVARS 1u
#define MG_FACT_ALGORITHM 2u
#define MG_FACT_ALONE 4u

typedef struct mg_bench_params {
    const mg_opt *opts; /* the benchmark's options over params, or NULL */
    size_t params_size;
    const void *params_default;
    /* Make the parsed options into what the kernel uses (a root rank, a
     * topology, a traffic matrix read from its file, a default that
     * depends on the form): the one hook that changes ctx->params. Runs
     * on every rank with the same inputs, after the rank count is known
     * and before check; 0, or -1 with a message when a value cannot be
     * resolved (a malformed spec, a file that cannot be read). An option
     * that does not apply is left as parsed, for check to refuse. */
    int (*resolve)(mg_ctx *ctx, char *err, size_t errlen);
    /* Check the (resolved) options and report what they do not allow; 0
     * or -EINVAL with a message. Reads ctx->params only. Pure: it runs
     * on every rank with the same inputs. */
    int (*check)(const mg_ctx *ctx, char *err, size_t errlen);
    /* Forms chosen by an option. When set, called on every rank right
     * after the options are parsed (before the rank, size and check
     * steps) with the program's descriptor and storage the driver owns
     * (out starts as base's form): writes the form to run into out and
     * returns 1, or returns 0 to run base itself. A form has no identity
     * or options (mg_form): those stay base's; it may differ in anything
     * else (layout, sizes, sweep, timing, kernel, ...) but the rails;
     * its labels may point into out->text and out->labels. Pure: no
     * state of its own. */
    int (*choose)(const mg_ctx *ctx, const struct mg_bench *base, struct mg_form *out);
    /* What this MPI library lacks for the chosen options (a message),
     * or NULL; called after MPI_Init on every rank: the program exits
     * with MG_EXIT_SKIP (77) and rank 0 says the message. */
    const char *(*unsupported)(const mg_ctx *ctx);
} mg_bench_params;

typedef struct mg_bench_layout {
    int min_ranks, max_ranks;
    /* Pairs: fill partner_of[rank] for every rank (-1: idle). Pure. The
     * run record then shows each pair's placement (same node or not,
     * bindings). */
    void (*pairs)(const mg_ctx *ctx, int *partner_of);
    /* Instead of pairs, the links whose placement the run record shows:
     * MG_LINKS_RING (r, r+1 mod P) or MG_LINKS_STAR (0, r) for every r. */
    int links;
    /* MPI_Init_thread's required level (MPI_THREAD_MULTIPLE for kernels
     * whose threads call MPI at once); 0 (MPI_THREAD_SINGLE): MPI_Init.
     * A library that provides less makes the program exit with
     * MG_EXIT_SKIP, saying what it provides. */
    int thread_level;
    /* Instead of MPI_Init / MPI_Init_thread (a program that measures
     * initialisation itself, startup): called once with the options
     * parsed (ctx->params) and the kernel state allocated (ctx->state,
     * where it may keep what it made or measured); it must initialise
     * MPI's world model at `required` (MPI_THREAD_SINGLE: MPI_Init). */
    void (*init)(mg_ctx *ctx, int *argc, char ***argv, int required);
} mg_bench_layout;

typedef struct mg_bench_sizes {
    uint64_t min_size, default_min_size, default_max_size;
    /* Why the default sweep starts at default_min_size, said when a
     * single -m (the largest size) is below it; NULL: no reason. */
    const char *default_min_why;
    /* 1: the benchmark has no message size at all (barrier): -m is
     * ignored with a note instead of sweeping the same call */
    int none;
} mg_bench_sizes;

/* A second sweep dimension: values (at most max) into values[], pure.
 * For every size each variant is measured in list order; the first is
 * the reference (ctx->ref_s, ctx->ref) for the others of that size. */
typedef struct mg_bench_sweep {
    const char *variant_name;
    int (*variants)(const mg_ctx *ctx, long *values, int max);
    const char *const *variant_labels; /* value -> label for enumerations, or NULL */
    /* Search: rank 0, after a variant of a size; nonzero skips the
     * remaining variants of that size (e.g. "the bandwidth has dropped"). */
    int (*variant_stop)(const mg_ctx *ctx, const mg_stats *st);
} mg_bench_sweep;

typedef struct mg_bench_timing {
    mg_metric metric;
    mg_time_mode time_mode;
    double time_scale; /* latency: seconds per iteration x this (0.5 = RTT/2) */
    const char *unit;  /* MG_METRIC_VALUE: the unit of its figure ("MiB") */
    /* Bytes moved per iteration (bandwidth metric). */
    double (*bytes_per_iter)(const mg_ctx *ctx, uint64_t size);
    /* The kernel times the part of each iteration that counts (for
     * example from a "go" message to the data's arrival, leaving out a
     * handshake that separates iterations) and adds it to ctx->sample_s;
     * the driver still owns the loop, the samples and the statistics. */
    int times_itself;
    /* Fewest iterations per sample (0: 1), for patterns whose iterations
     * overlap (a queue): a sample then spans several turnovers. */
    long min_block_iters;
    /* Fixed counts used when -i / -x are not given (0: the driver's
     * defaults, adaptive sampling and the timed warm-up), for kernels
     * whose resources grow with the iteration count. The run record
     * shows them. */
    long default_iterations, default_warmup;
} mg_bench_timing;

typedef struct mg_bench_kernel {
    /* Run `iters` iterations of the pattern with messages of `size` bytes. */
    void (*iterate)(mg_ctx *ctx, uint64_t size, long iters);
    /* Kernel scratch and hooks around the iterations of one size (untimed). */
    size_t state_size;
    void (*begin_size)(mg_ctx *ctx, uint64_t size);
    void (*end_size)(mg_ctx *ctx, uint64_t size);
    /* Bytes per buffer the kernel needs for messages of max_size. */
    size_t (*buf_bytes)(const mg_ctx *ctx, uint64_t max_size);
    /* Bytes of rbuf when it differs from sbuf's buf_bytes (NULL: the
     * same), e.g. a gather's root receives nranks blocks; the -M guard
     * counts buf_bytes + rbuf_bytes on every rank. */
    size_t (*rbuf_bytes)(const mg_ctx *ctx, uint64_t max_size);
    /* Number of MPI requests the kernel needs in ctx->reqs: a callback,
     * or a constant (the larger of the two counts). */
    size_t (*requests)(const mg_ctx *ctx);
    size_t nrequests;
    /* The benchmark computes: the driver calibrates mg_compute's loop
     * once per rank before measuring (ctx->compute) and writes the
     * calibration (rate, largest error over ranks) into the run record. */
    int compute;
    /* Memory the kernel allocates itself besides sbuf and rbuf for
     * messages of max_size (an RMA window), counted by the -M guard. */
    size_t (*other_bytes)(const mg_ctx *ctx, uint64_t max_size);
    /* Collective, every rank, after the buffers and before the run
     * record: objects the whole sweep uses (an RMA window over the
     * largest size); teardown frees them after the sweep, before the
     * buffers go. */
    void (*setup)(mg_ctx *ctx, uint64_t max_size);
    void (*teardown)(mg_ctx *ctx);
    /* MG_TIME_CALL: this rank sits the current size and variant out (a
     * collective on some of the ranks): its call times count as 0, so the
     * figure and the ranks named are those of the ranks that called. NULL:
     * every rank calls. */
    int (*idle)(const mg_ctx *ctx);
    /* This form posts plain MPI requests of its own (persistent ones):
     * --rails above 1 is refused for it. */
    int plain_calls;
    /* The multirail options (--rails, --rail-mode, ...;
     * mpi/transport/mg_multirail.h) apply: the kernel's messages go through
     * mg_xfer_* and sbuf/rbuf. */
    int rails;
} mg_bench_kernel;

/* Validation (-c). */
typedef struct mg_bench_valid {
    /* After one iteration, slot i (bytes [i x stride, i x stride + size)
     * of rbuf) holds the message of rank from[i]; returns the number of
     * slots (at most max), 0 when this rank receives no payload. */
    int (*recv_slots)(const mg_ctx *ctx, uint64_t size, int *from, int max);
    /* Send slots the kernel reads (filled with this rank's pattern); NULL: 1. */
    int (*send_slots)(const mg_ctx *ctx, uint64_t size);
    /* Bytes between the starts of two slots (NULL: size), for kernels
     * whose buffers are spaced out (for example page-aligned). */
    uint64_t (*slot_stride)(const mg_ctx *ctx, uint64_t size);
    /* Computed results instead of recv_slots' byte patterns: before each
     * of the two untimed passes every rank runs fill (inputs and poisoned
     * outputs for pass 0 or 1), after the one iteration verify, which
     * returns 0 or -1 with a message naming the rank, size, pass and
     * element. */
    void (*fill)(mg_ctx *ctx, uint64_t size, int pass);
    int (*verify)(mg_ctx *ctx, uint64_t size, int pass, char *err, size_t errlen);
} mg_bench_valid;

typedef struct mg_bench_report {
    /* What a form measures, as its output says it (a program's forms may
     * measure latency or bandwidth): one line, and the table column's title. */
    const char *description; /* what is measured, in which unit */
    const char *headline;    /* "Latency (us)" */
    /* Figures every rank reports after a (size, variant), gathered to
     * rank 0 for extras as ctx->rank_figures[rank * nfigures + i]. */
    int nfigures;
    void (*figures)(const mg_ctx *ctx, double *out);
    /* Further figures per result, computed on rank 0 from the statistics
     * (in the benchmark's unit) and every rank's median seconds per
     * iteration. Pure. */
    const char *const *extra_names; /* NULL-terminated, at most MG_MAX_EXTRA */
    void (*extras)(const mg_ctx *ctx, uint64_t size, const mg_stats *st,
                   const double *rank_median_s, double *out);
    /* Rank 0, after the whole sweep: conclusions drawn over all sizes
     * (e.g. a detected protocol switch) from the finished rows (sweep
     * order, every valid (size, variant)), as key-values the sink writes
     * (a summary record in JSON, "# " lines under a table). Pure. */
    void (*summary)(const mg_result *rows, size_t nrows, mg_kvlist *out);
    /* Rank 0, after setup: what the run record says of the kernel's own
     * objects (e.g. the window's flavour and memory model as the library
     * reports them), as key-values: members of the run record in JSON,
     * "# key: value" lines above a table. Pure. */
    void (*describe)(const mg_ctx *ctx, mg_kvlist *out);
} mg_bench_report;

/* A benchmark's descriptor, grouped by the phase that reads each part:
 * id and params by the plan (one parse before MPI_Init), layout by the
 * session, sizes and sweep by the sweep, timing and kernel by the measuring
 * stage, valid by validation, report by the output. A descriptor sets the
 * fields it needs with designators such as .kernel.iterate = f. */
typedef struct mg_bench {
    mg_bench_id id;
    mg_bench_params params;
    mg_bench_layout layout;
    mg_bench_sizes sizes;
    mg_bench_sweep sweep;
    mg_bench_timing timing;
    mg_bench_kernel kernel;
    mg_bench_valid valid;
    mg_bench_report report;
} mg_bench;

/* What params.choose chooses: a benchmark's form, every part of its
 * descriptor but its identity and options (id, params), which stay the
 * program's; and room the driver owns for the text of its variant labels. */
typedef struct mg_form {
    mg_bench_layout layout;
    mg_bench_sizes sizes;
    mg_bench_sweep sweep;
    mg_bench_timing timing;
    mg_bench_kernel kernel;
    mg_bench_valid valid;
    mg_bench_report report;
    char text[96];
    const char *labels[4];
} mg_form;

/* The form's groups, listed once: copied from src to dst. */
#define MG_FORM_COPY(dst, src)                                                                     \
    do {                                                                                           \
        (dst)->layout = (src)->layout;                                                             \
        (dst)->sizes = (src)->sizes;                                                               \
        (dst)->sweep = (src)->sweep;                                                               \
        (dst)->timing = (src)->timing;                                                             \
        (dst)->kernel = (src)->kernel;                                                             \
        (dst)->valid = (src)->valid;                                                               \
        (dst)->report = (src)->report;                                                             \
    } while (0)

/* The form parts of b into out (its text and labels left as they are). */
static inline void mg_form_take(mg_form *out, const mg_bench *b) { MG_FORM_COPY(out, b); }

/* The descriptor to run: base's identity and options with form f. */
static inline mg_bench mg_form_bench(const mg_bench *base, const mg_form *f)
{
    mg_bench b = *base;
    MG_FORM_COPY(&b, f);
    return b;
}

/* Busy computation for `seconds` (the calibrated loop of ctx->compute); with
 * test_interval_s > 0 it stops every test_interval_s to call MPI_Testall on
 * reqs[0..nreqs-1] (manual progress). Returns a value to keep the work
 * observable. */
uint64_t mg_ctx_compute(const mg_ctx *ctx, double seconds, double test_interval_s,
                        MPI_Request *reqs, int nreqs);

/* Rank 0, in extras: figure k of every rank's nfigures (report.figures)
 * over the ranks: the smallest, the mean and the largest of its finite
 * values; NaN in all three when no rank's is finite. */
typedef struct {
    double min, mean, max;
} mg_figure_span;
mg_figure_span mg_ctx_figure_over_ranks(const mg_ctx *c, int k, int nfigures);

/* Record a failure the user's settings caused (first message kept); the
 * kernel carries on harmlessly until the driver stops the sweep. */
void mg_ctx_fail(mg_ctx *ctx, const char *msg);

/* Variants from a list option, or from the defaults when it was not given. */
int mg_variants_from_list(const mg_list *given, const long *defaults, int ndefaults, long *values,
                          int max);

/* The same, with `ref` first (the reference) and not repeated after it. */
int mg_variants_ref_first(long ref, const mg_list *given, const long *defaults, int ndefaults,
                          long *values, int max);

/* The progress programs' delays (send_progress, recv_progress, rma_progress):
 * in us, or in % of the reference latency l_0 with --relative; 0, the
 * reference, first. */
#define MG_DELAYS_US 0, 10, 100, 1000
#define MG_DELAYS_PCT 0, 100, 200, 400, 800
int mg_variants_delays(const mg_list *given, int relative, long *values, int max);
/* At most 1 s, or 100 x l_0 with --relative, per delay: 0, or -1 with a
 * message. */
#define MG_DELAY_MAX_US 1000000L
#define MG_DELAY_MAX_PCT 10000L
int mg_delays_check(const mg_list *given, int relative, char *err, size_t errlen);
/* The --delays and --relative rows over fields of struct T; WHAT begins
 * the help ("delays", "rma_progress: target computation"). */
#define MG_OPT_DELAYS(T, delays, relative, what)                                                   \
    {.long_name = "delays",                                                                        \
     .type = MG_OPT_LIST,                                                                          \
     .offset = offsetof(T, delays),                                                                \
     .arg_name = "LIST",                                                                           \
     .help = what " in us (default " MG_STR(                                                       \
         MG_DELAYS_US) "; at most 1 s), or in % of l_0 with "                                      \
                       "--relative (default " MG_STR(                                              \
                           MG_DELAYS_PCT) "; at most 10000); 0 (the reference) "                   \
                                          "is always measured first",                              \
     .max = 1e9},                                                                                  \
    {                                                                                              \
        .long_name = "relative", .type = MG_OPT_FLAG, .offset = offsetof(T, relative),             \
        .help = "delays are percentages of the measured latency l_0"                               \
    }

/* Pairs formed by layout.pairs (partner_of[r] > r counts each once). */
static inline int mg_ctx_npairs(const mg_ctx *c)
{
    int n = 0;
    for (int r = 0; r < c->nranks; ++r)
        n += c->partner_of[r] > r;
    return n;
}

/* Whether a size may stop on precision: not under --turns, where the
 * launches of a group measure each size for its whole budget. */
static inline int mg_config_precision_rule(const mg_config *c) { return c->turns == NULL; }

/* The common option tables of benchmark b over c (the common one, and the
 * per-call one for MG_TIME_CALL): 1 or 2 entries of tables (mg_plan.c). */
size_t mg_config_tables(const mg_bench *b, mg_config *c, mg_opt_table *tables);

/* Whether the command line gives the benchmark's option --long_name (for
 * refusing an option that does nothing in the chosen form). */
int mg_ctx_given(const mg_ctx *c, const char *long_name);

/* "MPI_THREAD_MULTIPLE" for a thread level. */
const char *mg_thread_level_name(int level);
/* "root", "max" or "call": a time mode as the run record and the samples
 * file name it. */
const char *mg_time_mode_name(int mode);

/* "name=value" (or "name=label") of a variant value. */
void mg_bench_variant_label(const mg_bench *b, long v, char *buf, size_t len);

/* Run a benchmark: the whole program. Returns the process exit code. */
int mg_main(const mg_bench *bench, int argc, char **argv);
/* A program that cannot build its descriptor (mpigauge_coll NAME with an
 * unknown NAME): MPI_Init, rank 0 says msg as mpigauge_NAME's error (a JSON
 * record of `code` in JSON mode; a plain line for MG_EXIT_SKIP, which is not
 * an error), MPI_Finalize; returns exit_code. */
int mg_main_refuse(const char *name, const char *code, int exit_code, const char *msg, int argc,
                   char **argv);

/* The main of a program installed under many names (mpigauge_coll,
 * mpigauge_rma): started as mpigauge_NAME it runs NAME; as
 * mpigauge_PROGRAM ("coll"), "--list-names" lists them and "NAME ARGS" runs NAME;
 * anything else is a usage error naming `what` ("collective"). */
int mg_main_named(const char *program, const char *what, int (*run)(const char *, int, char **),
                  void (*list)(FILE *), int argc, char **argv);

#endif
