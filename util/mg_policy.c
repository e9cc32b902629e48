/* SPDX-License-Identifier: BSD-3-Clause */
/* Iteration policy: see mg_policy.h. */
#include "mg_policy.h"

#include "mg_stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

/* Checks happen at least this often in time once min_samples are taken, so
 * that the budget is not overshot by much on slow samples. */
#define MG_CHECK_PERIOD_S 0.02

void mg_policy_cfg_default(mg_policy_cfg *cfg)
{
    cfg->warmup_iters = -1;
    cfg->iterations = 0;
    cfg->precision = MG_POLICY_PRECISION_PCT / 100.0;
    cfg->budget_s = MG_POLICY_BUDGET_S;
    cfg->warmup_s = MG_POLICY_WARMUP_MS / 1000.0;
    cfg->warmup_max = MG_POLICY_WARMUP_MAX;
    cfg->min_samples = MG_POLICY_MIN_SAMPLES;
    cfg->max_samples = MG_POLICY_MAX_SAMPLES;
    cfg->min_sample_s = 1e-5;
    cfg->min_block_iters = 1;
    cfg->precision_rule = 1;
}

int mg_policy_cfg_check(const mg_policy_cfg *cfg, char *err, size_t errlen)
{
    if (!(cfg->precision > 0.0 && cfg->precision < 1.0)) {
        snprintf(err, errlen, "precision must be above 0%% and below 100%%");
        return -EINVAL;
    }
    if (!(cfg->budget_s > 0.0)) {
        snprintf(err, errlen, "time budget must be positive");
        return -EINVAL;
    }
    if (cfg->min_samples < 1 || cfg->max_samples < cfg->min_samples) {
        snprintf(err, errlen, "need 1 <= min-samples <= max-samples");
        return -EINVAL;
    }
    if (cfg->iterations < 0) {
        snprintf(err, errlen, "iterations must not be negative");
        return -EINVAL;
    }
    return 0;
}

void mg_policy_begin(mg_policy *p, const mg_policy_cfg *cfg, mg_clock clock)
{
    p->cfg = *cfg;
    p->clock = clock;
    p->t_begin_s = clock.now_s(clock.ctx);
    p->warm_done = 0;
    p->warm_last_chunk = 0;
    p->warm_last_s = 0.0;
    p->warm_over = 0;
    p->block_iters = 1;
    p->planned = 0;
    p->last_block_iters = 0;
    p->check_every = 1;
    p->next_check = (size_t)cfg->min_samples;
}

long mg_policy_warmup_next(mg_policy *p)
{
    long next;
    if (p->warm_over)
        return 0;
    if (p->cfg.warmup_iters >= 0) {
        if (p->warm_done > 0 || p->cfg.warmup_iters == 0) {
            p->warm_over = 1;
            return 0;
        }
        return p->cfg.warmup_iters;
    }
    if (p->warm_done >= p->cfg.warmup_max ||
        p->clock.now_s(p->clock.ctx) - p->t_begin_s >= p->cfg.warmup_s) {
        p->warm_over = 1;
        return 0;
    }
    next = p->warm_last_chunk ? p->warm_last_chunk * 2 : 1;
    if (next > p->cfg.warmup_max - p->warm_done)
        next = p->cfg.warmup_max - p->warm_done;
    return next;
}

void mg_policy_warmup_record(mg_policy *p, long iters, double elapsed_s)
{
    p->warm_done += iters;
    p->warm_last_chunk = iters;
    p->warm_last_s = elapsed_s;
}

void mg_policy_calibrate(mg_policy *p, double per_iter_s)
{
    double est = per_iter_s;
    double sample_s;

    if (!(est > 0.0) && p->warm_last_chunk > 0)
        est = p->warm_last_s / (double)p->warm_last_chunk;
    if (est > 0.0 && p->cfg.min_sample_s > est) {
        double b = ceil(p->cfg.min_sample_s / est);
        p->block_iters = b > 1e9 ? 1000000000L : (long)b;
    } else {
        p->block_iters = 1;
    }
    if (p->block_iters < p->cfg.min_block_iters)
        p->block_iters = p->cfg.min_block_iters;
    if (p->cfg.iterations > 0) {
        long n = p->cfg.iterations, b = p->block_iters;
        if (b > n)
            b = n;
        p->block_iters = b;
        p->planned = (size_t)((n + b - 1) / b);
        if (p->planned > (size_t)p->cfg.max_samples) {
            /* keep the count exact: grow the blocks instead */
            p->planned = (size_t)p->cfg.max_samples;
            b = (n + (long)p->planned - 1) / (long)p->planned;
            p->block_iters = b;
            p->planned = (size_t)((n + b - 1) / b);
        }
        p->last_block_iters = n - (long)(p->planned - 1) * b;
    }
    sample_s = est > 0.0 ? est * (double)p->block_iters : 0.0;
    if (sample_s > 0.0 && sample_s < MG_CHECK_PERIOD_S) {
        double every = MG_CHECK_PERIOD_S / sample_s;
        p->check_every = every > 1e6 ? 1000000 : (size_t)every;
        if (p->check_every < 1)
            p->check_every = 1;
    } else {
        p->check_every = 1;
    }
    p->t_begin_s = p->clock.now_s(p->clock.ctx);
}

mg_policy_schedule mg_policy_get_schedule(const mg_policy *p)
{
    mg_policy_schedule s = {p->block_iters, p->last_block_iters, p->planned, p->check_every};
    return s;
}

void mg_policy_follow(mg_policy *p, const mg_policy_schedule *s)
{
    p->block_iters = s->block_iters;
    p->last_block_iters = s->last_block_iters;
    p->planned = s->planned;
    p->check_every = s->check_every;
}

long mg_policy_block_iters(const mg_policy *p, size_t i)
{
    if (p->cfg.iterations > 0) {
        if (i >= p->planned)
            return 0;
        return i + 1 == p->planned ? p->last_block_iters : p->block_iters;
    }
    return i < (size_t)p->cfg.max_samples ? p->block_iters : 0;
}

int mg_policy_is_checkpoint(mg_policy *p, size_t n)
{
    size_t step;
    if (p->cfg.iterations > 0 || n < p->next_check)
        return 0;
    /* the next check after about 10% more samples, or one check period */
    step = n / 10;
    if (step > p->check_every)
        step = p->check_every;
    if (step < 1)
        step = 1;
    p->next_check = n + step;
    return 1;
}

mg_stop_reason mg_policy_check(const mg_policy *p, const double *samples, size_t n)
{
    mg_stats st;

    if (p->cfg.iterations > 0)
        return n >= p->planned ? MG_STOP_FIXED : MG_STOP_NONE;
    if (n >= (size_t)p->cfg.max_samples)
        return MG_STOP_CAP;
    if (p->cfg.precision_rule && n >= (size_t)p->cfg.min_samples &&
        mg_stats_compute(samples, n, &st) == 0 && mg_stats_rel_halfwidth(&st) <= p->cfg.precision)
        return MG_STOP_PRECISION;
    if (p->clock.now_s(p->clock.ctx) - p->t_begin_s >= p->cfg.budget_s)
        return MG_STOP_BUDGET;
    return MG_STOP_NONE;
}

const char *mg_stop_reason_name(mg_stop_reason r)
{
    switch (r) {
    case MG_STOP_PRECISION: return "precision";
    case MG_STOP_BUDGET: return "budget";
    case MG_STOP_CAP: return "max-samples";
    case MG_STOP_FIXED: return "fixed";
    default: return "none";
    }
}
