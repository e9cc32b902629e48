/* SPDX-License-Identifier: BSD-3-Clause */
/* The driver in one process with a fake benchmark, a one-rank group and a
 * fake clock: see driver_fake.h. */
#include "driver_fake.h"

#include "mg_exit.h"
#include "mg_hostcost.h"
#include "mg_run.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    double cost_us, per_byte_ns, jitter;
    mg_list ways;
    int corrupt;
    uint64_t fail_at, own_bytes;
} fake_params;

static const mg_opt fake_opts[] = {
    {.long_name = "cost-us",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(fake_params, cost_us),
     .arg_name = "US",
     .help = "fake time per iteration",
     .max = 1e6,
     .def = "1"},
    {.long_name = "per-byte-ns",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(fake_params, per_byte_ns),
     .arg_name = "NS",
     .help = "fake time per byte",
     .max = 1e6,
     .def = "1"},
    {.long_name = "jitter",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(fake_params, jitter),
     .arg_name = "FRACTION",
     .help = "relative variation of the kernel calls",
     .max = 0.9,
     .def = "0"},
    {.long_name = "ways",
     .type = MG_OPT_LIST,
     .offset = offsetof(fake_params, ways),
     .arg_name = "LIST",
     .help = "cost multipliers (variants)",
     .min = 1,
     .max = 64,
     .def = "1,2"},
    {.long_name = "corrupt",
     .type = MG_OPT_FLAG,
     .offset = offsetof(fake_params, corrupt),
     .help = "deliver a wrong byte under -c"},
    {.long_name = "fail-at",
     .type = MG_OPT_SIZE,
     .offset = offsetof(fake_params, fail_at),
     .arg_name = "SIZE",
     .help = "fail (mg_ctx_fail) at this size",
     .def = "0"},
    {.long_name = "own-bytes",
     .type = MG_OPT_SIZE,
     .offset = offsetof(fake_params, own_bytes),
     .arg_name = "SIZE",
     .help = "memory of the kernel's own (other_bytes, setup, describe)",
     .def = "0",
     .key = ""},
    {.type = MG_OPT_END}};

/* The fake clock, and what the kernel did (one run at a time). */
typedef struct {
    double t;
    uint64_t lcg;
    long calls, iters;
    long setups, teardowns;
    long probe_closes;
} fake_world;

static double fake_now(void *arg)
{
    fake_world *w = arg;
    w->t += 1e-9;
    return w->t;
}

/* The host's usage, as getrusage would give it, from the fake world: CPU
 * time a quarter system, three quarters user, of the fake time; a
 * voluntary context switch every kernel call, two minor faults per call. */
static int fake_usage(const mg_ctx *c, mg_host_usage *u)
{
    const fake_world *w = c->drv.clock.ctx;
    u->user_s = 0.75 * w->t;
    u->sys_s = 0.25 * w->t;
    u->vol_cs = (double)w->calls;
    u->invol_cs = 0.0;
    u->minor_faults = 2.0 * (double)w->calls;
    u->major_faults = 0.0;
    u->perf[MG_PERF_MIGRATIONS] = 0.0;
    u->perf[MG_PERF_INSTRUCTIONS] = 1000.0 * (double)w->iters;
    u->perf[MG_PERF_CYCLES] = 2000.0 * (double)w->iters;
    u->perf[MG_PERF_CACHE_MISSES] = NAN; /* a counter the machine does not have */
    return 0;
}

static const fake_params *prm(const mg_ctx *c) { return c->params; }

/* The next value of a fixed sequence, in [-1, 1]. */
static double next_u(fake_world *w)
{
    w->lcg = w->lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(w->lcg >> 11) / (double)(1ULL << 52) - 1.0;
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    fake_world *w = c->drv.clock.ctx;
    const fake_params *p = prm(c);
    double per = (p->cost_us + p->per_byte_ns * (double)size / 1000.0) * 1e-6;
    w->t += (double)iters * per * (double)c->variant * (1.0 + p->jitter * next_u(w));
    w->calls++;
    w->iters += iters;
    if (c->validating) {
        memcpy(c->rbuf, c->sbuf, size);
        if (p->corrupt)
            ((unsigned char *)c->rbuf)[size / 2] ^= 0x5a;
    }
    if (p->fail_at && size == p->fail_at)
        mg_ctx_fail(c, "the fake kernel fails at this size (--fail-at)");
}

static int recv_self(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size;
    if (max < 1)
        return 0;
    from[0] = c->rank;
    return 1;
}

static int variants(const mg_ctx *c, long *values, int max)
{
    return mg_variants_from_list(&prm(c)->ways, NULL, 0, values, max);
}

static const char *const extra_names[] = {"ratio_to_ref", "late", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_median_s,
                   double *out)
{
    (void)size;
    (void)rank_median_s;
    out[0] = c->ref ? st->median / c->ref->median : 1.0;
    out[1] = (double)c->late;
}

static void summary(const mg_result *rows, size_t nrows, mg_kvlist *out)
{
    size_t worst = 0;
    for (size_t i = 1; i < nrows; ++i)
        if (rows[i].stats.median > rows[worst].stats.median)
            worst = i;
    mg_kv_number(out, "rows", (double)nrows);
    if (nrows == 0) {
        mg_kv_null(out, "slowest");
        return;
    }
    mg_kv_object(out, "slowest");
    mg_kv_number(out, "size_bytes", (double)rows[worst].size_bytes);
    mg_kv_string(out, "variant", rows[worst].variant ? rows[worst].variant : "");
    mg_kv_number(out, "median_us", rows[worst].stats.median);
    mg_kv_end(out);
}

/* --own-bytes: memory the -M guard counts, made once (setup) and freed
 * (teardown), named in the run record (describe). */
static size_t own_bytes(const mg_ctx *c, uint64_t max_size)
{
    (void)max_size;
    return (size_t)((const fake_params *)c->params)->own_bytes;
}

static void setup(mg_ctx *c, uint64_t max_size)
{
    fake_world *w = c->drv.clock.ctx;
    (void)max_size;
    w->setups++;
}

static void teardown(mg_ctx *c)
{
    fake_world *w = c->drv.clock.ctx;
    w->teardowns++;
}

static void describe(const mg_ctx *c, mg_kvlist *out)
{
    const fake_world *w = c->drv.clock.ctx;
    if (prm(c)->own_bytes == 0)
        return;
    mg_kv_object(out, "fake_own");
    mg_kv_number(out, "bytes", (double)prm(c)->own_bytes);
    mg_kv_number(out, "setups", (double)w->setups);
    mg_kv_end(out);
}

#define FAKE_FIELDS                                                                                \
    .report.description = "a fake kernel on a fake clock, in us", .report.headline = "Time (us)",  \
    .params.opts = fake_opts, .params.params_size = sizeof(fake_params), .layout.min_ranks = 1,    \
    .layout.max_ranks = 1, .sizes.default_min_size = 1, .sizes.default_max_size = 64,              \
    .sweep.variant_name = "ways", .sweep.variants = variants, .timing.metric = MG_METRIC_LATENCY,  \
    .timing.time_scale = 1.0, .kernel.iterate = iterate, .valid.recv_slots = recv_self,            \
    .report.extra_names = extra_names, .report.extras = extras, .report.summary = summary,         \
    .kernel.other_bytes = own_bytes, .kernel.setup = setup, .kernel.teardown = teardown,           \
    .report.describe = describe

static const mg_bench block_form = {FAKE_FIELDS, .id.name = "fake",
                                    .timing.time_mode = MG_TIME_ROOT};
static const mg_bench call_form = {FAKE_FIELDS, .id.name = "fake_call",
                                   .timing.time_mode = MG_TIME_CALL};

/* A form that takes rails the program has no options for (the plan
 * refuses); a form cannot even name another identity (mg_form has none). */
static int rogue_choose(const mg_ctx *c, const mg_bench *base, mg_form *out)
{
    (void)c, (void)base;
    out->kernel.rails = 1;
    return 1;
}

static const mg_bench rogue_form = {FAKE_FIELDS, .id.name = "fake_rogue",
                                    .timing.time_mode = MG_TIME_ROOT,
                                    .params.choose = rogue_choose};

static const mg_bench *fake_named(const char *argv0)
{
    if (strcmp(argv0, "mpigauge_fake_call") == 0)
        return &call_form;
    return strcmp(argv0, "mpigauge_fake_rogue") == 0 ? &rogue_form : &block_form;
}

/* The fake world's observers (below), whose options the plan parses. */
static const mg_observer *const *fake_observer_list(void);

int mgt_plan(int argc, const char *const *argv, char *err, size_t errlen)
{
    mg_plan *p = malloc(sizeof *p);
    int failed;
    if (p == NULL)
        return -1;
    mg_plan_make(p, fake_named(argv[0]), NULL, fake_observer_list(), argc, (char **)argv);
    failed = p->failed;
    snprintf(err, errlen, "%s", p->err);
    mg_plan_free(p);
    free(p);
    return failed;
}

static double no_offset(const mg_ctx *ctx, double *rtt_max_s)
{
    (void)ctx;
    *rtt_max_s = 0.0;
    return 0.0;
}

/* The run record's facts, made up (mg_prov_free frees them). */
static void fake_prov(mg_prov *p)
{
    static const char *const env[] = {"OMPI_MCA_btl=self",           "UCX_TLS=self",
                                      "SLURM_JWT=eyJhbGciOi.secret", "HOME=/root",
                                      "UCX_IB_PKEY=0x7fff",          NULL};
    memset(p, 0, sizeof *p);
    p->nranks = p->nnodes = 1;
    p->hosts = malloc(sizeof *p->hosts);
    p->bindings = malloc(sizeof *p->bindings);
    if (!p->hosts || !p->bindings || !(p->hosts[0] = strdup("node0")) ||
        !(p->bindings[0] = strdup("0-1 (unbound)")))
        abort();
    snprintf(p->library, sizeof p->library, "FakeMPI 1.0, one process\nbuilt for tests");
    p->mpi_version = 4;
    p->mpi_subversion = 0;
    p->timer_overhead_s = 25e-9;
    p->timer_resolution_s = 1e-9;
    snprintf(p->date_utc, sizeof p->date_utc, "2026-01-01T00:00:00Z");
    snprintf(p->version, sizeof p->version, "0.0-test");
    mg_prov_collect_env(p, (char **)env);
    /* two control variables, as MPI_T would give them (mg_prov_free frees them) */
    static const mg_cvar cv[] = {
        {"btl_sm_eager_limit", "4096", "int", "readonly", "none"},
        {"coll_tuned_use_dynamic_rules", "false", "bool", "readonly", "none"}};
    p->cvars.state = MG_CVARS_READ;
    p->cvars.v = calloc(2, sizeof *p->cvars.v);
    for (size_t i = 0; p->cvars.v && i < 2; ++i) {
        p->cvars.v[i] = cv[i];
        p->cvars.v[i].name = strdup(cv[i].name);
        p->cvars.v[i].value = strdup(cv[i].value);
        p->cvars.n++;
    }
    p->cvars.total = 3;
    p->cvars.unreadable = 1;
    p->cvars.digest = mg_cvars_digest(p->cvars.v, p->cvars.n);
}

/* The fake world's ranks: one, without MPI, on the fake clock and usage. */
static void fake_join(mg_run *s, void *arg)
{
    static const int node0 = 0;
    s->ctx.rank = 0;
    s->ctx.nranks = s->ctx.nnodes = s->ctx.local_ranks = 1;
    s->ctx.node_of = &node0;
    mg_group_solo(&s->ctx.drv.group);
    s->ctx.drv.clock.now_s = fake_now;
    s->ctx.drv.clock.ctx = arg;
    s->ctx.drv.clock_offset = no_offset;
    s->ctx.drv.usage = fake_usage;
}

static void fake_prov_env(mg_prov *p, const mg_ctx *ctx, void *arg)
{
    (void)ctx;
    (void)arg;
    fake_prov(p);
}

/* The observer "probe" (with its option --probe): what the driver told it
 * of each row (its timed iterations, how often each phase came), as named
 * values and a table column, to show that an observer's option reaches it
 * and its values reach every sink. doc/develop.md's worked example. */
static const mg_observer fake_probe;

typedef struct {
    int on; /* --probe */
} probe_params;

static const mg_opt probe_opts[] = {{.long_name = "probe",
                                     .type = MG_OPT_FLAG,
                                     .offset = offsetof(probe_params, on),
                                     .help = "the observer probe joins the run",
                                     .key = ""},
                                    {.type = MG_OPT_END}};

typedef struct {
    unsigned long long iters;
    long begins, ends;
} probe_state;

static int probe_open(void *st, mg_ctx *ctx, char *err, size_t errlen)
{
    const probe_params *p = mg_observe_params(ctx, &fake_probe);
    (void)st, (void)err, (void)errlen;
    return p != NULL && p->on;
}

static void probe_begin(void *st, mg_ctx *ctx)
{
    (void)ctx;
    ((probe_state *)st)->begins++;
}

static void probe_end(void *st, mg_ctx *ctx, unsigned long long iters)
{
    probe_state *p = st;
    (void)ctx;
    p->ends++;
    p->iters = iters;
}

static int probe_columns(void *st, const mg_cell_title **title)
{
    static const mg_cell_title t[] = {{"probe_iters", 1}};
    (void)st;
    *title = t;
    return 1;
}

static void probe_row(void *st, mg_ctx *ctx, const mg_row_view *v, mg_kvlist *out, double *cell)
{
    probe_state *p = st;
    (void)ctx;
    (void)v;
    mg_kv_number(out, "timed_iters", (double)p->iters);
    mg_kv_number(out, "begins", (double)p->begins);
    mg_kv_number(out, "ends", (double)p->ends);
    cell[0] = (double)p->iters;
    p->begins = p->ends = 0;
}

static void probe_close(void *st, mg_ctx *ctx)
{
    fake_world *w = ctx->drv.clock.ctx;
    (void)st;
    w->probe_closes++;
}

static const mg_observer fake_probe = {.name = "probe",
                                       .opts = probe_opts,
                                       .params_size = sizeof(probe_params),
                                       .state_size = sizeof(probe_state),
                                       .open = probe_open,
                                       .timed_begin = probe_begin,
                                       .timed_end = probe_end,
                                       .columns = probe_columns,
                                       .row = probe_row,
                                       .close = probe_close};

/* The run-wide features of the fake world: those that read the host through
 * the environment (MPI_T's pvars are the library's), and the probe. */
extern const mg_observer mg_obs_hostcost;
static const mg_observer *const fake_observers[] = {&mg_obs_hostcost, &fake_probe, NULL};

static const mg_observer *const *fake_observer_list(void) { return fake_observers; }

/* Read a whole file into a new string. */
static char *slurp(FILE *f)
{
    long n;
    char *buf;
    if (fflush(f) != 0 || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0)
        return NULL;
    rewind(f);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        return NULL;
    }
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* A sink that keeps what it is given as data (injected into the run). */
typedef struct {
    mg_sink base; /* first: the driver calls the ops with &base */
    mgt_result *r;
} data_sink;

static mgt_result *result_of(mg_sink *s) { return ((data_sink *)(void *)s)->r; }

static void data_begin(mg_sink *s, const mg_table_meta *meta, mg_record_fn record, const void *arg)
{
    (void)meta, (void)record, (void)arg;
    result_of(s)->begins++;
}

static void data_row(mg_sink *s, const mg_result *row)
{
    mgt_result *r = result_of(s);
    if (r->nrows == 64)
        return;
    r->row_size[r->nrows] = (unsigned long long)row->size_bytes;
    snprintf(r->row_variant[r->nrows], sizeof r->row_variant[0], "%s",
             row->variant ? row->variant : "");
    snprintf(r->row_stop[r->nrows], sizeof r->row_stop[0], "%s", row->stop);
    r->row_median[r->nrows++] = row->stats.median;
}

static void data_summary(mg_sink *s, const char *benchmark, const mg_kvlist *kv)
{
    (void)benchmark, (void)kv;
    result_of(s)->summaries++;
}

static void data_record(mg_sink *s, mg_record_fn fn, const void *arg)
{
    (void)s, (void)fn, (void)arg;
}

static void data_error(mg_sink *s, const mg_error_info *e)
{
    mgt_result *r = result_of(s);
    r->errors++;
    snprintf(r->error_code, sizeof r->error_code, "%s", e->code);
}

static const mg_sink_ops data_ops = {.begin = data_begin,
                                     .row = data_row,
                                     .summary = data_summary,
                                     .record = data_record,
                                     .error = data_error};

/* The run writes into the streams it is given (mg_run.io): two temporary
 * files here, read back whole; no file descriptor of the process changes. */
int mgt_run(int argc, const char *const *argv, mgt_result *r)
{
    fake_world w = {.t = 1000.0, .lcg = 12345};
    mg_run *s = malloc(sizeof *s);
    mg_plan *plan = malloc(sizeof *plan), *before = malloc(sizeof *before);
    FILE *out = tmpfile(), *err = tmpfile();

    memset(r, 0, sizeof *r);
    if (s == NULL || plan == NULL || before == NULL || out == NULL || err == NULL) {
        free(s);
        free(plan);
        free(before);
        if (out)
            fclose(out);
        if (err)
            fclose(err);
        return -1;
    }
    mg_plan_make(plan, fake_named(argv[0]), NULL, fake_observer_list(), argc, (char **)argv);
    *before = *plan;
    const size_t psize = plan->base->params.params_size;
    void *params_before = malloc(psize ? psize : 1);
    if (params_before == NULL)
        abort();
    memcpy(params_before, plan->params, psize);
    mg_run_init(s, plan);
    data_sink sink = {.base = {.ops = &data_ops}, .r = r};
    s->io.out = out;
    s->io.err = err;
    s->inject = &sink.base;
    const mg_env env = {
        .join = fake_join, .prov = fake_prov_env, .observers = fake_observers, .arg = &w};
    r->exit_code = mg_run_stages(s, &env);
    mg_run_release(s);
    /* the run reads its plan only: the same bytes (options included) after it */
    r->plan_unchanged =
        memcmp(before, plan, sizeof *plan) == 0 && memcmp(params_before, plan->params, psize) == 0;
    free(params_before);
    mg_plan_free(plan);
    free(plan);
    free(before);
    r->err = slurp(err);
    r->out = slurp(out);
    fclose(err);
    fclose(out);
    r->clock_s = w.t;
    r->kernel_calls = w.calls;
    r->kernel_iters = w.iters;
    r->setups = w.setups;
    r->teardowns = w.teardowns;
    r->probe_closes = w.probe_closes;
    free(s);
    return r->out && r->err ? 0 : -1;
}

void mgt_result_free(mgt_result *r)
{
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}
