/* SPDX-License-Identifier: BSD-3-Clause */
/* The run's configuration (mg_run.h): the common option rows over
 * mg_config and their defaults, the policy the configuration makes, and a
 * variant's label. A leaf of the driver: it calls none of its stages, so
 * that the plan, the output and the provenance can all read it. */
#include "mg_run.h"

#include "config.h"
#include "mg_exit.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char *const format_names[] = {"table", "csv", "json", NULL};
static const char *const sync_names[] = {"barrier", "window", NULL};

/* Options of MG_TIME_CALL benchmarks (into mg_config). */
static const mg_opt call_opts[] = {
    {0, "sync", MG_OPT_CHOICE, offsetof(mg_config, sync), "barrier|window",
     "synchronise the ranks before every call: a barrier, or a common start time on rank 0's "
     "clock (late starts are dropped and counted)",
     0, 0, sync_names, "barrier", NULL},
    {0, "sync-window", MG_OPT_DOUBLE, offsetof(mg_config, sync_window_us), "US",
     "--sync window: window length in us (default: 2 x the warm-up's call time + 2 round "
     "trips, at least " MG_STR(MG_SYNC_WINDOW_MIN_US) "; doubled after a late start)",
     1e-3, 1e6, NULL, NULL, "sync_window_us"},
    {0, NULL, MG_OPT_END, 0, NULL, NULL, 0, 0, NULL, NULL, NULL}};

static const mg_opt common_opts[] = {
    {'m', "message-size", MG_OPT_STRING, offsetof(mg_config, sizes_spec), "[MIN:]MAX|LIST",
     "message sizes: powers of two from MIN to MAX, or a list like 8,64,1K,1M (K/M/G binary)", 0, 0,
     NULL, NULL, ""},
    {'i', "iterations", MG_OPT_LONG, offsetof(mg_config, policy.iterations), "N",
     "fixed number of timed iterations per size (default: adaptive)", 1, 1e12, NULL, NULL, NULL},
    {'x', "warmup", MG_OPT_LONG, offsetof(mg_config, policy.warmup_iters), "N",
     "warm-up iterations per size (default: timed, " MG_STR(MG_POLICY_WARMUP_MS) " ms or " MG_STR(
         MG_POLICY_WARMUP_MAX) " iterations)",
     0, 1e12, NULL, NULL, NULL},
    {0, "precision", MG_OPT_PERCENT, offsetof(mg_config, policy.precision), "P%",
     "adaptive: stop when the median's 95% CI half-width is within P%; off with --turns, where "
     "each size runs its whole time budget",
     1e-6, 0.5, NULL, MG_STR(MG_POLICY_PRECISION_PCT) "%", NULL},
    {0, "time-budget", MG_OPT_DOUBLE, offsetof(mg_config, policy.budget_s), "SECONDS",
     "adaptive: sampling time budget per size", 1e-3, 86400, NULL, MG_STR(MG_POLICY_BUDGET_S),
     "time_budget_s"},
    {0, "min-samples", MG_OPT_LONG, offsetof(mg_config, policy.min_samples), "N",
     "adaptive: samples before the precision rule may stop", 1, 1e7, NULL,
     MG_STR(MG_POLICY_MIN_SAMPLES), NULL},
    {0, "max-samples", MG_OPT_LONG, offsetof(mg_config, policy.max_samples), "N",
     "most samples per size (default " MG_STR(MG_POLICY_MAX_SAMPLES) "; " MG_STR(
         MG_POLICY_MAX_SAMPLES_TURNS) " with --turns)",
     1, 1e7, NULL, NULL, NULL},
    {'c', "validate", MG_OPT_FLAG, offsetof(mg_config, validate), NULL,
     "check delivered data for every size after timing (exit 1 on a mismatch)", 0, 0, NULL, NULL,
     NULL},
    {'M', "max-memory", MG_OPT_SIZE, offsetof(mg_config, max_memory), "SIZE",
     "refuse sizes whose buffers exceed SIZE per rank, at most node memory (or the cgroup's "
     "limit) / ranks (default: " MG_STR(MG_MEMORY_SHARE_NUM) "/" MG_STR(
         MG_MEMORY_SHARE_DEN) " of that)",
     1, 281474976710656.0, NULL, NULL, "max_memory_bytes"},
    {0, "format", MG_OPT_CHOICE, offsetof(mg_config, format), "table|csv|json",
     "what goes to standard output", 0, 0, format_names, "table", NULL},
    {0, "columns", MG_OPT_CHOICE, offsetof(mg_config, columns), "default|osu|all",
     "table columns: every statistic; OSU's (the size and the figure, with -c Pass/Fail); or "
     "every statistic and P50",
     0, 0, mg_columns_names, "default", NULL},
    {'z', "percentiles", MG_OPT_STRING, offsetof(mg_config, percentiles), "LIST",
     "the percentile columns (table, CSV) in place of P90 and P99, like 50,99,99.9; JSON keeps "
     "p50, p90, p99 and adds them under percentiles",
     0, 0, NULL, NULL, NULL},
    {'o', "output", MG_OPT_STRING, offsetof(mg_config, output), "FILE",
     "also write JSON Lines (run record, results) to FILE, complete or not at all", 0, 0, NULL,
     NULL, ""},
    {0, "sentinel", MG_OPT_FLAG, offsetof(mg_config, sentinel), NULL,
     "before and after the sweep: an 8-byte ping-pong probe, the computation rate and every "
     "node's load (JSON records of type sentinel)",
     0, 0, NULL, NULL, ""},
    {0, "turns", MG_OPT_STRING, offsetof(mg_config, turns), "NAME:ROLE:COUNT",
     "take turns at measuring with the other launches of group NAME running now on the same "
     "nodes (mpigauge run sets it; doc/compare.md)",
     0, 0, NULL, NULL, ""},
    {0, "turn-slice", MG_OPT_DOUBLE, offsetof(mg_config, turn_slice_s), "SECONDS",
     "--turns: measuring time before the turn is handed on", 1e-3, 60, NULL, "0.005", ""},
    {0, "turn-timeout", MG_OPT_DOUBLE, offsetof(mg_config, turn_timeout_s), "SECONDS",
     "--turns: a wait for the group this long gives the turns up", 0.1, 86400, NULL, "120", ""},
    {'h', "help", MG_OPT_FLAG, offsetof(mg_config, help), NULL,
     "show this help and exit (with --format json: one record per option)", 0, 0, NULL, NULL, ""},
    {'v', "version", MG_OPT_FLAG, offsetof(mg_config, version), NULL, "show the version and exit",
     0, 0, NULL, NULL, ""},
    {0, "mpi-library", MG_OPT_FLAG, offsetof(mg_config, mpi_library), NULL,
     "print the MPI library this program loads (MPI_Get_library_version, called before and "
     "without MPI_Init) as one JSON line and exit; run it without a launcher",
     0, 0, NULL, NULL, ""},
    {0, NULL, MG_OPT_END, 0, NULL, NULL, 0, 0, NULL, NULL, NULL}};

void mg_config_default(mg_config *c)
{
    /* the options with a default in their row get it in mg_plan_parse;
     * max_samples stays 0 until the plan knows whether --turns was given */
    memset(c, 0, sizeof *c);
    mg_policy_cfg_default(&c->policy);
    c->policy.max_samples = 0;
}

size_t mg_config_tables(const mg_bench *b, mg_config *c, mg_opt_table *tables)
{
    size_t nt = 0;
    tables[nt++] = (mg_opt_table){common_opts, c, "common", NULL};
    if (b->timing.time_mode == MG_TIME_CALL)
        tables[nt++] = (mg_opt_table){call_opts, c, "sync", NULL};
    return nt;
}

void mg_policy_from_config(const mg_config *c, double timer_overhead_s, double tick_s,
                           mg_policy_cfg *p)
{
    *p = c->policy;
    p->precision_rule = mg_config_precision_rule(c);
    /* a sample lasts >= 100 timer overheads (and ticks): overhead < 1% */
    p->min_sample_s = 100.0 * (timer_overhead_s > tick_s ? timer_overhead_s : tick_s);
    if (p->min_sample_s < 1e-6)
        p->min_sample_s = 1e-6;
}


void mg_bench_variant_label(const mg_bench *b, long v, char *buf, size_t len)
{
    if (b->sweep.variant_labels)
        snprintf(buf, len, "%s=%s", b->sweep.variant_name, b->sweep.variant_labels[v]);
    else
        snprintf(buf, len, "%s=%ld", b->sweep.variant_name, v);
}
