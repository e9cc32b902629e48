/* SPDX-License-Identifier: BSD-3-Clause */
/* Measuring one (size, variant) (mg_run.h).
 *
 * Per size: barrier; warm-up chunks chosen by rank 0 and broadcast; the
 * policy (block size, plan) broadcast; timed samples, each one block of
 * iterations bracketed by the clock (MPI_Wtime) with nothing else inside; at the policy's
 * checkpoints rank 0 decides whether to stop and broadcasts the decision
 * (outside the timed blocks). Raw samples are kept until the statistics are
 * computed on rank 0. Validation runs after the timed region.
 *
 * The other ranks are reached only through ctx->drv.group's four calls and time
 * only through ctx->drv.clock (mg_now), so this stage runs in one process with a
 * one-rank group and a fake clock (tests/unit/test_driver.cc).
 */
#include "mg_run.h"

#include "mg_pattern.h"
#include "mg_stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Barrier, begin_size, warm-up chunks chosen by rank 0, calibration; every
 * rank ends following rank 0's sample schedule (mg_policy_schedule). */
static void warm_up(const mg_bench *b, mg_ctx *ctx, uint64_t size, const mg_policy_cfg *pc,
                    mg_policy *out)
{
    mg_policy pol;
    mg_policy_schedule sched;

    mg_turns_point(ctx->drv.turns);
    mg_group_barrier(&ctx->drv.group);
    if (b->kernel.begin_size)
        b->kernel.begin_size(ctx, size);
    mg_policy_begin(&pol, pc, ctx->drv.clock);
    for (;;) {
        long chunk = 0;
        double t0;
        if (ctx->rank == 0)
            chunk = mg_policy_warmup_next(&pol);
        mg_group_bcast(&ctx->drv.group, &chunk, sizeof chunk);
        if (chunk == 0)
            break;
        t0 = mg_now(ctx);
        b->kernel.iterate(ctx, size, chunk);
        if (ctx->rank == 0)
            mg_policy_warmup_record(&pol, chunk, mg_now(ctx) - t0);
    }
    if (ctx->rank == 0)
        mg_policy_calibrate(&pol, 0.0);
    sched = mg_policy_get_schedule(&pol);
    mg_group_bcast(&ctx->drv.group, &sched, sizeof sched);
    mg_policy_follow(&pol, &sched);
    *out = pol;
}

#define MG_WINDOW_MIN_S (MG_SYNC_WINDOW_MIN_US * 1e-6)
#define MG_WINDOW_MAX_S 1.0
#define MG_LEAD_MIN_S 100e-6 /* first window of a batch: at least 100 us ahead */

/* What rank 0 broadcasts before each batch of MG_TIME_CALL samples. */
typedef struct {
    double start_s;  /* --sync window: start of the first window, rank 0's clock */
    double window_s; /* window length */
    long k;          /* calls in this batch */
    int stop;        /* mg_stop_reason: no more batches */
} call_plan;

/* Rank 0: the next batch of calls (its size, the start of its first
 * window), or the decision to stop. */
static void plan_batch(const mg_ctx *ctx, const mg_policy_cfg *pc, mg_policy *pol,
                       const double *root, size_t n, size_t m, size_t cap, double rtt_s,
                       call_plan *plan)
{
    size_t want = (pc->iterations > 0 ? (size_t)pc->iterations : (size_t)pc->max_samples) - n;
    if (m > 0)
        plan->stop = (int)mg_policy_check(pol, root, n);
    if (plan->stop == MG_STOP_NONE && m + 1 > cap)
        plan->stop = MG_STOP_CAP;
    plan->k = (long)(want < pol->check_every ? want : pol->check_every);
    if (plan->k > MG_CALL_BATCH)
        plan->k = MG_CALL_BATCH;
    if ((size_t)plan->k > cap - m)
        plan->k = (long)(cap - m);
    if (plan->k < 1)
        plan->k = 1;
    /* room for the broadcast of this plan to reach every rank */
    plan->start_s = mg_now(ctx) + fmax(4.0 * plan->window_s + 8.0 * rtt_s, MG_LEAD_MIN_S);
}

/* The calls of one batch: batch[j] is the sample of call j as this rank
 * saw it (INFINITY: it started late), mine[j] its own call time, start[j]
 * when the call began (its window's start, later by its --arrival delay).
 * With --arrival the sample is measured from the last rank's arrival (the
 * collective's own time once every rank is in it); mine[j] from this
 * rank's own (an early rank's includes its wait). first: the size's
 * calls before this batch (--arrival random's draws). */
static void run_batch(const mg_bench *b, mg_ctx *ctx, uint64_t size, const call_plan *plan,
                      int window, double offset_s, size_t first, double *batch, double *mine,
                      double *start)
{
    const int idle = b->kernel.idle && b->kernel.idle(ctx);
    const mg_arrival *arr = &ctx->cfg->arrival;
    for (long j = 0; j < plan->k; ++j) {
        double t0, t1;
        if (window) {
            const uint64_t call = (uint64_t)(first + (size_t)j);
            const double open = plan->start_s + (double)j * plan->window_s;
            const double at = open + mg_arrival_delay_s(arr, ctx->rank, ctx->nranks, call, size);
            int late;
            mg_observe_block(ctx->drv.obs, ctx, 0, 0);
            t0 = mg_now(ctx) - offset_s;
            late = t0 > at;
            while (t0 < at)
                t0 = mg_now(ctx) - offset_s;
            b->kernel.iterate(ctx, size, 1);
            t1 = mg_now(ctx) - offset_s;
            mg_observe_block(ctx->drv.obs, ctx, 1, 1);
            /* the last arrival (O(ranks) for random) once the call is over, not
             * between the window's start and this rank's */
            batch[j] =
                late ? INFINITY : t1 - open - mg_arrival_last_s(arr, ctx->nranks, call, size);
            t0 = at;
        } else {
            mg_group_barrier(&ctx->drv.group);
            mg_observe_block(ctx->drv.obs, ctx, 0, 0);
            t0 = mg_now(ctx);
            b->kernel.iterate(ctx, size, 1);
            t1 = mg_now(ctx);
            mg_observe_block(ctx->drv.obs, ctx, 1, 1);
            batch[j] = t1 - t0;
        }
        mine[j] = t1 - t0;
        start[j] = t0;
        if (idle) /* not a call: below every rank's that called */
            batch[j] = mine[j] = 0.0;
    }
}

/* Rank 0: keep the valid samples of a reduced batch; a late start means the
 * window was too short for this size (doubled). */
static size_t keep_batch(mg_ctx *ctx, const double *red, const double *start, long k, double *root,
                         size_t n, size_t m, call_plan *plan, mg_sample_log *log)
{
    unsigned long long late = 0;
    for (long j = 0; j < k; ++j) {
        if (!isfinite(red[j])) {
            late++;
            continue;
        }
        if (log) {
            log->start[n] = start[j];
            log->iters[n] = 1;
            log->index[n] = m + (size_t)j;
        }
        root[n++] = red[j];
    }
    if (late > 0)
        plan->window_s = fmin(2.0 * plan->window_s, MG_WINDOW_MAX_S);
    ctx->late += late;
    return n;
}

/* MG_TIME_CALL sampling (see mg_bench.h): every rank keeps its own call
 * times in mine[0..cap) (*nmine_out of them); rank 0 gets the valid samples,
 * the maximum over ranks of each call, in root. */
static mg_stop_reason measure_calls(const mg_bench *b, mg_ctx *ctx, uint64_t size,
                                    const mg_policy_cfg *pc, mg_policy *pol, double *mine,
                                    size_t cap, double *root, size_t *n_out, size_t *nmine_out,
                                    mg_sample_log *log)
{
    const int window = ctx->cfg->sync == MG_SYNC_WINDOW;
    const double est_s =
        pol->warm_last_chunk > 0 ? pol->warm_last_s / (double)pol->warm_last_chunk : 0.0;
    double offset_s = 0.0, rtt_s = 0.0, batch[MG_CALL_BATCH], red[MG_CALL_BATCH],
           start[MG_CALL_BATCH];
    call_plan plan = {0.0, 0.0, 0, MG_STOP_NONE};
    size_t n = 0, m = 0;

    ctx->late = 0;
    if (window)
        offset_s = ctx->drv.clock_offset(ctx, &rtt_s);
    mg_observe_timed(ctx->drv.obs, ctx, 0, 0);
    if (window && ctx->cfg->sync_window_us > 0.0)
        plan.window_s = ctx->cfg->sync_window_us * 1e-6;
    else if (window) /* room for the call and for the latest --arrival */
        plan.window_s =
            fmax(2.0 * est_s + 2.0 * rtt_s, MG_WINDOW_MIN_S) +
            (ctx->cfg->arrival.kind != MG_ARRIVAL_NONE ? ctx->cfg->arrival.us * 1e-6 : 0.0);
    ctx->timed = 1;
    if (mg_noise_start(&ctx->cfg->noise, ctx->rank) != 0)
        mg_ctx_fail(ctx, "--noise: the timer signal could not be set");
    for (;;) {
        if (ctx->rank == 0)
            plan_batch(ctx, pc, pol, root, n, m, cap, rtt_s, &plan);
        mg_group_bcast(&ctx->drv.group, &plan, sizeof plan);
        if (plan.stop != MG_STOP_NONE)
            break;
        run_batch(b, ctx, size, &plan, window, offset_s, m, batch, mine + m, start);
        m += (size_t)plan.k;
        mg_group_reduce_max(&ctx->drv.group, batch, red, (size_t)plan.k);
        if (ctx->rank == 0)
            n = keep_batch(ctx, red, start, plan.k, root, n, m - (size_t)plan.k, &plan, log);
    }
    (void)mg_noise_stop();
    ctx->timed = 0;
    mg_observe_timed(ctx->drv.obs, ctx, 1, m);
    ctx->window_s = plan.window_s;
    if (b->kernel.end_size)
        b->kernel.end_size(ctx, size);
    if (ctx->rank == 0 && n == 0)
        mg_ctx_fail(ctx, "every call started after its window (--sync window): give a longer "
                         "--sync-window");
    *n_out = n;
    *nmine_out = m;
    return (mg_stop_reason)plan.stop;
}

/* Timed sampling of one size; rank 0 ends with the samples (s per iter) in
 * root, every rank with its own in mine (*nmine_out of them). */
mg_stop_reason mg_measure(const mg_bench *b, mg_ctx *ctx, uint64_t size, const mg_policy_cfg *pc,
                          double *mine, size_t cap, double *root, size_t *n_out, size_t *nmine_out,
                          unsigned long long *iters_out, mg_sample_log *log)
{
    mg_policy pol;
    unsigned long long iters = 0;
    size_t n = 0;
    int stop = MG_STOP_NONE, is_max = b->timing.time_mode == MG_TIME_MAX;
    double *use = ctx->rank == 0 && !is_max ? mine : root;

    warm_up(b, ctx, size, pc, &pol);
    if (b->timing.time_mode == MG_TIME_CALL) {
        mg_stop_reason why =
            measure_calls(b, ctx, size, pc, &pol, mine, cap, root, n_out, nmine_out, log);
        *iters_out = *n_out;
        return why;
    }
    mg_observe_timed(ctx->drv.obs, ctx, 0, 0);
    ctx->timed = 1;
    for (size_t i = 0;; ++i) {
        long bi = mg_policy_block_iters(&pol, i);
        double t0, t1;
        if (bi == 0) {
            stop = pc->iterations > 0 ? MG_STOP_FIXED : MG_STOP_CAP;
            break;
        }
        ctx->sample_s = 0.0;
        mg_observe_block(ctx->drv.obs, ctx, 0, 0);
        t0 = mg_now(ctx);
        b->kernel.iterate(ctx, size, bi);
        t1 = mg_now(ctx);
        mg_observe_block(ctx->drv.obs, ctx, 1, (unsigned long long)bi);
        mine[i] = (b->timing.times_itself ? ctx->sample_s : t1 - t0) / (double)bi;
        if (log) {
            log->start[i] = t0;
            log->iters[i] = bi;
            log->index[i] = i;
        }
        iters += (unsigned long long)bi;
        n = i + 1;
        if (mg_policy_is_checkpoint(&pol, n)) {
            if (is_max)
                mg_group_reduce_max(&ctx->drv.group, mine, root, n);
            if (ctx->rank == 0)
                stop = (int)mg_policy_check(&pol, use, n);
            mg_group_bcast(&ctx->drv.group, &stop, sizeof stop);
            if (stop != MG_STOP_NONE)
                break;
            if (mg_turns_point(ctx->drv.turns)) {
                /* back from another launch's turn: caches are cold */
                ctx->timed = 0;
                b->kernel.iterate(ctx, size, bi);
                ctx->timed = 1;
            }
        }
    }
    ctx->timed = 0;
    mg_observe_timed(ctx->drv.obs, ctx, 1, iters);
    if (b->kernel.end_size)
        b->kernel.end_size(ctx, size);
    if (is_max)
        mg_group_reduce_max(&ctx->drv.group, mine, root, n);
    else if (ctx->rank == 0)
        memcpy(root, mine, n * sizeof *mine);
    *n_out = n;
    *nmine_out = n;
    *iters_out = iters;
    return (mg_stop_reason)stop;
}

#define MG_MAX_SLOTS 4096

/* Run `iters` iterations of one size with the benchmark's hooks around them. */
static void run_iters(const mg_bench *b, mg_ctx *ctx, uint64_t size, long iters)
{
    if (b->kernel.begin_size)
        b->kernel.begin_size(ctx, size);
    b->kernel.iterate(ctx, size, iters);
    if (b->kernel.end_size)
        b->kernel.end_size(ctx, size);
}

/* One untimed iteration with known data, twice (different patterns, so a
 * stale buffer cannot pass). Every send slot holds the sender's pattern;
 * every receive slot is poisoned with the complement of what it must get.
 * Returns 1 if every rank saw correct data. */
int mg_validate(const mg_bench *b, mg_ctx *ctx, uint64_t size, FILE *err)
{
    int ok = 1, from[MG_MAX_SLOTS];
    const uint64_t stride = b->valid.slot_stride ? b->valid.slot_stride(ctx, size) : size;
    for (uint64_t v = 0; v < 2 && b->valid.verify; ++v) {
        char msg[MG_ERRLEN];
        b->valid.fill(ctx, size, (int)v);
        mg_group_barrier(&ctx->drv.group);
        ctx->validating = 1;
        run_iters(b, ctx, size, 1);
        ctx->validating = 0;
        if (b->valid.verify(ctx, size, (int)v, msg, sizeof msg) != 0) {
            fprintf(err, "mpigauge_%s: validation failed: %s\n", b->id.name, msg);
            ok = 0;
        }
    }
    for (uint64_t v = 0; v < 2 && !b->valid.verify; ++v) {
        int nrecv = b->valid.recv_slots ? b->valid.recv_slots(ctx, size, from, MG_MAX_SLOTS) : 0;
        int nsend = b->valid.send_slots ? b->valid.send_slots(ctx, size) : 1;
        unsigned char *sb = ctx->sbuf, *rb = ctx->rbuf;
        for (int i = 0; i < nsend; ++i)
            mg_pattern_fill(sb + (size_t)i * stride, size, mg_pattern_seed(ctx->rank, size, v));
        for (int i = 0; i < nrecv; ++i)
            mg_pattern_poison(rb + (size_t)i * stride, size, mg_pattern_seed(from[i], size, v));
        mg_group_barrier(&ctx->drv.group);
        ctx->validating = 1;
        run_iters(b, ctx, size, 1);
        ctx->validating = 0;
        for (int i = 0; i < nrecv; ++i) {
            size_t bad = 0;
            uint64_t seed = mg_pattern_seed(from[i], size, v);
            const unsigned char *slot = rb + (size_t)i * stride;
            if (mg_pattern_check(slot, size, seed, &bad) != 0) {
                fprintf(err,
                        "mpigauge_%s: validation failed: rank %d, size %llu, pass %llu, "
                        "message from rank %d (slot %d): first bad byte at offset %zu "
                        "(expected 0x%02x, got 0x%02x)\n",
                        b->id.name, ctx->rank, (unsigned long long)size, (unsigned long long)v,
                        from[i], i, bad, mg_pattern_byte(seed, bad), slot[bad]);
                ok = 0;
                break;
            }
        }
    }
    return mg_group_all_true(&ctx->drv.group, ok);
}

void mg_to_metric(const mg_bench *b, const mg_ctx *ctx, uint64_t size, double *x, size_t n)
{
    if (b->timing.metric == MG_METRIC_LATENCY) {
        for (size_t i = 0; i < n; ++i)
            x[i] = x[i] * b->timing.time_scale * 1e6;
    } else if (b->timing.metric == MG_METRIC_VALUE) {
        for (size_t i = 0; i < n; ++i)
            x[i] = x[i] * b->timing.time_scale;
    } else {
        double bytes =
            b->timing.bytes_per_iter ? b->timing.bytes_per_iter(ctx, size) : (double)size;
        for (size_t i = 0; i < n; ++i)
            x[i] = bytes / x[i] / 1e6;
    }
}

/* The benchmark's per-rank figures, gathered to rank 0. */
void mg_gather_figures(const mg_bench *b, const mg_ctx *ctx, double *all)
{
    double mine[MG_MAX_EXTRA + 1] = {0};
    int n = b->report.nfigures < MG_MAX_EXTRA ? b->report.nfigures : MG_MAX_EXTRA;
    b->report.figures(ctx, mine);
    mg_group_gather(&ctx->drv.group, mine, (size_t)n, all);
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
void mg_calibrate_compute(mg_ctx *ctx)
{
    if (mg_compute_calibrate(&ctx->compute, ctx->drv.clock, mg_compute_spin, 0.01, 5) != 0)
        mg_mpi_die(__FILE__, __LINE__, "cannot calibrate the computation: the clock stands still");
    mg_group_reduce_max(&ctx->drv.group, &ctx->compute.rel_error, &ctx->drv.compute_err_max, 1);
}

/* Every rank's median seconds per iteration, gathered to rank 0 (for the
 * benchmark's extras: per-pair or per-rank figures). */
void mg_gather_rank_medians(const mg_ctx *ctx, const double *mine, size_t n, double *all)
{
    mg_stats st;
    double med = 0.0;
    if (n > 0 && mg_stats_compute(mine, n, &st) == 0)
        med = st.median;
    mg_group_gather(&ctx->drv.group, &med, 1, all);
}

void mg_ctx_fail(mg_ctx *ctx, const char *msg)
{
    if (ctx->drv.fail[0] == '\0')
        snprintf(ctx->drv.fail, sizeof ctx->drv.fail, "%s", msg);
}
