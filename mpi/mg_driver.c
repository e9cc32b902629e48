/* The generic driver: see mg_driver.h.
 *
 * Per size: barrier; warm-up chunks chosen by rank 0 and broadcast; the
 * policy (block size, plan) broadcast; timed samples, each one block of
 * iterations bracketed by MPI_Wtime with nothing else inside; at the policy's
 * checkpoints rank 0 decides whether to stop and broadcasts the decision
 * (outside the timed blocks). Raw samples are kept until the statistics are
 * computed on rank 0. Validation runs after the timed region.
 */
#include "mg_driver.h"

#include "config.h"
#include "mg_exit.h"
#include "mg_multirail.h"
#include "mg_pairing.h"
#include "mg_clocksync.h"
#include "mg_pattern.h"
#include "mg_policy.h"
#include "mg_prov.h"
#include "mg_report.h"
#include "mg_sentinel.h"
#include "mg_size.h"
#include "mg_stats.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ERRLEN 512

static const char *const format_names[] = {"table", "csv", "json", NULL};
static const char *const sync_names[] = {"barrier", "window", NULL};

/* Options of MG_TIME_CALL benchmarks (into mg_config). */
static const mg_opt call_opts[] = {
    {0, "sync", MG_OPT_CHOICE, offsetof(mg_config, sync), "barrier|window",
     "synchronise the ranks before every call: a barrier (default), or a common start time "
     "on rank 0's clock (late starts are dropped and counted)", 0, 0, sync_names},
    {0, "sync-window", MG_OPT_DOUBLE, offsetof(mg_config, sync_window_us), "US",
     "--sync window: window length in us (default: 2 x the warm-up's call time + 2 round "
     "trips, at least 10; doubled after a late start)", 1e-3, 1e6, NULL},
    {0, NULL, MG_OPT_END, 0, NULL, NULL, 0, 0, NULL}};

static const mg_opt common_opts[] = {
    {'m', "message-size", MG_OPT_STRING, offsetof(mg_config, sizes_spec), "[MIN:]MAX|LIST",
     "message sizes: powers of two from MIN to MAX, or a list like 8,64,1K,1M (K/M/G binary)",
     0, 0, NULL},
    {'i', "iterations", MG_OPT_LONG, offsetof(mg_config, iterations), "N",
     "fixed number of timed iterations per size (default: adaptive)", 1, 1e12, NULL},
    {'x', "warmup", MG_OPT_LONG, offsetof(mg_config, warmup), "N",
     "warm-up iterations per size (default: timed, 20 ms or 1000 iterations)", 0, 1e12, NULL},
    {0, "precision", MG_OPT_PERCENT, offsetof(mg_config, precision), "P%",
     "adaptive: stop when the median's 95% CI half-width is within P% (default 1%)", 1e-6, 0.5,
     NULL},
    {0, "time-budget", MG_OPT_DOUBLE, offsetof(mg_config, budget_s), "SECONDS",
     "adaptive: sampling time budget per size (default 1)", 1e-3, 86400, NULL},
    {0, "min-samples", MG_OPT_LONG, offsetof(mg_config, min_samples), "N",
     "adaptive: samples before the precision rule may stop (default 10)", 1, 1e7, NULL},
    {0, "max-samples", MG_OPT_LONG, offsetof(mg_config, max_samples), "N",
     "most samples per size (default 10000)", 1, 1e7, NULL},
    {'c', "validate", MG_OPT_FLAG, offsetof(mg_config, validate), NULL,
     "check delivered data for every size after timing (exit 1 on a mismatch)", 0, 0, NULL},
    {'M', "max-memory", MG_OPT_SIZE, offsetof(mg_config, max_memory), "SIZE",
     "refuse sizes whose buffers exceed SIZE per rank (default: 3/4 of node memory / ranks)",
     1, 281474976710656.0, NULL},
    {0, "format", MG_OPT_CHOICE, offsetof(mg_config, format), "table|csv|json",
     "what goes to standard output (default table)", 0, 0, format_names},
    {'o', "output", MG_OPT_STRING, offsetof(mg_config, output), "FILE",
     "also write JSON Lines (run record, results) to FILE, complete or not at all", 0, 0, NULL},
    {0, "sentinel", MG_OPT_FLAG, offsetof(mg_config, sentinel), NULL,
     "before and after the sweep: an 8-byte ping-pong probe, the computation rate and every "
     "node's load (JSON records of type sentinel)", 0, 0, NULL},
    {'h', "help", MG_OPT_FLAG, offsetof(mg_config, help), NULL, "show this help and exit", 0, 0,
     NULL},
    {'v', "version", MG_OPT_FLAG, offsetof(mg_config, version), NULL,
     "show the version and exit", 0, 0, NULL},
    {0, NULL, MG_OPT_END, 0, NULL, NULL, 0, 0, NULL}};

static void config_default(mg_config *c)
{
    mg_policy_cfg p;
    mg_policy_cfg_default(&p);
    memset(c, 0, sizeof *c);
    c->warmup = -1;
    c->precision = p.precision;
    c->budget_s = p.budget_s;
    c->min_samples = (long)p.min_samples;
    c->max_samples = (long)p.max_samples;
    c->format = MG_FORMAT_TABLE;
}

static void policy_from_config(const mg_config *c, double timer_overhead_s, double tick_s,
                               mg_policy_cfg *p)
{
    mg_policy_cfg_default(p);
    p->warmup_iters = c->warmup;
    p->iterations = c->iterations;
    p->precision = c->precision;
    p->budget_s = c->budget_s;
    p->min_samples = (size_t)c->min_samples;
    p->max_samples = (size_t)c->max_samples;
    /* a sample lasts >= 100 timer overheads (and ticks): overhead < 1% */
    p->min_sample_s = 100.0 * (timer_overhead_s > tick_s ? timer_overhead_s : tick_s);
    if (p->min_sample_s < 1e-6)
        p->min_sample_s = 1e-6;
}

static void print_help(const mg_bench *b, const mg_opt_table *tables, size_t nt)
{
    printf("Usage: mpirun -n %d mpigauge_%s [OPTIONS]\n%s\n\nOptions:\n",
           b->min_ranks, b->name, b->description);
    mg_opts_help(stdout, tables, nt);
    printf("\nExit codes: %d ok, %d measurement or validation failure, %d usage error,\n"
           "%d not applicable here, %d MPI or internal error.\n",
           MG_EXIT_OK, MG_EXIT_FAIL, MG_EXIT_USAGE, MG_EXIT_SKIP, MG_EXIT_INTERNAL);
}

/* All ranks reach the same verdict; rank 0 says why, on standard error and,
 * in JSON mode, as a record on standard output ({"type":"error"}, with the
 * rank counts when `code` is "ranks"; doc/output.md) so that a runner never
 * reads prose. need_min < 0: no counts. */
static int usage_error(const mg_ctx *ctx, const mg_bench *b, const char *code, const char *msg,
                       int need_min, int need_max)
{
    if (ctx->rank == 0) {
        fprintf(stderr, "mpigauge_%s: error: %s (see --help)\n", b->name, msg);
        fflush(stderr);
        if (ctx->cfg && ctx->cfg->format == MG_FORMAT_JSON) {
            mg_json j;
            mg_json_init(&j, stdout);
            mg_json_object_begin(&j, NULL);
            mg_json_string(&j, "type", "error");
            mg_json_string(&j, "code", code);
            mg_json_string(&j, "benchmark", b->name);
            mg_json_int(&j, "exit_code", MG_EXIT_USAGE);
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
    }
    return MG_EXIT_USAGE;
}

static int usage(const mg_ctx *ctx, const mg_bench *b, const char *msg)
{
    return usage_error(ctx, b, "usage", msg, -1, -1);
}

/* JSON mode is known before the options are parsed, so that an error in
 * them is still reported as a record. */
static int json_requested(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--format=json") == 0 ||
            (strcmp(argv[i], "--format") == 0 && i + 1 < argc && strcmp(argv[i + 1], "json") == 0))
            json = 1;
        else if (strncmp(argv[i], "--format", 8) == 0)
            json = 0;
    }
    return json;
}

static int all_true(int mine, MPI_Comm comm)
{
    int all = 0;
    MG_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm));
    return all;
}

static uint64_t default_memory_limit(int local_ranks)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t phys = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_C(1) << 32;
    return phys / 4 * 3 / (uint64_t)(local_ranks > 0 ? local_ranks : 1);
}

typedef struct {
    FILE *f;
    char *tmp_path;
} out_file;

/* Rank 0 opens a temporary file beside the target; every rank learns
 * whether that worked. */
static int out_open(out_file *o, const char *path, const mg_ctx *ctx, char *err)
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
            snprintf(err, ERRLEN, "cannot write output file '%s': %s", path, strerror(errno));
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
static int out_commit(out_file *o, const char *path)
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

/* Barrier, begin_size, warm-up chunks chosen by rank 0, calibration; every
 * rank ends with rank 0's policy. */
static void warm_up(const mg_bench *b, mg_ctx *ctx, uint64_t size, const mg_policy_cfg *pc,
                    mg_policy *out)
{
    mg_policy pol;
    mg_clock clk = {mg_wtime, NULL};

    MG_MPI_CHECK(MPI_Barrier(ctx->comm));
    if (b->begin_size)
        b->begin_size(ctx, size);
    if (ctx->rank == 0)
        mg_policy_begin(&pol, pc, clk);
    for (;;) {
        long chunk = 0;
        double t0;
        if (ctx->rank == 0)
            chunk = mg_policy_warmup_next(&pol);
        MG_MPI_CHECK(MPI_Bcast(&chunk, 1, MPI_LONG, 0, ctx->comm));
        if (chunk == 0)
            break;
        t0 = MPI_Wtime();
        b->iterate(ctx, size, chunk);
        if (ctx->rank == 0)
            mg_policy_warmup_record(&pol, chunk, MPI_Wtime() - t0);
    }
    if (ctx->rank == 0)
        mg_policy_calibrate(&pol, 0.0);
    MG_MPI_CHECK(MPI_Bcast(&pol, (int)sizeof pol, MPI_BYTE, 0, ctx->comm));
    *out = pol;
}

#define MG_CALL_BATCH 64
#define MG_SYNC_PROBES 16
#define MG_SYNC_TAG 28007
#define MG_WINDOW_MIN_S 10e-6 /* automatic window: at least 10 us */
#define MG_WINDOW_MAX_S 1.0
#define MG_LEAD_MIN_S 100e-6  /* first window of a batch: at least 100 us ahead */

/* --sync window: this rank's clock minus rank 0's, from MG_SYNC_PROBES
 * ping-pongs with rank 0 (the one with the smallest round trip,
 * util/mg_clocksync.h). Rank 0 serves the ranks in turn: O(nranks) messages
 * and memory. Rank 0 gets the largest chosen round trip in *rtt_max_s. */
static double sync_clocks(const mg_ctx *ctx, double *rtt_max_s)
{
    double off = 0.0;
    *rtt_max_s = 0.0;
    if (ctx->rank == 0) {
        for (int r = 1; r < ctx->nranks; ++r) {
            mg_clock_probe p[MG_SYNC_PROBES];
            double o = 0.0, rtt = 0.0;
            for (int k = 0; k < MG_SYNC_PROBES; ++k) {
                p[k].send_s = MPI_Wtime();
                MG_MPI_CHECK(MPI_Send(&p[k].send_s, 1, MPI_DOUBLE, r, MG_SYNC_TAG, ctx->comm));
                MG_MPI_CHECK(MPI_Recv(&p[k].remote_s, 1, MPI_DOUBLE, r, MG_SYNC_TAG, ctx->comm,
                                      MPI_STATUS_IGNORE));
                p[k].recv_s = MPI_Wtime();
            }
            mg_clock_offset(p, MG_SYNC_PROBES, &o, &rtt);
            MG_MPI_CHECK(MPI_Send(&o, 1, MPI_DOUBLE, r, MG_SYNC_TAG, ctx->comm));
            *rtt_max_s = fmax(*rtt_max_s, rtt);
        }
        return 0.0;
    }
    for (int k = 0; k < MG_SYNC_PROBES; ++k) {
        double t;
        MG_MPI_CHECK(MPI_Recv(&t, 1, MPI_DOUBLE, 0, MG_SYNC_TAG, ctx->comm, MPI_STATUS_IGNORE));
        t = MPI_Wtime();
        MG_MPI_CHECK(MPI_Send(&t, 1, MPI_DOUBLE, 0, MG_SYNC_TAG, ctx->comm));
    }
    MG_MPI_CHECK(MPI_Recv(&off, 1, MPI_DOUBLE, 0, MG_SYNC_TAG, ctx->comm, MPI_STATUS_IGNORE));
    return off;
}

/* What rank 0 broadcasts before each batch of MG_TIME_CALL samples. */
typedef struct {
    double start_s;  /* --sync window: start of the first window, rank 0's clock */
    double window_s; /* window length */
    long k;          /* calls in this batch */
    int stop;        /* mg_stop_reason: no more batches */
} call_plan;

/* MG_TIME_CALL sampling (see mg_driver.h): every rank keeps its own call
 * times in mine[0..cap) (*nmine_out of them); rank 0 gets the valid samples,
 * the maximum over ranks of each call, in root. */
static mg_stop_reason measure_calls(const mg_bench *b, mg_ctx *ctx, uint64_t size,
                                    const mg_policy_cfg *pc, mg_policy *pol, double *mine,
                                    size_t cap, double *root, size_t *n_out, size_t *nmine_out)
{
    const int window = ctx->cfg->sync == MG_SYNC_WINDOW;
    const double est_s = pol->warm_last_chunk > 0 ? pol->warm_last_s / (double)pol->warm_last_chunk
                                                   : 0.0;
    double offset_s = 0.0, rtt_s = 0.0, batch[MG_CALL_BATCH], red[MG_CALL_BATCH];
    call_plan plan = {0.0, 0.0, 0, MG_STOP_NONE};
    size_t n = 0, m = 0;

    ctx->late = 0;
    if (window)
        offset_s = sync_clocks(ctx, &rtt_s);
    if (window && ctx->cfg->sync_window_us > 0.0)
        plan.window_s = ctx->cfg->sync_window_us * 1e-6;
    else if (window)
        plan.window_s = fmax(2.0 * est_s + 2.0 * rtt_s, MG_WINDOW_MIN_S);
    ctx->timed = 1;
    for (;;) {
        if (ctx->rank == 0) {
            size_t want = (pc->iterations > 0 ? (size_t)pc->iterations : pc->max_samples) - n;
            if (m > 0)
                plan.stop = (int)mg_policy_check(pol, root, n);
            if (plan.stop == MG_STOP_NONE && m + 1 > cap)
                plan.stop = MG_STOP_CAP;
            plan.k = (long)(want < pol->check_every ? want : pol->check_every);
            if (plan.k > MG_CALL_BATCH)
                plan.k = MG_CALL_BATCH;
            if ((size_t)plan.k > cap - m)
                plan.k = (long)(cap - m);
            if (plan.k < 1)
                plan.k = 1;
            /* room for the broadcast of this plan to reach every rank */
            plan.start_s = MPI_Wtime() + fmax(4.0 * plan.window_s + 8.0 * rtt_s, MG_LEAD_MIN_S);
        }
        MG_MPI_CHECK(MPI_Bcast(&plan, (int)sizeof plan, MPI_BYTE, 0, ctx->comm));
        if (plan.stop != MG_STOP_NONE)
            break;
        for (long j = 0; j < plan.k; ++j) {
            double t0, t1;
            if (window) {
                const double start = plan.start_s + (double)j * plan.window_s;
                int late;
                t0 = MPI_Wtime() - offset_s;
                late = t0 > start;
                while (t0 < start)
                    t0 = MPI_Wtime() - offset_s;
                b->iterate(ctx, size, 1);
                t1 = MPI_Wtime() - offset_s;
                batch[j] = late ? INFINITY : t1 - start;
            } else {
                MG_MPI_CHECK(MPI_Barrier(ctx->comm));
                t0 = MPI_Wtime();
                b->iterate(ctx, size, 1);
                t1 = MPI_Wtime();
                batch[j] = t1 - t0;
            }
            mine[m + (size_t)j] = t1 - t0;
        }
        m += (size_t)plan.k;
        MG_MPI_CHECK(MPI_Reduce(batch, red, (int)plan.k, MPI_DOUBLE, MPI_MAX, 0, ctx->comm));
        if (ctx->rank == 0) {
            unsigned long long late = 0;
            for (long j = 0; j < plan.k; ++j) {
                if (isfinite(red[j]))
                    root[n++] = red[j];
                else
                    late++;
            }
            /* a late start: the window was too short for this size */
            if (late > 0)
                plan.window_s = fmin(2.0 * plan.window_s, MG_WINDOW_MAX_S);
            ctx->late += late;
        }
    }
    ctx->timed = 0;
    ctx->window_s = plan.window_s;
    if (b->end_size)
        b->end_size(ctx, size);
    if (ctx->rank == 0 && n == 0)
        mg_mpi_die(__FILE__, __LINE__, "every call started after its window (--sync window): "
                                       "give a longer --sync-window");
    *n_out = n;
    *nmine_out = m;
    return (mg_stop_reason)plan.stop;
}

/* Timed sampling of one size; rank 0 ends with the samples (s per iter) in
 * root, every rank with its own in mine (*nmine_out of them). */
static mg_stop_reason measure(const mg_bench *b, mg_ctx *ctx, uint64_t size,
                              const mg_policy_cfg *pc, double *mine, size_t cap, double *root,
                              size_t *n_out, size_t *nmine_out, unsigned long long *iters_out)
{
    mg_policy pol;
    unsigned long long iters = 0;
    size_t n = 0;
    int stop = MG_STOP_NONE, is_max = b->time_mode == MG_TIME_MAX;
    double *use = ctx->rank == 0 && !is_max ? mine : root;

    warm_up(b, ctx, size, pc, &pol);
    if (b->time_mode == MG_TIME_CALL) {
        mg_stop_reason why = measure_calls(b, ctx, size, pc, &pol, mine, cap, root, n_out,
                                           nmine_out);
        *iters_out = *n_out;
        return why;
    }
    ctx->timed = 1;
    for (size_t i = 0;; ++i) {
        long bi = mg_policy_block_iters(&pol, i);
        double t0, t1;
        if (bi == 0) {
            stop = pc->iterations > 0 ? MG_STOP_FIXED : MG_STOP_CAP;
            break;
        }
        ctx->sample_s = 0.0;
        t0 = MPI_Wtime();
        b->iterate(ctx, size, bi);
        t1 = MPI_Wtime();
        mine[i] = (b->times_itself ? ctx->sample_s : t1 - t0) / (double)bi;
        iters += (unsigned long long)bi;
        n = i + 1;
        if (mg_policy_is_checkpoint(&pol, n)) {
            if (is_max)
                MG_MPI_CHECK(MPI_Reduce(mine, root, (int)n, MPI_DOUBLE, MPI_MAX, 0, ctx->comm));
            if (ctx->rank == 0)
                stop = (int)mg_policy_check(&pol, use, n);
            MG_MPI_CHECK(MPI_Bcast(&stop, 1, MPI_INT, 0, ctx->comm));
            if (stop != MG_STOP_NONE)
                break;
        }
    }
    ctx->timed = 0;
    if (b->end_size)
        b->end_size(ctx, size);
    if (is_max)
        MG_MPI_CHECK(MPI_Reduce(mine, root, (int)n, MPI_DOUBLE, MPI_MAX, 0, ctx->comm));
    else if (ctx->rank == 0)
        memcpy(root, mine, n * sizeof *mine);
    *n_out = n;
    *nmine_out = n;
    *iters_out = iters;
    return (mg_stop_reason)stop;
}

/* Fill buf with the bitwise complement of the pattern: every byte differs
 * from what a correct delivery writes. */
static void poison(void *buf, size_t len, uint64_t seed)
{
    unsigned char *p = buf;
    mg_pattern_fill(buf, len, seed);
    for (size_t i = 0; i < len; ++i)
        p[i] = (unsigned char)~p[i];
}

#define MG_MAX_SLOTS 4096

/* Run `iters` iterations of one size with the benchmark's hooks around them. */
static void run_iters(const mg_bench *b, mg_ctx *ctx, uint64_t size, long iters)
{
    if (b->begin_size)
        b->begin_size(ctx, size);
    b->iterate(ctx, size, iters);
    if (b->end_size)
        b->end_size(ctx, size);
}

/* One untimed iteration with known data, twice (different patterns, so a
 * stale buffer cannot pass). Every send slot holds the sender's pattern;
 * every receive slot is poisoned with the complement of what it must get.
 * Returns 1 if every rank saw correct data. */
static int validate(const mg_bench *b, mg_ctx *ctx, uint64_t size)
{
    int ok = 1, from[MG_MAX_SLOTS];
    const uint64_t stride = b->slot_stride ? b->slot_stride(ctx, size) : size;
    for (uint64_t v = 0; v < 2 && b->verify; ++v) {
        char msg[ERRLEN];
        b->fill(ctx, size, (int)v);
        MG_MPI_CHECK(MPI_Barrier(ctx->comm));
        ctx->validating = 1;
        run_iters(b, ctx, size, 1);
        ctx->validating = 0;
        if (b->verify(ctx, size, (int)v, msg, sizeof msg) != 0) {
            fprintf(stderr, "mpigauge_%s: validation failed: %s\n", b->name, msg);
            ok = 0;
        }
    }
    for (uint64_t v = 0; v < 2 && !b->verify; ++v) {
        int nrecv = b->recv_slots ? b->recv_slots(ctx, size, from, MG_MAX_SLOTS) : 0;
        int nsend = b->send_slots ? b->send_slots(ctx, size) : 1;
        unsigned char *sb = ctx->sbuf, *rb = ctx->rbuf;
        for (int i = 0; i < nsend; ++i)
            mg_pattern_fill(sb + (size_t)i * stride, size, mg_pattern_seed(ctx->rank, size, v));
        for (int i = 0; i < nrecv; ++i)
            poison(rb + (size_t)i * stride, size, mg_pattern_seed(from[i], size, v));
        MG_MPI_CHECK(MPI_Barrier(ctx->comm));
        ctx->validating = 1;
        run_iters(b, ctx, size, 1);
        ctx->validating = 0;
        for (int i = 0; i < nrecv; ++i) {
            size_t bad = 0;
            uint64_t seed = mg_pattern_seed(from[i], size, v);
            const unsigned char *slot = rb + (size_t)i * stride;
            if (mg_pattern_check(slot, size, seed, &bad) != 0) {
                fprintf(stderr,
                        "mpigauge_%s: validation failed: rank %d, size %llu, pass %llu, "
                        "message from rank %d (slot %d): first bad byte at offset %zu "
                        "(expected 0x%02x, got 0x%02x)\n",
                        b->name, ctx->rank, (unsigned long long)size, (unsigned long long)v,
                        from[i], i, bad, mg_pattern_byte(seed, bad), slot[bad]);
                ok = 0;
                break;
            }
        }
    }
    return all_true(ok, ctx->comm);
}

static void to_metric(const mg_bench *b, const mg_ctx *ctx, uint64_t size, double *x, size_t n)
{
    if (b->metric == MG_METRIC_LATENCY) {
        for (size_t i = 0; i < n; ++i)
            x[i] = x[i] * b->time_scale * 1e6;
    } else {
        double bytes = b->bytes_per_iter ? b->bytes_per_iter(ctx, size) : (double)size;
        for (size_t i = 0; i < n; ++i)
            x[i] = bytes / x[i] / 1e6;
    }
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

/* The benchmark's per-rank figures, gathered to rank 0. */
static void gather_figures(const mg_bench *b, const mg_ctx *ctx, double *all)
{
    double mine[MG_MAX_EXTRA + 1] = {0};
    int n = b->nfigures < MG_MAX_EXTRA ? b->nfigures : MG_MAX_EXTRA;
    b->figures(ctx, mine);
    MG_MPI_CHECK(MPI_Gather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, ctx->comm));
}

uint64_t mg_ctx_compute(const mg_ctx *ctx, double seconds, double test_interval_s,
                        MPI_Request *reqs, int nreqs)
{
    uint64_t sink = 0;
    double left = seconds;
    if (!(seconds > 0.0) || !isfinite(seconds))
        return 0;
    while (left > 0.0) {
        double chunk = test_interval_s > 0.0 && test_interval_s < left ? test_interval_s : left;
        sink += mg_compute_spin(mg_compute_units(&ctx->compute, chunk), sink + 1);
        left -= chunk;
        if (test_interval_s > 0.0 && nreqs > 0 && left > 0.0)
            (void)mg_xfer_testall(nreqs, reqs);
    }
    return sink;
}

/* Every rank calibrates its busy loop (10 ms runs, 5 repeats); rank 0 gets
 * the largest calibration error. */
static void calibrate_compute(mg_ctx *ctx)
{
    mg_clock clk = {mg_wtime, NULL};
    if (mg_compute_calibrate(&ctx->compute, clk, mg_compute_spin, 0.01, 5) != 0)
        mg_mpi_die(__FILE__, __LINE__, "cannot calibrate the computation: MPI_Wtime stands still");
    MG_MPI_CHECK(MPI_Reduce(&ctx->compute.rel_error, &ctx->compute_err_max, 1, MPI_DOUBLE,
                            MPI_MAX, 0, ctx->comm));
}

int mg_variants_from_list(const mg_list *given, const long *defaults, int ndefaults,
                          long *values, int max)
{
    const long *v = given->n ? given->v : defaults;
    int n = given->n ? given->n : ndefaults;
    if (n > max)
        n = max;
    memcpy(values, v, (size_t)n * sizeof *values);
    return n;
}

int mg_variants_ref_first(long ref, const mg_list *given, const long *defaults, int ndefaults,
                          long *values, int max)
{
    long listed[MG_LIST_MAX];
    int n = mg_variants_from_list(given, defaults, ndefaults, listed, MG_LIST_MAX), k = 1;
    values[0] = ref;
    for (int i = 0; i < n && k < max; ++i)
        if (listed[i] != ref)
            values[k++] = listed[i];
    return k;
}

/* Every rank's median seconds per iteration, gathered to rank 0 (for the
 * benchmark's extras: per-pair or per-rank figures). */
static void gather_rank_medians(const mg_ctx *ctx, const double *mine, size_t n, double *all)
{
    mg_stats st;
    double med = 0.0;
    if (n > 0 && mg_stats_compute(mine, n, &st) == 0)
        med = st.median;
    MG_MPI_CHECK(MPI_Gather(&med, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, ctx->comm));
}

#define MG_MAX_VARIANTS 1024

typedef struct {
    const mg_bench *b;
    mg_ctx ctx;
    mg_config cfg;
    mg_sweep sweep;
    long variants[MG_MAX_VARIANTS];
    int nvariants;
    int *node_of, *partner_of;
    mg_prov prov;
    out_file out;
    mg_rail_opts rails;
    int rail_helper; /* this process serves a rail group (mg_multirail_serve) */
} run_state;

void mg_bench_variant_label(const mg_bench *b, long v, char *buf, size_t len)
{
    if (b->variant_labels)
        snprintf(buf, len, "%s=%s", b->variant_name, b->variant_labels[v]);
    else
        snprintf(buf, len, "%s=%ld", b->variant_name, v);
}

/* Rank 0: statistics, extras and the output of one (size, variant); the
 * statistics go to *st_out. */
static void report_size(run_state *s, uint64_t size, double *samples, size_t n,
                        unsigned long long iters, mg_stop_reason why, int ok,
                        const double *rank_median_s, mg_stats *st_out)
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
    to_metric(b, &s->ctx, size, samples, n);
    if (mg_stats_compute(samples, n, &r.stats) != 0)
        mg_mpi_die(__FILE__, __LINE__, "no valid samples");
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
}

static int run_sizes(run_state *s, int argc, char **argv)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;
    mg_policy_cfg pc;
    double *mine, *root, *rank_med = NULL, *figs = NULL;
    size_t cap;
    int rc = MG_EXIT_OK;
    mg_table_meta meta = {b->name, b->description, b->headline, MG_VERSION_STRING,
                          b->extras ? b->extra_names : NULL, b->variant_name};

    policy_from_config(&s->cfg, s->prov.timer_overhead_s, s->prov.timer_resolution_s, &pc);
    if (b->min_block_iters > 1)
        pc.min_block_iters = b->min_block_iters;
    cap = pc.max_samples;
    if (b->time_mode == MG_TIME_CALL) {
        /* a sample is one call: blocks of 1, room for -i N samples and for
         * late (dropped) calls besides them */
        pc.min_sample_s = 0.0;
        if (pc.iterations > 0 && (size_t)pc.iterations > pc.max_samples)
            pc.max_samples = (size_t)pc.iterations;
        cap = 2 * pc.max_samples + MG_CALL_BATCH;
    }
    mine = malloc(cap * sizeof *mine);
    root = malloc(pc.max_samples * sizeof *root);
    if (ctx->rank == 0) {
        rank_med = malloc((size_t)ctx->nranks * sizeof *rank_med);
        figs = malloc((size_t)ctx->nranks * (size_t)(b->nfigures + 1) * sizeof *figs);
    }
    if (!mine || !root || (ctx->rank == 0 && (!rank_med || !figs)))
        mg_mpi_die(__FILE__, __LINE__, "out of memory for samples");

    if (ctx->rank == 0) {
        if (s->cfg.format == MG_FORMAT_TABLE)
            mg_prov_write_comment(stdout, &s->prov);
        if (s->cfg.format == MG_FORMAT_JSON)
            mg_prov_write(stdout, &s->prov, b, &s->cfg, ctx, &s->sweep, s->variants,
                          s->nvariants, argc, argv);
        mg_report_header(stdout, (mg_format)s->cfg.format, &meta);
        if (s->out.f)
            mg_prov_write(s->out.f, &s->prov, b, &s->cfg, ctx, &s->sweep, s->variants,
                          s->nvariants, argc, argv);
        fflush(stdout);
    }
    if (s->cfg.sentinel)
        mg_sentinel_take(ctx, "before", s->cfg.format == MG_FORMAT_JSON ? stdout : NULL, s->out.f);
    for (size_t k = 0; k < s->sweep.n; ++k) {
        uint64_t size = s->sweep.sizes_bytes[k];
        mg_stats ref;
        ctx->ref_s = NAN;
        ctx->ref = NULL;
        for (int v = 0; v < s->nvariants; ++v) {
            size_t n = 0, nmine = 0;
            unsigned long long iters = 0;
            mg_stop_reason why;
            mg_stats st;
            int ok, stop = 0;
            ctx->variant = s->variants[v];
            ctx->variant_index = v;
            why = measure(b, ctx, size, &pc, mine, cap, root, &n, &nmine, &iters);
            if (b->extras)
                gather_rank_medians(ctx, mine, nmine, rank_med);
            if (b->figures)
                gather_figures(b, ctx, figs);
            ok = s->cfg.validate ? validate(b, ctx, size) : 1;
            if (!ok)
                rc = MG_EXIT_FAIL;
            if (ctx->rank == 0) {
                double ref_s = 0.0;
                if (v == 0) {
                    mg_stats raw;
                    if (mg_stats_compute(root, n, &raw) == 0)
                        ref_s = raw.median;
                }
                ctx->rank_figures = figs;
                report_size(s, size, root, n, iters, why, ok, rank_med, &st);
                if (v == 0) {
                    ref = st;
                    ctx->ref = &ref;
                    ctx->ref_s = ref_s;
                }
                stop = b->variant_stop && v + 1 < s->nvariants && b->variant_stop(ctx, &st);
            }
            if (v == 0)
                MG_MPI_CHECK(MPI_Bcast(&ctx->ref_s, 1, MPI_DOUBLE, 0, ctx->comm));
            if (b->variant_stop) {
                MG_MPI_CHECK(MPI_Bcast(&stop, 1, MPI_INT, 0, ctx->comm));
                if (stop)
                    break;
            }
        }
    }
    if (s->cfg.sentinel)
        mg_sentinel_take(ctx, "after", s->cfg.format == MG_FORMAT_JSON ? stdout : NULL, s->out.f);
    if (ctx->rank == 0 && b->summary) {
        if (s->cfg.format == MG_FORMAT_TABLE)
            b->summary(ctx, NULL, stdout);
        else if (s->cfg.format == MG_FORMAT_JSON)
            write_summary(b, ctx, stdout);
        if (s->out.f)
            write_summary(b, ctx, s->out.f);
        fflush(stdout);
    }
    free(figs);
    free(mine);
    free(root);
    free(rank_med);
    if (ctx->rank == 0 && rc != MG_EXIT_OK)
        fprintf(stderr, "mpigauge_%s: validation failed (see the messages above)\n", b->name);
    return rc;
}

/* Which node every rank is on (nodes numbered in order of their lowest
 * rank), from MPI_Comm_split_type; O(nranks) per rank. */
static int *topology(mg_ctx *ctx)
{
    MPI_Comm node;
    int leader = ctx->rank, *leaders, *node_of;

    MG_MPI_CHECK(MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL,
                                     &node));
    MG_MPI_CHECK(MPI_Comm_rank(node, &ctx->local_rank));
    MG_MPI_CHECK(MPI_Comm_size(node, &ctx->local_ranks));
    MG_MPI_CHECK(MPI_Bcast(&leader, 1, MPI_INT, 0, node));
    MG_MPI_CHECK(MPI_Comm_free(&node));
    leaders = malloc((size_t)ctx->nranks * sizeof *leaders);
    node_of = malloc((size_t)ctx->nranks * sizeof *node_of);
    if (!leaders || !node_of)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    MG_MPI_CHECK(MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, ctx->comm));
    ctx->nnodes = 0;
    for (int r = 0; r < ctx->nranks; ++r)
        node_of[r] = leaders[r] == r ? ctx->nnodes++ : node_of[leaders[r]];
    free(leaders);
    ctx->node_of = node_of;
    return node_of;
}

/* Everything after MPI_Init and before MPI_Finalize. */
static int run(run_state *s, int argc, char **argv)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;
    mg_opt_table tables[4];
    size_t nt = 0;
    char err[ERRLEN];
    mg_policy_cfg pc;
    uint64_t max_size, need, limit;
    size_t rbytes;
    int rc;

    tables[nt++] = (mg_opt_table){common_opts, &s->cfg};
    if (b->time_mode == MG_TIME_CALL)
        tables[nt++] = (mg_opt_table){call_opts, &s->cfg};
    if (b->opts)
        tables[nt++] = (mg_opt_table){b->opts, ctx->params};
    if (b->rails)
        tables[nt++] = (mg_opt_table){mg_rail_optdefs, &s->rails};
    if (mg_opts_parse(tables, nt, argc, argv, err, sizeof err) != 0)
        return usage(ctx, b, err);
    if (s->cfg.help || s->cfg.version) {
        if (ctx->rank == 0 && s->cfg.help)
            print_help(b, tables, nt);
        else if (ctx->rank == 0)
            printf("mpigauge_%s %s\n", b->name, MG_VERSION_STRING);
        return MG_EXIT_OK;
    }
    if (b->choose) {
        const mg_bench *form = b->choose(ctx);
        if (form != NULL && form != b) {
            if (form->opts != b->opts || form->params_size != b->params_size)
                mg_mpi_die(__FILE__, __LINE__, "choose returned a form with other options");
            s->b = b = form;
        }
    }
    if (b->rails) {
        MPI_Comm bc;
        if (mg_multirail_setup(&s->rails, b->max_ranks, ctx->comm, &bc, &s->rail_helper, err,
                               sizeof err) != 0)
            return usage(ctx, b, err);
        if (s->rail_helper)
            return mg_multirail_serve();
        if (bc != ctx->comm) {
            /* the benchmark runs on the rail groups' first processes */
            ctx->comm = bc;
            MG_MPI_CHECK(MPI_Comm_rank(bc, &ctx->rank));
            MG_MPI_CHECK(MPI_Comm_size(bc, &ctx->nranks));
            free(s->node_of);
            s->node_of = topology(ctx);
            mg_xfer_init(&ctx->xfer, bc);
        }
        if (mg_multirail_active()) {
            ctx->xfer.rails = 1;
            ctx->xfer.fast_max = s->rails.mode == MG_RAIL_BIND ? 0 : (size_t)s->rails.threshold;
        }
    }
    if (s->cfg.iterations == 0)
        s->cfg.iterations = b->default_iterations;
    if (s->cfg.warmup < 0 && b->default_warmup > 0)
        s->cfg.warmup = b->default_warmup;
    if (ctx->nranks < b->min_ranks || ctx->nranks > b->max_ranks) {
        char rails[160] = "";
        if (b->rails && mg_multirail_groups() > 1)
            snprintf(rails, sizeof rails, " (benchmark ranks: with --rails %d --rail-steer "
                     "process every benchmark rank takes %d processes of its node)",
                     mg_multirail_groups(), mg_multirail_groups());
        if (b->min_ranks == b->max_ranks)
            snprintf(err, sizeof err, "needs exactly %d ranks, got %d%s", b->min_ranks,
                     ctx->nranks, rails);
        else
            snprintf(err, sizeof err, "needs %d to %d ranks, got %d%s", b->min_ranks,
                     b->max_ranks, ctx->nranks, rails);
        return usage_error(ctx, b, "ranks", err, b->min_ranks, b->max_ranks);
    }
    {
        char spec[64], msg[ERRLEN - 32];
        const char *text = s->cfg.sizes_spec;
        if (text == NULL) {
            snprintf(spec, sizeof spec, "%llu:%llu", (unsigned long long)b->default_min_size,
                     (unsigned long long)b->default_max_size);
            text = spec;
        }
        if (mg_sweep_parse(text, b->min_size, b->default_min_size, b->default_max_size,
                           &s->sweep, msg, sizeof msg) != 0) {
            snprintf(err, sizeof err, "-m: %s", msg);
            return usage(ctx, b, err);
        }
    }
    policy_from_config(&s->cfg, 0.0, 0.0, &pc);
    if (mg_policy_cfg_check(&pc, err, sizeof err) != 0)
        return usage(ctx, b, err);
    if (s->cfg.sync_window_us > 0.0 && s->cfg.sync != MG_SYNC_WINDOW)
        return usage(ctx, b, "--sync-window needs --sync window");
    if (b->time_mode == MG_TIME_CALL && s->cfg.iterations > 10000000)
        return usage(ctx, b, "-i: at most 10000000 calls per size (every call is a sample)");
    if (b->check && b->check(ctx, err, sizeof err) != 0)
        return usage(ctx, b, err);
    if (b->pairs) {
        s->partner_of = malloc((size_t)ctx->nranks * sizeof *s->partner_of);
        if (s->partner_of == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
        b->pairs(ctx, s->partner_of);
        if (!mg_pairing_is_valid(ctx->nranks, s->partner_of))
            mg_mpi_die(__FILE__, __LINE__, "the benchmark built an invalid pairing");
        ctx->partner_of = s->partner_of;
        ctx->peer = s->partner_of[ctx->rank];
    }
    s->nvariants = 1;
    if (b->variants) {
        s->nvariants = b->variants(ctx, s->variants, MG_MAX_VARIANTS);
        if (s->nvariants < 1)
            return usage(ctx, b, "nothing to measure: the benchmark's variant list is empty");
    }
    if (b->state_size && (ctx->state = calloc(1, b->state_size)) == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");

    mg_prov_collect(&s->prov, ctx);

    max_size = mg_sweep_max(&s->sweep);
    ctx->buf_bytes = b->buf_bytes ? b->buf_bytes(ctx, max_size) : (size_t)max_size;
    rbytes = b->rbuf_bytes ? b->rbuf_bytes(ctx, max_size) : ctx->buf_bytes;
    need = (uint64_t)ctx->buf_bytes + (uint64_t)rbytes;
    limit = s->cfg.max_memory ? s->cfg.max_memory : default_memory_limit(ctx->local_ranks);
    if (!all_true(need <= limit, ctx->comm)) {
        /* name the largest need of any rank (a root may need more) */
        uint64_t mine = need;
        MG_MPI_CHECK(MPI_Allreduce(&mine, &need, 1, MPI_UINT64_T, MPI_MAX, ctx->comm));
        snprintf(err, sizeof err,
                 "messages of %llu bytes need %llu bytes of buffers per rank, above the "
                 "memory limit of %llu bytes (-M)",
                 (unsigned long long)max_size, (unsigned long long)need,
                 (unsigned long long)limit);
        return usage(ctx, b, err);
    }
    if (s->cfg.output && !out_open(&s->out, s->cfg.output, ctx, err))
        return usage(ctx, b, err);

    ctx->sbuf = mg_multirail_alloc(ctx->buf_bytes);
    ctx->rbuf = mg_multirail_alloc(rbytes);
    if (!all_true(ctx->sbuf != NULL && ctx->rbuf != NULL, ctx->comm)) {
        snprintf(err, sizeof err, "cannot allocate 2 x %zu bytes of buffers", ctx->buf_bytes);
        return usage(ctx, b, err);
    }

    if (b->requests || b->nrequests) {
        size_t nreq = b->requests ? b->requests(ctx) : 0;
        if (nreq < b->nrequests)
            nreq = b->nrequests;
        ctx->reqs = malloc((nreq ? nreq : 1) * sizeof *ctx->reqs);
        if (ctx->reqs == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory for requests");
    }

    if (b->compute)
        calibrate_compute(ctx);
    if (b->rails)
        mg_multirail_pairs(ctx->comm, ctx->partner_of, ctx->rank, ctx->sbuf,
                           ctx->rbuf, ctx->buf_bytes);

    rc = run_sizes(s, argc, argv);
    if (ctx->rank == 0 && s->cfg.output && out_commit(&s->out, s->cfg.output) != 0)
        rc = MG_EXIT_FAIL;
    return rc;
}

int mg_main(const mg_bench *b, int argc, char **argv)
{
    run_state s;
    int rc;

    memset(&s, 0, sizeof s);
    s.b = b;
    config_default(&s.cfg);
    if (json_requested(argc, argv))
        s.cfg.format = MG_FORMAT_JSON;
    mg_rail_opts_default(&s.rails);
    if (b->rails)
        mg_multirail_pre_init(argc, argv);
    MG_MPI_CHECK(MPI_Init(&argc, &argv));
    MG_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    s.ctx.comm = MPI_COMM_WORLD;
    MG_MPI_CHECK(MPI_Comm_rank(s.ctx.comm, &s.ctx.rank));
    MG_MPI_CHECK(MPI_Comm_size(s.ctx.comm, &s.ctx.nranks));
    s.ctx.peer = -1;
    s.node_of = topology(&s.ctx);
    s.ctx.cfg = &s.cfg;
    mg_xfer_init(&s.ctx.xfer, s.ctx.comm);
    s.ctx.params = calloc(1, b->params_size ? b->params_size : 1);
    if (s.ctx.params == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    if (b->params_default)
        memcpy(s.ctx.params, b->params_default, b->params_size);

    rc = run(&s, argc, argv);
    if (!s.rail_helper)
        mg_multirail_finish(rc);

    mg_multirail_free(s.ctx.sbuf);
    mg_multirail_free(s.ctx.rbuf);
    free(s.ctx.reqs);
    free(s.ctx.state);
    free(s.node_of);
    free(s.partner_of);
    mg_sweep_free(&s.sweep);
    mg_prov_free(&s.prov);
    free(s.ctx.params);
    fflush(stdout);
    MG_MPI_CHECK(MPI_Finalize());
    return rc;
}
