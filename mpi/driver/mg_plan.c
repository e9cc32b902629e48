/* SPDX-License-Identifier: BSD-3-Clause */
/* The plan: every option table parsed before anything is measured, the
 * usage decided on every rank and reported by rank 0 (mg_run.h). */
#include "mg_run.h"

#include "config.h"
#include "mg_exit.h"
#include "mg_opts_json.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Under an OSU name (osu: its entry, else NULL) the program is called by
 * that name and exits as OSU's do: 0 or 1 (mg_osu_exit). */
static void print_help(FILE *f, const mg_bench *b, const mg_osu *osu, const mg_opt_table *tables,
                       size_t nt)
{
    char lo[32], hi[32];

    mg_size_format(b->sizes.default_min_size, lo, sizeof lo);
    mg_size_format(b->sizes.default_max_size, hi, sizeof hi);
    fprintf(f, "Usage: mpirun -n %d %s%s [OPTIONS]\n%s\nSizes by default: %s:%s\n\nOptions:\n",
            b->layout.min_ranks, osu ? "" : "mpigauge_", osu ? osu->e->osu : b->id.name,
            b->report.description, lo, hi);
    mg_opts_help(f, tables, nt);
    if (osu)
        fprintf(f, "\nExit codes (as the OSU Micro-Benchmarks'): %d ok, %d any failure.\n",
                mg_osu_exit(MG_EXIT_OK), mg_osu_exit(MG_EXIT_FAIL));
    else
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

const char *mg_output_requested(int argc, char **argv)
{
    return mg_opts_last_value(argc, argv, 'o', "output");
}

/* --turns: parsed even when the rest of the plan failed (the group must learn
 * that this launch is done); a bad spec fails the plan only if nothing else
 * did. */
static void plan_turns(mg_plan *p)
{
    char err[MG_ERRLEN];
    if (p->cfg.turns == NULL && p->failed)
        /* a launch whose options fail to parse must still join its group,
         * to tell it that it is done */
        p->cfg.turns = mg_opts_last_value(p->argc, p->argv, 0, "turns");
    if (p->cfg.turns == NULL)
        return;
    p->has_turns = mg_turns_parse(p->cfg.turns, &p->turns, err, sizeof err) == 0;
    if (!p->has_turns && !p->failed) {
        snprintf(p->err, sizeof p->err, "%s", err);
        p->failed = 1;
    }
    if (p->has_turns && !p->failed && p->base->kernel.rails && p->rails.rails > 1) {
        snprintf(p->err, sizeof p->err, "--turns cannot be combined with --rails");
        p->failed = 1;
    }
}

/* The option tables of this benchmark: common, the observers', per-call
 * sync, its own, rails. */
static size_t plan_tables(mg_plan *p, mg_opt_table *tables)
{
    const mg_bench *b = p->base;
    mg_opt_table common[2];
    size_t nc = mg_config_tables(b, &p->cfg, common), nt = 0;
    tables[nt++] = common[0];
    nt += mg_observer_params_tables(&p->obs, tables + nt); /* common to every program too */
    if (nc > 1)
        tables[nt++] = common[1];
    if (b->params.opts)
        tables[nt++] = (mg_opt_table){b->params.opts, p->params, "benchmark", p->given};
    if (b->kernel.rails)
        tables[nt++] = (mg_opt_table){mg_rail_optdefs, &p->rails, "rails", NULL};
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

static void plan_fail(mg_plan *p, int how, const char *msg)
{
    snprintf(p->err, sizeof p->err, "%s", msg);
    p->failed = how;
}

/* The form params.choose picks from the parsed options (what choose sees of
 * the context: the options, the common ones, and which were given). */
static void plan_form(mg_plan *p)
{
    const mg_bench *b = p->base;
    mg_ctx c;

    memset(&c, 0, sizeof c);
    c.params = p->params;
    c.cfg = &p->cfg;
    c.base = b;
    c.peer = -1;
    c.drv.opts = b->params.opts;
    c.drv.given = p->given;
    memset(&p->form, 0, sizeof p->form);
    mg_form_take(&p->form, b);
    if (!b->params.choose(&c, b, &p->form))
        return;
    /* a form has no identity or options of its own (mg_form): the program's
     * stay; it may not take rails the program does not parse options for */
    if (p->form.kernel.rails != b->kernel.rails) {
        plan_fail(p, 2, "internal: choose returned a form that differs in its rails");
        return;
    }
    p->form_b = mg_form_bench(b, &p->form);
    p->b = &p->form_b;
}

/* -m MAX below the default sweep's start: what the start is and why. */
static void below_default_min(mg_plan *p, const char *text)
{
    const mg_bench *b = p->b;
    char msg[64];
    uint64_t v;
    if (strpbrk(text, ":,") || mg_size_parse(text, &v, msg, sizeof msg) != 0 ||
        v >= b->sizes.default_min_size || v < b->sizes.min_size)
        return;
    snprintf(p->err, sizeof p->err,
             "-m %s: one size is the largest of a sweep from this program's smallest, %llu "
             "bytes%s%s%s; for sizes up to %s give -m MIN:%s (like -m %llu:%s), or list them",
             text, (unsigned long long)b->sizes.default_min_size,
             b->sizes.default_min_why ? " (" : "",
             b->sizes.default_min_why ? b->sizes.default_min_why : "",
             b->sizes.default_min_why ? ")" : "", text, text, (unsigned long long)b->sizes.min_size,
             text);
    p->failed = 1;
}

/* The sizes (-m, or the form's default sweep) into p->sweep. */
static void plan_sizes(mg_plan *p)
{
    const mg_bench *b = p->b;
    char spec[64], msg[MG_ERRLEN - 32];
    const char *text = p->cfg.sizes_spec;

    if (text != NULL && b->sizes.none) {
        /* barrier: no message size; -m (as a suite's "-- -m ..." gives every
         * line) is ignored, and said once, rather than measuring the same
         * call at every size */
        snprintf(p->note, sizeof p->note, "-m %s ignored: %s has no message size", text,
                 b->id.name);
        p->cfg.sizes_spec = text = NULL;
    }
    if (text != NULL && (below_default_min(p, text), p->failed))
        return;
    if (text == NULL) {
        snprintf(spec, sizeof spec, "%llu:%llu", (unsigned long long)b->sizes.default_min_size,
                 (unsigned long long)b->sizes.default_max_size);
        text = spec;
    }
    if (mg_sweep_parse(text, b->sizes.min_size, b->sizes.default_min_size,
                       b->sizes.default_max_size, &p->sweep, msg, sizeof msg) != 0) {
        snprintf(p->err, sizeof p->err, "-m: %s", msg);
        p->failed = 1;
    }
}

/* The form's timing defaults, then what the common options do not allow. */
static void plan_policy(mg_plan *p)
{
    const mg_bench *b = p->b;
    mg_policy_cfg pc;
    char err[MG_ERRLEN];

    if (p->cfg.policy.iterations == 0)
        p->cfg.policy.iterations = b->timing.default_iterations;
    if (p->cfg.policy.warmup_iters < 0 && b->timing.default_warmup > 0)
        p->cfg.policy.warmup_iters = b->timing.default_warmup;
    mg_policy_from_config(&p->cfg, 0.0, 0.0, &pc);
    if (mg_policy_cfg_check(&pc, err, sizeof err) != 0)
        plan_fail(p, 1, err);
    else if (p->cfg.iterations_large > 0 && p->cfg.policy.iterations <= 0)
        plan_fail(p, 1, "--iterations-large needs -i");
    else if (p->cfg.warmup_large >= 0 && p->cfg.policy.warmup_iters < 0)
        plan_fail(p, 1, "--warmup-large needs -x");
    else if (p->cfg.sync_window_us > 0.0 && p->cfg.sync != MG_SYNC_WINDOW)
        plan_fail(p, 1, "--sync-window needs --sync window");
    else if (mg_arrival_parse(p->cfg.arrival_spec, &p->cfg.arrival, err, sizeof err) != 0)
        plan_fail(p, 1, err);
    else if (p->cfg.arrival.kind != MG_ARRIVAL_NONE && p->cfg.sync != MG_SYNC_WINDOW)
        plan_fail(p, 1, "--arrival needs --sync window (a common start on synchronised clocks)");
    else if (mg_noise_parse(p->cfg.noise_spec, &p->cfg.noise, err, sizeof err) != 0)
        plan_fail(p, 1, err);
    else if (b->timing.time_mode == MG_TIME_CALL && p->cfg.policy.iterations > 10000000)
        plan_fail(p, 1, "-i: at most 10000000 calls per size (every call is a sample)");
    else if (b->kernel.plain_calls && p->rails.rails > 1)
        plan_fail(p, 1, "--rails applies to the plain calls only (not with --persistent)");
}

/* --help / --version: the text rank 0 writes (the options given with --help
 * are still checked: -m bad -h is a usage error). */
static void plan_help(mg_plan *p)
{
    mg_opt_table tables[4 + MG_MAX_OBSERVERS];
    size_t nt = plan_tables(p, tables), len = 0;
    FILE *f = open_memstream(&p->help, &len);

    if (f == NULL) {
        plan_fail(p, 2, "out of memory");
        return;
    }
    if (p->cfg.help && p->cfg.format == MG_FORMAT_JSON)
        mg_opts_json_help(f, p->b->id.name, tables, nt);
    else if (p->cfg.help)
        print_help(f, p->b, p->osu, tables, nt);
    else
        fprintf(f, "mpigauge_%s %s\n", p->b->id.name, MG_VERSION_STRING);
    if (fclose(f) != 0)
        plan_fail(p, 2, "out of memory");
}

static void plan_alloc(mg_plan *p, const mg_observer *const *observers)
{
    const mg_bench *b = p->base;
    size_t rows = 0;
    p->params = calloc(1, b->params.params_size ? b->params.params_size : 1);
    if (p->params == NULL) {
        fprintf(stderr, "mpigauge_%s: out of memory\n", b->id.name);
        exit(MG_EXIT_INTERNAL);
    }
    if (b->params.params_default)
        memcpy(p->params, b->params.params_default, b->params.params_size);
    if (mg_observer_params_make(&p->obs, observers) != 0) {
        fprintf(stderr, "mpigauge_%s: out of memory\n", b->id.name);
        exit(MG_EXIT_INTERNAL);
    }
    while (b->params.opts && b->params.opts[rows].type != MG_OPT_END)
        ++rows;
    if (rows > MG_MAX_BENCH_OPTS) {
        fprintf(stderr, "mpigauge_%s: internal: more than %d option rows\n", b->id.name,
                MG_MAX_BENCH_OPTS);
        exit(MG_EXIT_INTERNAL);
    }
}

void mg_plan_make(mg_plan *p, const mg_bench *b, const mg_osu *osu,
                  const mg_observer *const *observers, int argc, char **argv)
{
    mg_opt_table tables[4 + MG_MAX_OBSERVERS];
    size_t nt;

    memset(p, 0, sizeof *p);
    p->base = p->b = b;
    p->osu = osu;
    p->argc = argc;
    p->argv = argv;
    mg_config_default(&p->cfg);
    mg_rail_opts_default(&p->rails);
    plan_alloc(p, observers);
    nt = plan_tables(p, tables);
    if (mg_opts_defaults(tables, nt, p->err, sizeof p->err) != 0) {
        p->failed = 2;
        return;
    }
    if (mg_json_requested(argc, argv)) /* an error in the options is a record too */
        p->cfg.format = MG_FORMAT_JSON;
    p->failed = mg_opts_parse(tables, nt, argc, argv, p->err, sizeof p->err) != 0;
    if (p->cfg.policy.max_samples == 0) /* turns: a size runs its whole budget, 10 us samples */
        p->cfg.policy.max_samples =
            p->cfg.turns ? MG_POLICY_MAX_SAMPLES_TURNS : MG_POLICY_MAX_SAMPLES;
    if (!p->failed && p->cfg.percentiles)
        p->failed = mg_pctl_parse(p->cfg.percentiles, &p->pctl, p->err, sizeof p->err) != 0;
    plan_turns(p);
    if (!p->failed && b->params.choose)
        plan_form(p);
    if (!p->failed && (p->cfg.help || p->cfg.version)) {
        if (p->cfg.help && p->cfg.sizes_spec)
            plan_sizes(p);
        if (!p->failed)
            plan_help(p);
        return;
    }
    if (!p->failed)
        plan_sizes(p);
    if (!p->failed)
        plan_policy(p);
}

void mg_plan_free(mg_plan *p)
{
    mg_sweep_free(&p->sweep);
    free(p->params);
    free(p->help);
    mg_observer_params_free(&p->obs);
}

int mg_plan_report(const mg_run *s, int *done)
{
    const mg_plan *p = s->plan;

    *done = 0;
    if (p->failed == 2)
        mg_mpi_die(__FILE__, __LINE__, p->err);
    if (p->note[0] && s->ctx.rank == 0) /* under the name the program ran as */
        fprintf(s->io.err, "%s%s: %s\n", p->osu ? "" : "mpigauge_",
                p->osu ? p->osu->e->osu : p->b->id.name, p->note);
    if (p->failed)
        return mg_run_usage(s, p->err);
    if (p->help != NULL) {
        if (s->ctx.rank == 0)
            fputs(p->help, s->io.out);
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

int mg_plan_check(mg_run *s)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;
    char err[MG_ERRLEN];
    int rc;

    if ((rc = check_ranks(s)) != MG_EXIT_OK)
        return rc;
    if (s->plan->cfg.arrival.kind == MG_ARRIVAL_ONE_LATE &&
        s->plan->cfg.arrival.late_rank >= ctx->nranks) {
        snprintf(err, sizeof err, "--arrival one-late:...@%d: there are only %d ranks",
                 s->plan->cfg.arrival.late_rank, ctx->nranks);
        return mg_run_usage(s, err);
    }
    if (b->params.resolve && b->params.resolve(ctx, err, sizeof err) != 0)
        return mg_run_usage(s, err);
    if (b->params.check && b->params.check(ctx, err, sizeof err) != 0)
        return mg_run_usage(s, err);
    return MG_EXIT_OK;
}
