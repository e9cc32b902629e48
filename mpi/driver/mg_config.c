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
    {.long_name = "sync",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(mg_config, sync),
     .arg_name = "barrier|window",
     .help =
         "synchronise the ranks before every call: a barrier, or a common start time on rank 0's "
         "clock (late starts are dropped and counted)",
     .choices = sync_names,
     .def = "barrier"},
    {.long_name = "sync-window",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(mg_config, sync_window_us),
     .arg_name = "US",
     .help = "--sync window: window length in us (default: 2 x the warm-up's call time + 2 round "
             "trips, at least " MG_STR(MG_SYNC_WINDOW_MIN_US) "; doubled after a late start)",
     .min = 1e-3,
     .max = 1e6,
     .key = "sync_window_us"},
    {.long_name = "arrival",
     .type = MG_OPT_STRING,
     .offset = offsetof(mg_config, arrival_spec),
     .arg_name = "skew:US|random:US|one-late:US[@R]",
     .help = "--sync window: ranks start late by a pattern (skew: rank r starts r/(P-1) x US "
             "late; random: each call a draw in [0, US); one-late: rank R, default the last); the "
             "figure is the latest end minus the last rank's arrival",
     .key = "arrival"},
    {.long_name = "noise",
     .type = MG_OPT_STRING,
     .offset = offsetof(mg_config, noise_spec),
     .arg_name = "period:US,len:US",
     .help = "while calls are timed, every rank takes a detour of len us every period us (a "
             "timer signal that spins), each rank at its own offset",
     .key = "noise"},
    {.type = MG_OPT_END}};

static const mg_opt common_opts[] = {
    {.short_name = 'm',
     .long_name = "message-size",
     .type = MG_OPT_STRING,
     .offset = offsetof(mg_config, sizes_spec),
     .arg_name = "[MIN:]MAX|LIST",
     .help =
         "message sizes: powers of two from MIN to MAX, or a list like 8,64,1K,1M (K/M/G binary)",
     .key = ""},
    {.short_name = 'i',
     .long_name = "iterations",
     .type = MG_OPT_LONG,
     .offset = offsetof(mg_config, policy.iterations),
     .arg_name = "N",
     .help = "fixed number of timed iterations per size (default: adaptive)",
     .min = 1,
     .max = 1e12},
    {.short_name = 'x',
     .long_name = "warmup",
     .type = MG_OPT_LONG,
     .offset = offsetof(mg_config, policy.warmup_iters),
     .arg_name = "N",
     .help = "warm-up iterations per size (default: timed, " MG_STR(
         MG_POLICY_WARMUP_MS) " ms or " MG_STR(MG_POLICY_WARMUP_MAX) " iterations)",
     .max = 1e12},
    {.long_name = "iterations-large",
     .type = MG_OPT_LONG,
     .offset = offsetof(mg_config, iterations_large),
     .arg_name = "N",
     .help = "with -i: the timed iterations of sizes above " MG_STR(
         MG_LARGE_SIZE) " bytes (OSU's split; default: as -i)",
     .min = 1,
     .max = 1e12,
     .key = ""}, /* not in the run record's options (its series keys stay): command_line */
    {.long_name = "warmup-large",
     .type = MG_OPT_LONG,
     .offset = offsetof(mg_config, warmup_large),
     .arg_name = "N",
     .help = "with -x: the warm-up iterations of sizes above " MG_STR(
         MG_LARGE_SIZE) " bytes (OSU's split; default: as -x)",
     .max = 1e12,
     .key = ""},
    {.long_name = "precision",
     .type = MG_OPT_PERCENT,
     .offset = offsetof(mg_config, policy.precision),
     .arg_name = "P%",
     .help =
         "adaptive: stop when the median's 95% CI half-width is within P%; off with --turns, where "
         "each size runs its whole time budget",
     .min = 1e-6,
     .max = 0.5,
     .def = MG_STR(MG_POLICY_PRECISION_PCT) "%"},
    {.long_name = "time-budget",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(mg_config, policy.budget_s),
     .arg_name = "SECONDS",
     .help = "adaptive: sampling time budget per size",
     .min = 1e-3,
     .max = 86400,
     .def = MG_STR(MG_POLICY_BUDGET_S),
     .key = "time_budget_s"},
    {.long_name = "min-samples",
     .type = MG_OPT_LONG,
     .offset = offsetof(mg_config, policy.min_samples),
     .arg_name = "N",
     .help = "adaptive: samples before the precision rule may stop",
     .min = 1,
     .max = 1e7,
     .def = MG_STR(MG_POLICY_MIN_SAMPLES)},
    {.long_name = "max-samples",
     .type = MG_OPT_LONG,
     .offset = offsetof(mg_config, policy.max_samples),
     .arg_name = "N",
     .help = "most samples per size (default " MG_STR(MG_POLICY_MAX_SAMPLES) "; " MG_STR(
         MG_POLICY_MAX_SAMPLES_TURNS) " with --turns)",
     .min = 1,
     .max = 1e7},
    {.short_name = 'c',
     .long_name = "validate",
     .type = MG_OPT_FLAG,
     .offset = offsetof(mg_config, validate),
     .help = "check delivered data for every size after timing (exit 1 on a mismatch)"},
    {.short_name = 'M',
     .long_name = "max-memory",
     .type = MG_OPT_SIZE,
     .offset = offsetof(mg_config, max_memory),
     .arg_name = "SIZE",
     .help =
         "refuse sizes whose buffers exceed SIZE per rank, at most node memory (or the cgroup's "
         "limit) / ranks (default: " MG_STR(MG_MEMORY_SHARE_NUM) "/" MG_STR(
             MG_MEMORY_SHARE_DEN) " of that)",
     .min = 1,
     .max = 281474976710656.0,
     .key = "max_memory_bytes"},
    {.long_name = "format",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(mg_config, format),
     .arg_name = "table|csv|json",
     .help = "what goes to standard output",
     .choices = format_names,
     .def = "table"},
    {.long_name = "columns",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(mg_config, columns),
     .arg_name = "default|osu|all|imb",
     .help = "table columns: the figure, its 95% CI and the sample count (80 columns); OSU's "
             "(the size and the figure, with -c Pass/Fail); every statistic, iterations, stop "
             "and the benchmark's own figures; or IMB's (#bytes #repetitions t_min t_max t_avg "
             "over the ranks, t[usec] or Mbytes/sec)",
     .choices = mg_columns_names,
     .def = "default"},
    {.short_name = 'z',
     .long_name = "percentiles",
     .type = MG_OPT_STRING,
     .offset = offsetof(mg_config, percentiles),
     .arg_name = "LIST",
     .help =
         "the percentile columns (table, CSV) in place of P90 and P99, like 50,99,99.9; JSON keeps "
         "p50, p90, p99 and adds them under percentiles"},
    {.short_name = 'o',
     .long_name = "output",
     .type = MG_OPT_STRING,
     .offset = offsetof(mg_config, output),
     .arg_name = "FILE",
     .help = "also write JSON Lines (run record, results) to FILE, complete or not at all",
     .key = ""},
    {.long_name = "no-cvars",
     .type = MG_OPT_FLAG,
     .offset = offsetof(mg_config, no_cvars),
     .help = "do not read the MPI library's control variables (MPI_T cvars) for the run record",
     .key = ""},
    {.long_name = "turns",
     .type = MG_OPT_STRING,
     .offset = offsetof(mg_config, turns),
     .arg_name = "NAME:ROLE:COUNT",
     .help =
         "take turns at measuring with the other launches of group NAME running now on the same "
         "nodes (mpigauge run sets it; doc/compare.md)",
     .key = ""},
    {.long_name = "turn-slice",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(mg_config, turn_slice_s),
     .arg_name = "SECONDS",
     .help = "--turns: measuring time before the turn is handed on",
     .min = 1e-3,
     .max = 60,
     .def = "0.005",
     .key = ""},
    {.long_name = "turn-timeout",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(mg_config, turn_timeout_s),
     .arg_name = "SECONDS",
     .help = "--turns: a wait for the group this long gives the turns up",
     .min = 0.1,
     .max = 86400,
     .def = "120",
     .key = ""},
    {.short_name = 'h',
     .long_name = "help",
     .type = MG_OPT_FLAG,
     .offset = offsetof(mg_config, help),
     .help = "show this help and exit (with --format json: one record per option)",
     .key = ""},
    {.short_name = 'v',
     .long_name = "version",
     .type = MG_OPT_FLAG,
     .offset = offsetof(mg_config, version),
     .help = "show the version and exit",
     .key = ""},
    {.long_name = "mpi-library",
     .type = MG_OPT_FLAG,
     .offset = offsetof(mg_config, mpi_library),
     .help = "print the MPI library this program loads (MPI_Get_library_version, called before and "
             "without MPI_Init) as one JSON line and exit; run it without a launcher",
     .key = ""},
    {.long_name = "osu-names",
     .type = MG_OPT_FLAG,
     .offset = offsetof(mg_config, osu_names),
     .help = "print the OSU Micro-Benchmarks names mpigauge answers to (OSU_NAME PROGRAM "
             "BENCHMARK per line; doc/osu.md) and exit; run it without a launcher",
     .key = ""},
    {.type = MG_OPT_END}};

void mg_config_default(mg_config *c)
{
    /* the options with a default in their row get it in mg_plan_make;
     * max_samples stays 0 until the plan knows whether --turns was given */
    memset(c, 0, sizeof *c);
    mg_policy_cfg_default(&c->policy);
    c->policy.max_samples = 0;
    c->warmup_large = -1;
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

mg_policy_cfg mg_policy_for_size(const mg_config *c, const mg_policy_cfg *p, uint64_t size)
{
    mg_policy_cfg out = *p;
    if (size > MG_LARGE_SIZE && c->iterations_large > 0)
        out.iterations = c->iterations_large;
    if (size > MG_LARGE_SIZE && c->warmup_large >= 0)
        out.warmup_iters = c->warmup_large;
    return out;
}

void mg_bench_variant_label(const mg_bench *b, long v, char *buf, size_t len)
{
    if (b->sweep.variant_labels)
        snprintf(buf, len, "%s=%s", b->sweep.variant_name, b->sweep.variant_labels[v]);
    else
        snprintf(buf, len, "%s=%ld", b->sweep.variant_name, v);
}

const char *mg_time_mode_name(int mode)
{
    static const char *const modes[] = {
        [MG_TIME_ROOT] = "root", [MG_TIME_MAX] = "max", [MG_TIME_CALL] = "call"};
    return mode >= 0 && mode <= MG_TIME_CALL ? modes[mode] : "unknown";
}
