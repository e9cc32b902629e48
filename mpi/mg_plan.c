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

static void print_help(FILE *f, const mg_bench *b, const mg_opt_table *tables, size_t nt)
{
    char lo[32], hi[32];

    mg_size_format(b->sizes.default_min_size, lo, sizeof lo);
    mg_size_format(b->sizes.default_max_size, hi, sizeof hi);
    fprintf(f,
            "Usage: mpirun -n %d mpigauge_%s [OPTIONS]\n%s\nSizes by default: %s:%s\n\n"
            "Options:\n",
            b->layout.min_ranks, b->id.name, b->id.description, lo, hi);
    mg_opts_help(f, tables, nt);
    fprintf(f,
            "\nExit codes: %d ok, %d measurement or validation failure, %d usage error,\n"
            "%d not applicable here, %d MPI or internal error.\n",
            MG_EXIT_OK, MG_EXIT_FAIL, MG_EXIT_USAGE, MG_EXIT_SKIP, MG_EXIT_INTERNAL);
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
    if (c->drv.opts == NULL || c->drv.given == NULL)
        return 0;
    for (const mg_opt *o = c->drv.opts; o->type != MG_OPT_END; ++o)
        if (o->long_name && strcmp(o->long_name, long_name) == 0)
            return c->drv.given[o - c->drv.opts];
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
    if (s->cfg.policy.max_samples == 0) /* turns: a size runs its whole budget, 10 us samples */
        s->cfg.policy.max_samples =
            s->cfg.turns ? MG_POLICY_MAX_SAMPLES_TURNS : MG_POLICY_MAX_SAMPLES;
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
            /* the identity (name, family) and the options are the
             * program's: a form changes what is measured, not what it is */
            if (strcmp(form->id.name, b->id.name) != 0 || form->id.family != b->id.family ||
                form->params.opts != b->params.opts ||
                form->params.params_size != b->params.params_size ||
                form->kernel.rails != b->kernel.rails) {
                snprintf(s->plan_err, sizeof s->plan_err,
                         "internal: choose returned a form of another identity or options");
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
        return mg_run_usage(s, s->plan_err);
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
            mg_opts_json_help(s->io.out, b->id.name, tables, nt);
        else if (ctx->rank == 0 && s->cfg.help)
            print_help(s->io.out, b, tables, nt);
        else if (ctx->rank == 0)
            fprintf(s->io.out, "mpigauge_%s %s\n", b->id.name, MG_VERSION_STRING);
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
    return mg_run_usage_error(s, "ranks", err, b->layout.min_ranks, b->layout.max_ranks);
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
             b->sizes.default_min_why ? ")" : "", text, text, (unsigned long long)b->sizes.min_size,
             text);
    return mg_run_usage(s, err);
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
            fprintf(s->io.err, "mpigauge_%s: -m %s ignored: %s has no message size\n", b->id.name,
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
        return mg_run_usage(s, err);
    }
    s->ctx.sizes = &s->sweep;
    return MG_EXIT_OK;
}

int mg_plan_check(mg_run *s)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;
    char err[MG_ERRLEN];
    mg_policy_cfg pc;
    int rc;

    if (s->cfg.policy.iterations == 0)
        s->cfg.policy.iterations = b->timing.default_iterations;
    if (s->cfg.policy.warmup_iters < 0 && b->timing.default_warmup > 0)
        s->cfg.policy.warmup_iters = b->timing.default_warmup;
    if ((rc = check_ranks(s)) != MG_EXIT_OK || (rc = check_sizes(s)) != MG_EXIT_OK)
        return rc;
    mg_policy_from_config(&s->cfg, 0.0, 0.0, &pc);
    if (mg_policy_cfg_check(&pc, err, sizeof err) != 0)
        return mg_run_usage(s, err);
    if (s->cfg.sync_window_us > 0.0 && s->cfg.sync != MG_SYNC_WINDOW)
        return mg_run_usage(s, "--sync-window needs --sync window");
    if (b->timing.time_mode == MG_TIME_CALL && s->cfg.policy.iterations > 10000000)
        return mg_run_usage(s, "-i: at most 10000000 calls per size (every call is a sample)");
    if (b->params.resolve && b->params.resolve(ctx, err, sizeof err) != 0)
        return mg_run_usage(s, err);
    if (b->params.check && b->params.check(ctx, err, sizeof err) != 0)
        return mg_run_usage(s, err);
    return MG_EXIT_OK;
}
