/* SPDX-License-Identifier: BSD-3-Clause */
/* The plan: every option table parsed before anything is measured, the
 * usage decided on every rank and reported by rank 0 (mg_run.h). */
#include "mg_run.h"

#include "config.h"
#include "mg_exit.h"
#include "mg_opts_json.h"

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
    {'i', "iterations", MG_OPT_LONG, offsetof(mg_config, iterations), "N",
     "fixed number of timed iterations per size (default: adaptive)", 1, 1e12, NULL, NULL, NULL},
    {'x', "warmup", MG_OPT_LONG, offsetof(mg_config, warmup), "N",
     "warm-up iterations per size (default: timed, " MG_STR(MG_POLICY_WARMUP_MS) " ms or " MG_STR(
         MG_POLICY_WARMUP_MAX) " iterations)",
     0, 1e12, NULL, NULL, NULL},
    {0, "precision", MG_OPT_PERCENT, offsetof(mg_config, precision), "P%",
     "adaptive: stop when the median's 95% CI half-width is within P%; off with --turns, where "
     "each size runs its whole time budget",
     1e-6, 0.5, NULL, MG_STR(MG_POLICY_PRECISION_PCT) "%", NULL},
    {0, "time-budget", MG_OPT_DOUBLE, offsetof(mg_config, budget_s), "SECONDS",
     "adaptive: sampling time budget per size", 1e-3, 86400, NULL, MG_STR(MG_POLICY_BUDGET_S),
     "time_budget_s"},
    {0, "min-samples", MG_OPT_LONG, offsetof(mg_config, min_samples), "N",
     "adaptive: samples before the precision rule may stop", 1, 1e7, NULL,
     MG_STR(MG_POLICY_MIN_SAMPLES), NULL},
    {0, "max-samples", MG_OPT_LONG, offsetof(mg_config, max_samples), "N",
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
    c->warmup = -1;
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
    mg_policy_cfg_default(p);
    p->warmup_iters = c->warmup;
    p->iterations = c->iterations;
    p->precision = c->precision;
    p->budget_s = c->budget_s;
    p->min_samples = (size_t)c->min_samples;
    p->max_samples = (size_t)c->max_samples;
    p->precision_rule = mg_config_precision_rule(c);
    /* a sample lasts >= 100 timer overheads (and ticks): overhead < 1% */
    p->min_sample_s = 100.0 * (timer_overhead_s > tick_s ? timer_overhead_s : tick_s);
    if (p->min_sample_s < 1e-6)
        p->min_sample_s = 1e-6;
}

static void print_help(const mg_bench *b, const mg_opt_table *tables, size_t nt)
{
    char lo[32], hi[32];

    mg_size_format(b->sizes.default_min_size, lo, sizeof lo);
    mg_size_format(b->sizes.default_max_size, hi, sizeof hi);
    printf("Usage: mpirun -n %d mpigauge_%s [OPTIONS]\n%s\nSizes by default: %s:%s\n\n"
           "Options:\n",
           b->layout.min_ranks, b->id.name, b->id.description, lo, hi);
    mg_opts_help(stdout, tables, nt);
    printf("\nExit codes: %d ok, %d measurement or validation failure, %d usage error,\n"
           "%d not applicable here, %d MPI or internal error.\n",
           MG_EXIT_OK, MG_EXIT_FAIL, MG_EXIT_USAGE, MG_EXIT_SKIP, MG_EXIT_INTERNAL);
}

/* All ranks reach the same verdict; rank 0 says why, on standard error and,
 * in JSON mode, as a record on standard output ({"type":"error"}, with the
 * rank counts when `code` is "ranks"; doc/output.md) so that a runner never
 * reads prose. need_min < 0: no counts. */
int mg_usage_error(const mg_ctx *ctx, const mg_bench *b, const char *code, const char *msg,
                   int need_min, int need_max)
{
    mg_output_error(ctx, b, code, MG_EXIT_USAGE, msg, " (see --help)", need_min, need_max);
    return MG_EXIT_USAGE;
}

int mg_usage(const mg_ctx *ctx, const mg_bench *b, const char *msg)
{
    return mg_usage_error(ctx, b, "usage", msg, -1, -1);
}

/* JSON mode is known before the options are parsed, so that an error in
 * them is still reported as a record. */
int mg_json_requested(int argc, char **argv)
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

/* The last value of an option in argv, read without the option parser
 * (-S V, -SV, --long V, --long=V; short 0: none), for what must be known
 * when the options fail to parse. */
static const char *option_value(int argc, char **argv, char short_name, const char *long_name)
{
    const char *v = NULL;
    const size_t n = strlen(long_name);
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            break;
        if (a[0] == '-' && a[1] == '-' && strncmp(a + 2, long_name, n) == 0 && a[2 + n] == '=')
            v = a + 3 + n;
        else if (((a[0] == '-' && a[1] == '-' && strcmp(a + 2, long_name) == 0) ||
                  (short_name && a[0] == '-' && a[1] == short_name && !a[2])) &&
                 i + 1 < argc)
            v = argv[++i];
        else if (short_name && a[0] == '-' && a[1] == short_name && a[2])
            v = a + 2;
    }
    return v;
}

const char *mg_output_requested(int argc, char **argv)
{
    return option_value(argc, argv, 'o', "output");
}

/* --turns: parsed even when the rest of the plan failed (the group must learn
 * that this launch is done); a bad spec fails the plan only if nothing else
 * did. */
static void plan_turns(mg_run *s)
{
    char err[MG_ERRLEN];
    mg_turns_spec *t = &s->turns;
    if (s->cfg.turns == NULL && s->plan_failed)
        /* a launch whose options fail to parse must still join its group,
         * to tell it that it is done */
        s->cfg.turns = option_value(s->argc, s->argv, 0, "turns");
    if (s->cfg.turns == NULL)
        return;
    s->has_turns = mg_turns_parse(s->cfg.turns, t, err, sizeof err) == 0;
    if (!s->has_turns && !s->plan_failed) {
        snprintf(s->plan_err, sizeof s->plan_err, "%s", err);
        s->plan_failed = 1;
    }
    if (s->has_turns && !s->plan_failed && s->b->kernel.rails && s->rails.rails > 1) {
        snprintf(s->plan_err, sizeof s->plan_err, "--turns cannot be combined with --rails");
        s->plan_failed = 1;
    }
}

/* The option tables of this benchmark: common, per-call sync, its own, rails. */
static size_t plan_tables(mg_run *s, mg_opt_table *tables)
{
    size_t nt = mg_config_tables(s->b, &s->cfg, tables);
    if (s->b->params.opts)
        tables[nt++] = (mg_opt_table){s->b->params.opts, s->ctx.params, "benchmark", s->given};
    if (s->b->kernel.rails)
        tables[nt++] = (mg_opt_table){mg_rail_optdefs, &s->rails, "rails", NULL};
    return nt;
}

int mg_ctx_given(const mg_ctx *c, const char *long_name)
{
    if (c->opts == NULL || c->given == NULL)
        return 0;
    for (const mg_opt *o = c->opts; o->type != MG_OPT_END; ++o)
        if (o->long_name && strcmp(o->long_name, long_name) == 0)
            return c->given[o - c->opts];
    return 0;
}

void mg_plan_parse(mg_run *s)
{
    mg_opt_table tables[4];
    size_t nt = plan_tables(s, tables);

    if (mg_opts_defaults(tables, nt, s->plan_err, sizeof s->plan_err) != 0) {
        s->plan_failed = 2;
        return;
    }
    if (mg_json_requested(s->argc, s->argv)) /* an error in the options is a record too */
        s->cfg.format = MG_FORMAT_JSON;
    s->plan_failed =
        mg_opts_parse(tables, nt, s->argc, s->argv, s->plan_err, sizeof s->plan_err) != 0;
    if (s->cfg.max_samples == 0) /* turns: a size runs its whole budget, 10 us samples */
        s->cfg.max_samples = s->cfg.turns ? MG_POLICY_MAX_SAMPLES_TURNS : MG_POLICY_MAX_SAMPLES;
    if (!s->plan_failed && s->cfg.percentiles)
        s->plan_failed =
            mg_pctl_parse(s->cfg.percentiles, &s->pctl, s->plan_err, sizeof s->plan_err) != 0;
    plan_turns(s);
    if (s->plan_failed || s->cfg.help || s->cfg.version || !s->b->params.choose)
        return;
    {
        const mg_bench *b = s->b;
        memset(&s->form, 0, sizeof s->form);
        s->form.b = *b;
        if (b->params.choose(&s->ctx, b, &s->form)) {
            const mg_bench *form = &s->form.b;
            if (form->params.opts != b->params.opts ||
                form->params.params_size != b->params.params_size ||
                form->kernel.rails != b->kernel.rails) {
                snprintf(s->plan_err, sizeof s->plan_err,
                         "internal: choose returned a form with other options");
                s->plan_failed = 2;
                return;
            }
            s->b = form;
        }
        if (s->b->kernel.plain_calls && s->rails.rails > 1) {
            snprintf(s->plan_err, sizeof s->plan_err,
                     "--rails applies to the plain calls only (not with --persistent)");
            s->plan_failed = 1;
        }
    }
}

static int check_sizes(mg_run *s);

int mg_plan_report(mg_run *s, int *done)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;

    *done = 0;
    if (s->plan_failed == 2)
        mg_mpi_die(__FILE__, __LINE__, s->plan_err);
    if (s->plan_failed)
        return mg_usage(ctx, b, s->plan_err);
    if (s->cfg.help && s->cfg.sizes_spec) {
        /* -m bad -h: the options given with --help are still checked */
        int rc = check_sizes(s);
        if (rc != MG_EXIT_OK)
            return rc;
    }
    if (s->cfg.help || s->cfg.version) {
        mg_opt_table tables[4];
        size_t nt = plan_tables(s, tables);
        if (ctx->rank == 0 && s->cfg.help && s->cfg.format == MG_FORMAT_JSON)
            mg_opts_json_help(stdout, b->id.name, tables, nt);
        else if (ctx->rank == 0 && s->cfg.help)
            print_help(b, tables, nt);
        else if (ctx->rank == 0)
            printf("mpigauge_%s %s\n", b->id.name, MG_VERSION_STRING);
        *done = 1;
    }
    return MG_EXIT_OK;
}

static int check_ranks(mg_run *s)
{
    const mg_bench *b = s->b;
    char err[MG_ERRLEN], rails[160] = "";
    int n = s->ctx.nranks;

    if (n >= b->layout.min_ranks && n <= b->layout.max_ranks)
        return MG_EXIT_OK;
    if (b->kernel.rails && mg_multirail_groups(s->mr) > 1)
        snprintf(rails, sizeof rails,
                 " (benchmark ranks: with --rails %d --rail-steer "
                 "process every benchmark rank takes %d processes of its node)",
                 mg_multirail_groups(s->mr), mg_multirail_groups(s->mr));
    if (b->layout.min_ranks == b->layout.max_ranks)
        snprintf(err, sizeof err, "needs exactly %d ranks, got %d%s", b->layout.min_ranks, n,
                 rails);
    else
        snprintf(err, sizeof err, "needs %d to %d ranks, got %d%s", b->layout.min_ranks,
                 b->layout.max_ranks, n, rails);
    return mg_usage_error(&s->ctx, b, "ranks", err, b->layout.min_ranks, b->layout.max_ranks);
}

/* -m MAX below the default sweep's start: what the start is and why. */
static int below_default_min(mg_run *s, const char *text)
{
    const mg_bench *b = s->b;
    char err[MG_ERRLEN], msg[64];
    uint64_t v;
    if (strpbrk(text, ":,") || mg_size_parse(text, &v, msg, sizeof msg) != 0 ||
        v >= b->sizes.default_min_size || v < b->sizes.min_size)
        return MG_EXIT_OK;
    snprintf(err, sizeof err,
             "-m %s: one size is the largest of a sweep from this program's smallest, %llu "
             "bytes%s%s%s; for sizes up to %s give -m MIN:%s (like -m %llu:%s), or list them",
             text, (unsigned long long)b->sizes.default_min_size,
             b->sizes.default_min_why ? " (" : "",
             b->sizes.default_min_why ? b->sizes.default_min_why : "",
             b->sizes.default_min_why ? ")" : "", text, text,
             (unsigned long long)b->sizes.min_size, text);
    return mg_usage(&s->ctx, b, err);
}

static int check_sizes(mg_run *s)
{
    const mg_bench *b = s->b;
    char spec[64], msg[MG_ERRLEN - 32], err[MG_ERRLEN];
    const char *text = s->cfg.sizes_spec;
    int rc;

    if (text != NULL && b->sizes.none) {
        /* barrier: no message size; -m (as a suite's "-- -m ..." gives every
         * line) is ignored, and said once, rather than measuring the same
         * call at every size */
        if (s->ctx.rank == 0)
            fprintf(stderr, "mpigauge_%s: -m %s ignored: %s has no message size\n", b->id.name,
                    text, b->id.name);
        s->cfg.sizes_spec = text = NULL;
    }
    if (text != NULL && (rc = below_default_min(s, text)) != MG_EXIT_OK)
        return rc;

    if (text == NULL) {
        snprintf(spec, sizeof spec, "%llu:%llu", (unsigned long long)b->sizes.default_min_size,
                 (unsigned long long)b->sizes.default_max_size);
        text = spec;
    }
    if (mg_sweep_parse(text, b->sizes.min_size, b->sizes.default_min_size,
                       b->sizes.default_max_size, &s->sweep, msg, sizeof msg) != 0) {
        snprintf(err, sizeof err, "-m: %s", msg);
        return mg_usage(&s->ctx, b, err);
    }
    return MG_EXIT_OK;
}

int mg_plan_check(mg_run *s)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;
    char err[MG_ERRLEN];
    mg_policy_cfg pc;
    int rc;

    if (s->cfg.iterations == 0)
        s->cfg.iterations = b->timing.default_iterations;
    if (s->cfg.warmup < 0 && b->timing.default_warmup > 0)
        s->cfg.warmup = b->timing.default_warmup;
    if ((rc = check_ranks(s)) != MG_EXIT_OK || (rc = check_sizes(s)) != MG_EXIT_OK)
        return rc;
    mg_policy_from_config(&s->cfg, 0.0, 0.0, &pc);
    if (mg_policy_cfg_check(&pc, err, sizeof err) != 0)
        return mg_usage(ctx, b, err);
    if (s->cfg.sync_window_us > 0.0 && s->cfg.sync != MG_SYNC_WINDOW)
        return mg_usage(ctx, b, "--sync-window needs --sync window");
    if (b->timing.time_mode == MG_TIME_CALL && s->cfg.iterations > 10000000)
        return mg_usage(ctx, b, "-i: at most 10000000 calls per size (every call is a sample)");
    if (b->params.check && b->params.check(ctx, err, sizeof err) != 0)
        return mg_usage(ctx, b, err);
    return MG_EXIT_OK;
}
