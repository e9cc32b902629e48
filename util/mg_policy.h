/* SPDX-License-Identifier: BSD-3-Clause */
/* Iteration policy: how long to warm up and how many samples to take.
 *
 * One size is measured as: warm-up chunks, then samples. A sample is a timed
 * block of `block_iters` iterations, chosen from the warm-up so that one
 * sample lasts at least `min_sample_s` (100 x the timer overhead keeps that
 * overhead under 1%).
 *
 *  - Warm-up: a fixed count (-x N, one chunk), or by default chunks of
 *    1, 2, 4, ... iterations until `warmup_s` has passed or `warmup_max`
 *    iterations were done. The last chunk calibrates the block size.
 *  - Fixed (-i N): exactly N timed iterations, cut into blocks.
 *  - Adaptive (default): samples until the 95% CI half-width of the median
 *    is within `precision` of the median (after `min_samples`), or the
 *    per-size `budget_s` is spent, or `max_samples` is reached. Large
 *    messages therefore take few samples: the budget stops them. With
 *    `precision_rule` 0 only the budget and the cap stop.
 *
 * Decisions are made on one rank (the caller broadcasts them); the clock is
 * injected so the policy can be tested with a fake one. Pure C, no MPI.
 */
#ifndef MG_POLICY_H
#define MG_POLICY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The defaults, written once: mg_policy_cfg_default applies them and the
 * option rows show them (MG_STR). */
#define MG_POLICY_PRECISION_PCT 1          /* --precision, % */
#define MG_POLICY_BUDGET_S 1               /* --time-budget */
#define MG_POLICY_WARMUP_MS 20             /* timed warm-up */
#define MG_POLICY_WARMUP_MAX 1000          /* ... or this many iterations */
#define MG_POLICY_MIN_SAMPLES 10           /* --min-samples */
#define MG_POLICY_MAX_SAMPLES 10000        /* --max-samples */
#define MG_POLICY_MAX_SAMPLES_TURNS 100000 /* --max-samples with --turns */

typedef struct {
    double (*now_s)(void *ctx);
    void *ctx;
} mg_clock;

typedef struct {
    long warmup_iters;    /* >= 0: fixed warm-up count; < 0: timed warm-up */
    long iterations;      /* > 0: fixed timed iterations; 0: adaptive */
    double precision;     /* target relative CI half-width of the median */
    double budget_s;      /* per-size time budget for adaptive sampling */
    double warmup_s;      /* timed warm-up length */
    long warmup_max;      /* timed warm-up stops after this many iterations */
    long min_samples;     /* adaptive: never stop on precision before this */
    long max_samples;     /* hard cap on samples (both modes) */
    double min_sample_s;  /* shortest allowed sample */
    long min_block_iters; /* fewest iterations in a sample (pipelined patterns) */
    int precision_rule;   /* adaptive: 1 (default) may stop on precision; 0: only
                          * the budget or max_samples stop (--turns: launches
                          * taking turns measure a size over the same time) */
} mg_policy_cfg;

typedef enum {
    MG_STOP_NONE = 0,
    MG_STOP_PRECISION, /* CI of the median is tight enough */
    MG_STOP_BUDGET,    /* time budget spent */
    MG_STOP_CAP,       /* max_samples reached */
    MG_STOP_FIXED      /* the fixed iteration count is done */
} mg_stop_reason;

typedef struct {
    mg_policy_cfg cfg;
    mg_clock clock;
    double t_begin_s;
    long warm_done;       /* warm-up iterations done */
    long warm_last_chunk; /* size of the last warm-up chunk */
    double warm_last_s;   /* its duration */
    int warm_over;
    long block_iters;      /* iterations per sample */
    size_t planned;        /* fixed mode: samples to take */
    long last_block_iters; /* fixed mode: iterations of the final sample */
    size_t check_every;    /* adaptive: most samples between two checks */
    size_t next_check;     /* adaptive: sample count of the next check */
} mg_policy;

void mg_policy_cfg_default(mg_policy_cfg *cfg);

/* Check a configuration; 0 or -EINVAL with a message. */
int mg_policy_cfg_check(const mg_policy_cfg *cfg, char *err, size_t errlen);

/* Start measuring one size now. */
void mg_policy_begin(mg_policy *p, const mg_policy_cfg *cfg, mg_clock clock);

/* Size of the next warm-up chunk, 0 when the warm-up is over. */
long mg_policy_warmup_next(mg_policy *p);

/* Record a finished warm-up chunk of `iters` iterations that took elapsed_s. */
void mg_policy_warmup_record(mg_policy *p, long iters, double elapsed_s);

/* After the warm-up: choose block_iters (and, in fixed mode, the plan).
 * per_iter_s overrides the warm-up's estimate when > 0 (used when there was
 * no warm-up). Restarts the budget clock. */
void mg_policy_calibrate(mg_policy *p, double per_iter_s);

/* What the other ranks need of the policy that decides (rank 0's, after
 * mg_policy_calibrate) to follow the same sample schedule: plain numbers,
 * sent between ranks as they are (no clock, no pointer). */
typedef struct {
    long block_iters, last_block_iters;
    size_t planned, check_every;
} mg_policy_schedule;
mg_policy_schedule mg_policy_get_schedule(const mg_policy *p);
/* A policy begun with the same configuration follows that schedule. */
void mg_policy_follow(mg_policy *p, const mg_policy_schedule *s);

/* Iterations in sample number i (0-based); 0 means "no more samples" in
 * fixed mode or past max_samples. */
long mg_policy_block_iters(const mg_policy *p, size_t i);

/* Whether the caller must ask mg_policy_check after n samples (called once
 * per sample, in order, on every rank: it advances the check schedule). The
 * first check is at min_samples, then after every 10% more samples, at most
 * every check period (20 ms of samples). */
int mg_policy_is_checkpoint(mg_policy *p, size_t n);

/* Decision after n samples (seconds per iteration, any order). */
mg_stop_reason mg_policy_check(const mg_policy *p, const double *samples, size_t n);

const char *mg_stop_reason_name(mg_stop_reason r);

#ifdef __cplusplus
}
#endif

#endif
