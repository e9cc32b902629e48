/* SPDX-License-Identifier: BSD-3-Clause */
/* The generic driver: see mpi/mg_bench.h; its stages in mg_run.h. */
#include "config.h"
#include "mg_json.h"
#include "mg_run.h"

#include "mg_exit.h"
#include "mg_stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_variants_from_list(const mg_list *given, const long *defaults, int ndefaults, long *values,
                          int max)
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

int mg_variants_delays(const mg_list *given, int relative, long *values, int max)
{
    static const long us[] = {MG_DELAYS_US}, pct[] = {MG_DELAYS_PCT};
    return mg_variants_ref_first(
        0, given, relative ? pct : us,
        relative ? (int)(sizeof pct / sizeof *pct) : (int)(sizeof us / sizeof *us), values, max);
}

int mg_delays_check(const mg_list *given, int relative, char *err, size_t errlen)
{
    const long most = relative ? MG_DELAY_MAX_PCT : MG_DELAY_MAX_US;
    for (int i = 0; i < given->n; ++i) {
        if (given->v[i] > most) {
            snprintf(err, errlen,
                     "--delays: %ld%s is above %ld%s (a size measures at least --min-samples "
                     "delays, which the time budget cannot cut short)",
                     given->v[i], relative ? "%" : " us", most,
                     relative ? "% of l_0" : " us (1 s)");
            return -1;
        }
    }
    return 0;
}

mg_figure_span mg_ctx_figure_over_ranks(const mg_ctx *c, int k, int nfigures)
{
    mg_figure_span out = {INFINITY, 0.0, -INFINITY};
    int n = 0;
    for (int r = 0; r < c->nranks; ++r) {
        double v = c->rank_figures[(size_t)r * (size_t)nfigures + (size_t)k];
        if (!isfinite(v))
            continue;
        out.min = fmin(out.min, v);
        out.max = fmax(out.max, v);
        out.mean += v;
        ++n;
    }
    if (n == 0)
        out.min = out.mean = out.max = NAN;
    else
        out.mean /= n;
    return out;
}

const char *mg_thread_level_name(int level)
{
    if (level == MPI_THREAD_MULTIPLE)
        return "MPI_THREAD_MULTIPLE";
    if (level == MPI_THREAD_SERIALIZED)
        return "MPI_THREAD_SERIALIZED";
    if (level == MPI_THREAD_FUNNELED)
        return "MPI_THREAD_FUNNELED";
    return "MPI_THREAD_SINGLE";
}

/* A benchmark whose threads need more than the library provides, or
 * whose options need what it lacks: exit 77. */
static int check_support(mg_run *s)
{
    char msg[MG_ERRLEN];
    const char *lacks = s->b->params.unsupported ? s->b->params.unsupported(&s->ctx) : NULL;
    if (s->b->layout.thread_level > s->ctx.thread_provided) {
        snprintf(msg, sizeof msg, "needs %s; this MPI library provides %s",
                 mg_thread_level_name(s->b->layout.thread_level),
                 mg_thread_level_name(s->ctx.thread_provided));
        return mg_run_error(s, "thread_level", MG_EXIT_SKIP, msg, "", -1, -1);
    }
    if (lacks != NULL) {
        return mg_run_error(s, "unsupported", MG_EXIT_SKIP, lacks, "", -1, -1);
    }
    return MG_EXIT_OK;
}

/* The observers' early phases (--pvars list): -1, the run goes on; else
 * its exit code, an error said as the run's errors are. */
static int observe_early(mg_run *s)
{
    mg_early_error e = {"internal", ""};
    int rc = mg_observe_early(&s->plan->obs, &s->ctx, s->ctx.rank == 0 ? s->io.out : NULL, &e);
    if (rc > 0 && e.msg[0])
        return mg_run_error(s, e.code, rc, e.msg, "", -1, -1);
    return rc;
}

/* --turns: the group's semaphores, opened even when the plan failed so that
 * the group learns this launch is done. */
static int open_turns(mg_run *s)
{
    char err[MG_ERRLEN] = "";
    const mg_plan *p = s->plan;
    s->ctx.drv.turns = mg_turns_open(&p->turns, s->ctx.comm, p->cfg.turn_slice_s,
                                     p->cfg.turn_timeout_s, err, sizeof err);
    if (s->ctx.drv.turns != NULL)
        return MG_EXIT_OK;
    return mg_run_error(s, "turns", MG_EXIT_INTERNAL, err, "", -1, -1);
}

int mg_run_stages(mg_run *s, const mg_env *env)
{
    int rc, done, served;

    s->env = env;
    s->ctx.drv.bench = s->b;
    s->ctx.drv.err = s->io.err;
    env->join(s, env->arg);
    if (s->plan->has_turns && (rc = open_turns(s)) != MG_EXIT_OK)
        return rc;
    if ((rc = mg_plan_report(s, &done)) != MG_EXIT_OK || done)
        return rc;
    if ((rc = check_support(s)) != MG_EXIT_OK)
        return rc;
    if ((rc = observe_early(s)) >= 0)
        return rc;
    if (mg_session_rails(s, &served, &rc) != 0)
        return rc;
    if ((rc = mg_plan_check(s)) != MG_EXIT_OK || (rc = mg_session_layout(s)) != MG_EXIT_OK)
        return rc;
    env->prov(&s->prov, &s->ctx, env->arg);
    s->ctx.drv.prov = &s->prov;
    if ((rc = mg_run_observe(s, env->observers)) != MG_EXIT_OK)
        return rc;
    return mg_run_sweep(s);
}

/* The MPI library's environment: MPI_COMM_WORLD's ranks, MPI_Wtime, the
 * nodes from shared-memory communicators, the run record's facts from the
 * library and the host, every registered observer. */
static void join_mpi(mg_run *s, void *arg)
{
    (void)arg;
    s->ctx.comm = MPI_COMM_WORLD;
    MG_MPI_CHECK(MPI_Comm_rank(s->ctx.comm, &s->ctx.rank));
    MG_MPI_CHECK(MPI_Comm_size(s->ctx.comm, &s->ctx.nranks));
    mg_group_mpi(&s->ctx.drv.group, &s->ctx.comm);
    s->ctx.drv.clock.now_s = mg_wtime;
    s->ctx.drv.clock_offset = mg_mpi_clock_offset;
    s->node_of = mg_topology(&s->ctx);
}

static void prov_mpi(mg_prov *p, const mg_ctx *ctx, void *arg)
{
    (void)arg;
    mg_prov_collect(p, ctx);
}

const mg_env mg_env_mpi = {.join = join_mpi, .prov = prov_mpi, .observers = mg_observers};

void mg_run_init(mg_run *s, const mg_plan *p)
{
    const mg_bench *b = p->b;
    const size_t psize = p->base->params.params_size;

    memset(s, 0, sizeof *s);
    s->plan = p;
    s->b = b;
    s->io.out = stdout;
    s->io.err = stderr;
    s->rec_cfg = p->cfg;
    mg_xfer_init(&s->ctx.xfer, MPI_COMM_WORLD); /* the plain transport until the session's */
    s->ctx.base = p->base;
    s->ctx.peer = -1;
    s->ctx.cfg = &p->cfg;
    s->ctx.sizes = p->failed || p->help ? NULL : &p->sweep;
    s->ctx.drv.opts = p->base->params.opts;
    s->ctx.drv.given = p->given;
    s->ctx.drv.obs_params = &p->obs;
    /* the run's copy of the options (params.resolve changes it), and the
     * kernel state of the chosen form, zeroed: a program that initialises
     * MPI itself (layout.init) keeps there what it made or measured */
    if ((s->ctx.params = calloc(1, psize ? psize : 1)) == NULL ||
        (b->kernel.state_size && (s->ctx.state = calloc(1, b->kernel.state_size)) == NULL) ||
        (b->kernel.rails && !p->failed && p->help == NULL &&
         (s->mr = mg_multirail_pre_init(&p->rails)) == NULL)) {
        fprintf(stderr, "mpigauge_%s: out of memory\n", b->id.name);
        exit(MG_EXIT_INTERNAL);
    }
    memcpy(s->ctx.params, p->params, psize);
}

void mg_run_release(mg_run *s)
{
    mg_xfer_release(&s->ctx.xfer, s->ctx.sbuf);
    mg_xfer_release(&s->ctx.xfer, s->ctx.rbuf);
    mg_multirail_destroy(s->mr);
    free(s->ctx.reqs);
    free(s->ctx.state);
    free(s->node_of);
    free(s->partner_of);
    mg_prov_free(&s->prov);
    free(s->rows.row);
    free(s->rows.label);
    free(s->info_variants);
    mg_kv_free(&s->row_observed);
    mg_kv_free(&s->info_kernel);
    free(s->ctx.params);
}

int mg_main_refuse(const char *name, const char *code, int exit_code, const char *msg, int argc,
                   char **argv)
{
    const mg_streams io = {stdout, stderr};
    const mg_error_info e = {
        .benchmark = name, .code = code, .message = msg, .exit_code = exit_code, .ranks_min = -1};
    const int format = mg_json_requested(argc, argv) ? MG_FORMAT_JSON : MG_FORMAT_TABLE;
    int rank = 0;

    MG_MPI_CHECK(MPI_Init(&argc, &argv));
    MG_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    if (exit_code == MG_EXIT_SKIP && rank == 0)
        fprintf(stderr, "mpigauge_%s: %s\n", name, msg);
    else if (exit_code != MG_EXIT_SKIP && rank == 0)
        mg_error_write(&io, format, &e, "");
    MG_MPI_CHECK(MPI_Finalize());
    return exit_code;
}

/* Standard output flushed: 0, or the internal-error exit code. */
static int flush_out(void) { return fflush(stdout) == 0 ? MG_EXIT_OK : MG_EXIT_INTERNAL; }

/* --mpi-library: which library the dynamic linker gave this program, asked
 * before (and without) MPI_Init, which the standard allows; the front-end
 * reads it to find the launcher that belongs to that library. */
static int print_library(const mg_bench *b)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, v = 0, sv = 0;
    mg_json j;

    if (MPI_Get_library_version(lib, &len) != MPI_SUCCESS ||
        MPI_Get_version(&v, &sv) != MPI_SUCCESS) {
        fprintf(stderr,
                "mpigauge_%s: the MPI library does not answer MPI_Get_library_version "
                "before MPI_Init\n",
                b->id.name);
        return MG_EXIT_INTERNAL;
    }
    mg_json_init(&j, stdout);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "mpi_library");
    mg_json_string(&j, "benchmark", b->id.name);
    mg_json_string(&j, "library", lib);
    mg_json_int(&j, "mpi_version", v);
    mg_json_int(&j, "mpi_subversion", sv);
    mg_json_string(&j, "build_header", MG_MPI_BUILD_IMPL);
    mg_json_string(&j, "mpigauge_version", MG_VERSION_STRING);
    mg_json_bool(&j, "runs_alone", (b->id.facts & MG_FACT_ALONE) != 0);
    mg_json_object_end(&j);
    fputc('\n', stdout);
    return flush_out();
}

/* The program's life from its command line (translated from OSU's under an
 * OSU name: osu, else NULL). */
static int main_with(const mg_bench *b, int argc, char **argv, const mg_osu *osu)
{
    mg_plan plan;
    mg_run s;
    int rc = MG_EXIT_OK, mpit, mpit_level;

    mg_plan_make(&plan, b, osu, mg_env_mpi.observers, argc, argv);
    if (osu && !plan.note[0])
        mg_osu_warning(osu, plan.note, sizeof plan.note);
    if ((plan.cfg.mpi_library || plan.cfg.osu_names) && !plan.failed) {
        if (plan.cfg.osu_names)
            mg_osu_list(stdout);
        rc = plan.cfg.osu_names ? flush_out() : print_library(plan.b);
        mg_plan_free(&plan);
        return rc;
    }
    mg_run_init(&s, &plan);
    if (!plan.failed)
        mg_out_guard_start(plan.cfg.output ? plan.cfg.output : mg_observe_guarded_file(&plan.obs));
    if (s.b->layout.init)
        s.b->layout.init(&s.ctx, &argc, &argv, s.b->layout.thread_level);
    else if (s.b->layout.thread_level > MPI_THREAD_SINGLE)
        MG_MPI_CHECK(
            MPI_Init_thread(&argc, &argv, s.b->layout.thread_level, &s.ctx.thread_provided));
    else
        MG_MPI_CHECK(MPI_Init(&argc, &argv));
    MG_MPI_CHECK(MPI_Query_thread(&s.ctx.thread_provided));
    MG_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    /* one MPI_T reference for the whole run: the run record's cvars and
     * the pvars observer each initialise and finalise it, and MPICH 4.0
     * crashes in MPI_T_*_get_num once MPI_T is initialised again after its
     * last MPI_T_finalize */
    mpit = MPI_T_init_thread(MPI_THREAD_SINGLE, &mpit_level) == MPI_SUCCESS;
    rc = mg_run_stages(&s, &mg_env_mpi);
    if (mpit)
        MPI_T_finalize();
    mg_turns_close(s.ctx.drv.turns);
    if (rc != MG_EXIT_OK && s.ctx.rank == 0 && !s.rail_helper)
        mg_out_note_stale(&s.out,
                          plan.cfg.output ? plan.cfg.output : mg_output_requested(argc, argv));
    if (!s.rail_helper)
        mg_xfer_finish(&s.ctx.xfer, rc);
    mg_run_release(&s);
    mg_plan_free(&plan);
    mg_out_guard_stop();
    fflush(stdout);
    MG_MPI_CHECK(MPI_Finalize());
    return rc;
}

int mg_main(const mg_bench *b, int argc, char **argv)
{
    const mg_osu_entry *e = mg_osu_find(argv[0]);
    char err[MG_ERRLEN];
    mg_osu o;
    int rc;

    if (e == NULL)
        return main_with(b, argc, argv, NULL);
    /* OSU's exit codes: 0, or 1 for a usage error and every failure */
    if (mg_osu_translate(e, argc, argv, &o, err, sizeof err) != 0) {
        /* the program as the user named it leads the message */
        char msg[MG_ERRLEN + 64];
        snprintf(msg, sizeof msg, "%s: %s", e->osu, err);
        return mg_osu_exit(mg_main_refuse(b->id.name, "usage", MG_EXIT_USAGE, msg, argc, argv));
    }
    rc = main_with(b, o.argc, o.argv, &o);
    mg_osu_free(&o);
    return mg_osu_exit(rc);
}

int mg_main_named(const char *program, const char *what, int (*run)(const char *, int, char **),
                  void (*list)(FILE *), int argc, char **argv)
{
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    char msg[256];
    if (strncmp(name, "mpigauge_", 9) == 0)
        name += 9;
    const mg_osu_entry *osu = mg_osu_find(name);
    if (osu != NULL) /* an OSU name: mg_main sees argv[0] too */
        return run(osu->bench, argc, argv);
    if (strcmp(name, program) != 0) /* started under one of its operations' names */
        return run(name, argc, argv);
    if (argc > 1 && strcmp(argv[1], "--list-names") == 0) {
        list(stdout);
        return MG_EXIT_OK;
    }
    if (argc < 2 || argv[1][0] == '-') {
        snprintf(msg, sizeof msg,
                 "no %s named: mpigauge_%s NAME [OPTIONS], or mpigauge_NAME (the names: "
                 "mpigauge_%s --list-names)",
                 what, program, program);
        return mg_main_refuse(program, "usage", MG_EXIT_USAGE, msg, argc, argv);
    }
    name = argv[1];
    argv[1] = argv[0];
    return run(name, argc - 1, argv + 1);
}
