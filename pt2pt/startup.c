/* SPDX-License-Identifier: BSD-3-Clause */
/* Start-up time (OSU osu_init; MPI-4 sessions) and the first message
 * through every rank (OSU osu_hello prints a greeting; here it is timed).
 *
 * startup: each rank reads CLOCK_REALTIME when main is entered and around
 * the initialisation chosen by --init: MPI_Init, MPI_Init_thread
 * (MPI_THREAD_MULTIPLE), or MPI_Session_init + MPI_Group_from_session_pset
 * ("mpi://WORLD") + MPI_Comm_create_from_group (MPI-4; MPI_Init follows,
 * untimed, for the driver). One launch is one measurement: the row's
 * figure is the slowest rank's initialisation in us (one sample); extras
 * give the fastest and mean rank, and, when the launcher's time is in
 * MG_LAUNCH_TIME (seconds since the epoch; `mpigauge run` sets it), the
 * latest rank's entry into main (process start, loading the libraries)
 * and the latest rank's return from the initialisation, both after the
 * launch. Start-up is summarised over launches by the front-end
 * (`mpigauge run -K N`, then compare or report).
 *
 * hello: right after MPI_Init rank 0 sends 1 byte round the ring 0 -> 1 ->
 * ... -> P-1 -> 0 and times it (first_us: lazy connection set-up and ranks
 * still initialising included); then the driver's samples time the same
 * ring with -m bytes (warm). Figure: the ring's round trip in us; extra:
 * per hop.
 */
#include "startup.h"

#include "config.h"

#include <math.h>
#include <string.h>

/* The kernel state: what the initialisation measured, and (--init
 * session) the session and its communicator until the teardown. */
typedef struct {
    mg_startup_times t; /* first: the shared layout (startup.h) */
#if MG_HAVE_SESSIONS
    int have_session;
    MPI_Session session;
    MPI_Comm comm;
#endif
} startup_state;

static const mg_startup_params *sp(const mg_ctx *c) { return c->params; }
static startup_state *st(const mg_ctx *c) { return c->state; }

static void session_init(startup_state *s)
{
#if MG_HAVE_SESSIONS
    MPI_Group world;
    MG_MPI_CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s->session));
    s->have_session = 1;
    s->comm = MPI_COMM_NULL;
    MG_MPI_CHECK(MPI_Group_from_session_pset(s->session, "mpi://WORLD", &world));
    MG_MPI_CHECK(MPI_Comm_create_from_group(world, "org.mpigauge.startup", MPI_INFO_NULL,
                                            MPI_ERRORS_RETURN, &s->comm));
    MG_MPI_CHECK(MPI_Group_free(&world));
#else
    (void)s;
#endif
}

/* Intel MPI 2021.19 refuses MPI_Init after MPI_Session_init ("Cannot call
 * MPI_INIT or MPI_INIT_THREAD more than once"), which MPI-4 allows and
 * Open MPI 5 and MPICH 5 do (bench/session_then_init.c): the driver needs
 * MPI_Init, so --init session exits 77 there. Asked before MPI_Init. */
static int world_after_session_refused(void) { return mg_mpi_library_is("Intel(R) MPI Library"); }

static void init(mg_ctx *c, int *argc, char ***argv, int required)
{
    int provided = 0, mode = sp(c)->init;
    /* asked before the clock starts */
    const int session =
        mode == MG_INIT_SESSION && MG_HAVE_SESSIONS && !world_after_session_refused();
    double t0 = mg_startup_wall();
    (void)required;
    if (mode == MG_INIT_THREAD)
        MG_MPI_CHECK(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided));
    else if (session)
        session_init(st(c));
    else
        MG_MPI_CHECK(MPI_Init(argc, argv));
    st(c)->t.ready_wall = mg_startup_wall();
    st(c)->t.init_s = st(c)->t.ready_wall - t0;
    if (session)
        MG_MPI_CHECK(MPI_Init(argc, argv));
}

static void teardown(mg_ctx *c)
{
#if MG_HAVE_SESSIONS
    startup_state *s = st(c);
    if (!s->have_session)
        return;
    if (s->comm != MPI_COMM_NULL)
        MG_MPI_CHECK(MPI_Comm_free(&s->comm));
    MG_MPI_CHECK(MPI_Session_finalize(&s->session));
    s->have_session = 0;
#else
    (void)c;
#endif
}

static const char *unsupported(const mg_ctx *c)
{
    if (sp(c)->init == MG_INIT_SESSION && !MG_HAVE_SESSIONS)
        return "--init session needs MPI-4 sessions (MPI_Session_init), which this MPI library "
               "lacks";
    if (sp(c)->init == MG_INIT_SESSION && world_after_session_refused())
        return "--init session: this MPI library (Intel MPI) refuses MPI_Init after "
               "MPI_Session_init, which MPI-4 allows and the driver needs "
               "(bench/session_then_init.c, doc/releases.md)";
    return NULL;
}

static int check(const mg_ctx *c, char *err, size_t errlen)
{
    if (sp(c)->marks.launch_bad) {
        snprintf(err, errlen, "MG_LAUNCH_TIME: not a time in seconds since the epoch");
        return -1;
    }
    if (c->cfg->sizes_spec != NULL) {
        snprintf(err, errlen, "-m does not apply: startup measures one initialisation");
        return -1;
    }
    if (c->cfg->policy.iterations != 1) {
        snprintf(err, errlen,
                 "-i: startup measures one initialisation per launch (-i 1); for "
                 "more, run more launches (mpigauge run -K N)");
        return -1;
    }
    return 0;
}

/* Every sample is the one initialisation this process made. */
static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    (void)size;
    c->sample_s += st(c)->t.init_s * (double)iters;
}

enum { FIG_MAIN, FIG_INIT, FIG_READY, NFIG };

static void figures(const mg_ctx *c, double *out)
{
    const mg_startup_marks *m = &sp(c)->marks;
    out[FIG_MAIN] = m->main_wall - m->launch_wall;
    out[FIG_INIT] = st(c)->t.init_s;
    out[FIG_READY] = st(c)->t.ready_wall - m->launch_wall;
}

static const char *const extra_names[] = {"init_min_us", "init_mean_us", "main_max_us",
                                          "ready_max_us", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    const mg_figure_span init = mg_ctx_figure_over_ranks(c, FIG_INIT, NFIG);
    (void)size, (void)st, (void)rank_s;
    out[0] = init.min * 1e6;
    out[1] = init.mean * 1e6;
    out[2] = mg_ctx_figure_over_ranks(c, FIG_MAIN, NFIG).max * 1e6;
    out[3] = mg_ctx_figure_over_ranks(c, FIG_READY, NFIG).max * 1e6;
}

static const char *const init_names[] = {"init", "thread", "session", NULL};

static void describe(const mg_ctx *c, mg_kvlist *out)
{
    static const char *const calls[] = {"MPI_Init", "MPI_Init_thread",
                                        "MPI_Session_init+MPI_Comm_create_from_group"};
    mg_kv_object(out, "startup");
    mg_kv_string(out, "init", calls[sp(c)->init]);
    mg_kv_string(out, "clock", "CLOCK_REALTIME");
    if (isfinite(sp(c)->marks.launch_wall))
        mg_kv_number(out, "launch_time", sp(c)->marks.launch_wall);
    else
        mg_kv_null(out, "launch_time");
    mg_kv_end(out);
}

static const mg_opt opts[] = {
    {.long_name = "init",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(mg_startup_params, init),
     .arg_name = "init|thread|session",
     .help =
         "what is timed: MPI_Init, MPI_Init_thread (MPI_THREAD_MULTIPLE), or MPI_Session_init with "
         "a communicator from the mpi://WORLD process set (MPI-4)",
     .choices = init_names,
     .def = "init"},
    {.type = MG_OPT_END}};

static const mg_bench bench = {
    .id.name = "startup",
    .id.facts = MG_FACT_ALONE,
    .report.description =
        "time of MPI's initialisation on every rank (one launch, one measurement); "
        "the slowest rank's, in us",
    .report.headline = "Init time (us)",
    .params.opts = opts,
    .params.params_size = sizeof(mg_startup_params),
    .params.check = check,
    .params.unsupported = unsupported,
    .layout.min_ranks = 1,
    .layout.max_ranks = 1 << 24,
    .layout.init = init,
    .timing.metric = MG_METRIC_LATENCY,
    .timing.time_mode = MG_TIME_MAX,
    .timing.time_scale = 1.0,
    .timing.times_itself = 1,
    .timing.default_iterations = 1,
    .timing.default_warmup = 1,
    .kernel.iterate = iterate,
    .kernel.teardown = teardown,
    .kernel.state_size = sizeof(startup_state),
    .report.nfigures = NFIG,
    .report.figures = figures,
    .report.extra_names = extra_names,
    .report.extras = extras,
    .report.describe = describe,
};

/* main's marks reach the run as the default of its params (no option sets
 * them); everything else is the descriptor above. */
int main(int argc, char **argv)
{
    const mg_startup_params dflt = {.init = MG_INIT_PLAIN, .marks = mg_startup_mark()};
    mg_bench b = bench;
    b.params.params_default = &dflt;
    return mg_main(&b, argc, argv);
}
