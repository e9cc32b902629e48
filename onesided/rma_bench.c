/* SPDX-License-Identifier: BSD-3-Clause */
/* The RMA programs (rma.h): the program table, the options, their checks and
 * the one descriptor, shaped by the program's pattern. */
#include "rma.h"

#include "mg_exit.h"
#include "mg_overlap.h"
#include "mg_pairing.h"
#include "mg_size.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PASSIVE_ONLY SYNC_PASSIVE
const rma_prog mg_rma_progs[] = {
    {"put_latency", RMA_PUT, PAT_LAT, SYNC_ALL, "MPI_Put latency"},
    {"get_latency", RMA_GET, PAT_LAT, SYNC_ALL, "MPI_Get latency"},
    {"acc_latency", RMA_ACC, PAT_LAT, SYNC_ALL, "MPI_Accumulate latency"},
    {"get_acc_latency", RMA_GACC, PAT_LAT, SYNC_ALL, "MPI_Get_accumulate latency"},
    {"fop_latency", RMA_FOP, PAT_LAT, SYNC_ALL, "MPI_Fetch_and_op latency (one element)"},
    {"cas_latency", RMA_CAS, PAT_LAT, SYNC_ALL, "MPI_Compare_and_swap latency (one element)"},
    {"put_bw", RMA_PUT, PAT_BW, SYNC_ALL, "MPI_Put bandwidth: W puts per epoch"},
    {"get_bw", RMA_GET, PAT_BW, SYNC_ALL, "MPI_Get bandwidth: W gets per epoch"},
    {"put_bibw", RMA_PUT, PAT_BIBW, SYNC_ALL,
     "MPI_Put bidirectional bandwidth: both ranks W puts per epoch"},
    {"put_mr", RMA_PUT, PAT_MR, SYNC_ALL,
     "MPI_Put message rate and aggregate bandwidth of many pairs at once"},
    {"get_mr", RMA_GET, PAT_MR, SYNC_ALL,
     "MPI_Get message rate and aggregate bandwidth of many pairs at once"},
    {"put_all", RMA_PUT, PAT_ALL, SYNC_ALL,
     "MPI_Put from one or every rank to every other rank (IMB-RMA One/All_put_all)"},
    {"get_all", RMA_GET, PAT_ALL, SYNC_ALL,
     "MPI_Get by one or every rank from every other rank (IMB-RMA One/All_get_all)"},
    {"exchange_put", RMA_PUT, PAT_EXCH, SYNC_ALL,
     "MPI_Put to both neighbours of a periodic chain (IMB-RMA Exchange_put)"},
    {"exchange_get", RMA_GET, PAT_EXCH, SYNC_ALL,
     "MPI_Get from both neighbours of a periodic chain (IMB-RMA Exchange_get)"},
    {"rma_progress", RMA_PUT, PAT_PROGRESS, PASSIVE_ONLY,
     "passive-target progress: rank 0 puts while rank 1 computes outside MPI"},
    {NULL, 0, 0, 0, NULL}};

static const char *const red_names[] = {"sum", "prod", "max", "min", "replace", "no_op", NULL};
static const char *const origin_names[] = {"one", "all", NULL};
static const char *const pairing_names[] = {"block", "cyclic", "internode", NULL};

#define DEFAULT_OPS 64

static const mg_opt opts[] = {
    {.short_name = 'w',
     .long_name = "window",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(rma_params, win),
     .arg_name = "create|allocate|dynamic|shared",
     .help = "window: MPI_Win_create, MPI_Win_allocate, MPI_Win_create_dynamic + attach, "
             "MPI_Win_allocate_shared (ranks on one node)",
     .choices = mg_rma_win_names,
     .def = "allocate",
     .key = "window_flavor"},
    {.short_name = 's',
     .long_name = "rma-sync",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(rma_params, sync),
     .arg_name = "lock|lock_all|flush|flush_local|fence|pscw",
     .help = "RMA synchronisation (OSU's meanings; rma_progress: lock, lock_all, flush)",
     .choices = mg_rma_sync_names,
     .def = "flush"},
    {.short_name = 'W',
     .long_name = "epoch-ops",
     .type = MG_OPT_LONG,
     .offset = offsetof(rma_params, window),
     .arg_name = "N",
     .help = "bw, bibw, mr: operations per epoch and target",
     .min = 1,
     .max = 65536,
     .def = MG_STR(DEFAULT_OPS)},
    {.short_name = 'T',
     .long_name = "type",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(rma_params, type),
     .arg_name = "char|int|float|double|long",
     .help = "accumulates and atomics: element type (cas: char, int or long)",
     .choices = mg_elem_type_names,
     .def = "int"},
    {.long_name = "op",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(rma_params, red),
     .arg_name = "sum|prod|max|min|replace|no_op",
     .help = "acc, get_acc, fop: the operation (no_op: get_acc, fop)",
     .choices = red_names,
     .def = "sum"},
    {.long_name = "pairing",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(rma_params, pairing),
     .arg_name = "block|cyclic|internode",
     .help = "put_mr, get_mr: pairs i with i+P/2, 2i with 2i+1, or across nodes",
     .choices = pairing_names,
     .def = "block"},
    {.long_name = "origins",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(rma_params, origins),
     .arg_name = "one|all",
     .help = "put_all, get_all: rank 0 alone or every rank accesses all others",
     .choices = origin_names,
     .def = "all"},
    MG_OPT_DELAYS(rma_params, delays, relative, "rma_progress: target computation"),
    {.type = MG_OPT_END}};

static int is_atomic(int op) { return op == RMA_FOP || op == RMA_CAS; }
static int is_data(int op) { return op == RMA_PUT || op == RMA_GET; }
static int windowed(int pat) { return pat == PAT_BW || pat == PAT_BIBW || pat == PAT_MR; }

static int refuse(char *err, size_t len, const char *opt, const char *what, const char *prog)
{
    snprintf(err, len, "%s applies to %s only, not to %s", opt, what, prog);
    return -1;
}

/* Options that do nothing for this program are refused. */
static int check_applies(const mg_ctx *c, const rma_params *p, char *err, size_t len)
{
    const rma_prog *g = p->prog;
    if (mg_ctx_given(c, "epoch-ops") && !windowed(g->pattern))
        return refuse(err, len, "-W", "put_bw, get_bw, put_bibw, put_mr, get_mr", g->name);
    if (mg_ctx_given(c, "type") && is_data(g->op))
        return refuse(err, len, "-T", "the accumulates and atomics", g->name);
    if (mg_ctx_given(c, "op") && (is_data(g->op) || g->op == RMA_CAS))
        return refuse(err, len, "--op", "acc_latency, get_acc_latency, fop_latency", g->name);
    if (mg_ctx_given(c, "pairing") && g->pattern != PAT_MR)
        return refuse(err, len, "--pairing", "put_mr, get_mr", g->name);
    if (mg_ctx_given(c, "origins") && g->pattern != PAT_ALL)
        return refuse(err, len, "--origins", "put_all, get_all", g->name);
    if ((p->delays.n || p->relative) && g->pattern != PAT_PROGRESS)
        return refuse(err, len, p->relative ? "--relative" : "--delays", "rma_progress", g->name);
    if (is_atomic(g->op) && c->cfg->sizes_spec) {
        snprintf(err, len, "-m: %s moves one element of -T; sizes do not apply", g->name);
        return -1;
    }
    return 0;
}

static int check_modes(const mg_ctx *c, const rma_params *p, char *err, size_t len)
{
    const rma_prog *g = p->prog;
    if (!(g->modes & (1u << p->sync))) {
        snprintf(err, len,
                 "-s %s: %s takes lock, lock_all or flush (the target must not be "
                 "asked to take part)",
                 mg_rma_sync_names[p->sync], g->name);
        return -1;
    }
    if (p->win == WIN_SHARED && c->nnodes > 1) {
        snprintf(err, len,
                 "-w shared: the ranks run on %d nodes; a shared-memory window needs "
                 "every rank on one node",
                 c->nnodes);
        return -1;
    }
    if (g->op == RMA_CAS && (p->type == MG_ELEM_FLOAT || p->type == MG_ELEM_DOUBLE)) {
        snprintf(err, len, "-T %s: MPI_Compare_and_swap takes integer types (char, int, long)",
                 mg_elem_type_names[p->type]);
        return -1;
    }
    if (p->red == RED_NO_OP && g->op == RMA_ACC) {
        snprintf(err, len, "--op no_op: MPI_Accumulate has no MPI_NO_OP (get_acc, fop have)");
        return -1;
    }
    return 0;
}

/* Accumulates: whole elements and int counts at every size. */
static int check_sizes(const mg_ctx *c, const rma_params *p, char *err, size_t len)
{
    const size_t es = mg_elem_size((mg_elem_type)p->type);
    const mg_sweep *sw = c->sizes; /* the plan's parse of -m */
    int rc = 0;
    if (is_data(p->prog->op) || is_atomic(p->prog->op) || !c->cfg->sizes_spec || sw == NULL)
        return 0;
    for (size_t i = 0; i < sw->n && rc == 0; ++i) {
        const uint64_t size = sw->sizes_bytes[i];
        if (size % es != 0 || size / es > (uint64_t)INT_MAX) {
            snprintf(err, len,
                     "-m: %llu bytes is not a whole number of %s elements (%zu bytes) "
                     "of at most INT_MAX elements",
                     (unsigned long long)size, mg_elem_type_names[p->type], es);
            rc = -1;
        }
    }
    return rc;
}

static int check(const mg_ctx *c, char *err, size_t len)
{
    const rma_params *p = c->params;
    int rc = check_applies(c, p, err, len);
    if (rc == 0)
        rc = check_modes(c, p, err, len);
    if (rc == 0)
        rc = check_sizes(c, p, err, len);
    if (rc == 0)
        rc = mg_delays_check(&p->delays, p->relative, err, len);
    return rc;
}

/* The options this program does not use are unset (null in the run
 * record); the others keep their value or their row's default. */
static int resolve(mg_ctx *c, char *err, size_t len)
{
    rma_params *p = c->params;
    const rma_prog *g = p->prog;
    (void)err, (void)len;
    if (is_data(g->op))
        p->type = -1;
    if (is_data(g->op) || g->op == RMA_CAS)
        p->red = -1;
    if (!windowed(g->pattern))
        p->window = 0;
    if (g->pattern != PAT_MR)
        p->pairing = -1;
    if (g->pattern != PAT_ALL)
        p->origins = -1;
    return 0;
}

/* ---- what each pattern reports ---- */

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    const int pat = rprm(c)->prog->pattern;
    const double per = (double)rprm(c)->window * (double)size;
    return pat == PAT_BIBW ? 2.0 * per : pat == PAT_MR ? (double)mg_ctx_npairs(c) * per : per;
}

static const char *const bw_extras[] = {"msg_rate_per_s", NULL};
static const char *const progress_extras[] = {"delay_us", "post_delay_work", "waits_for_target",
                                              "arrived_pct", NULL};
static const char *const spread_extras[] = {"rank_min_us", "rank_max_us", NULL};

static void extras_bw(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                      double *out)
{
    (void)c, (void)rank_s;
    out[0] = size > 0 ? st->median * 1e6 / (double)size : NAN;
}

/* put_all, exchange: the fastest and slowest rank's median time. */
static void extras_spread(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                          double *out)
{
    (void)size, (void)st;
    out[0] = INFINITY;
    out[1] = 0.0;
    for (int r = 0; r < c->nranks; ++r) {
        out[0] = fmin(out[0], rank_s[r] * 1e6);
        out[1] = fmax(out[1], rank_s[r] * 1e6);
    }
}

static double delay_us(const mg_ctx *c)
{
    if (c->variant_index == 0)
        return 0.0;
    return rprm(c)->relative ? (double)c->variant / 100.0 * c->ref_s * 1e6 : (double)c->variant;
}

/* rma_progress: the delay; the post-delay work of the progress programs
 * ((L(d) - d) / l_0, clamped); whether the put waited for the target to call
 * MPI (mg_overlap.h: the time grows by at least half the delay: 1, no
 * passive progress; 0, the put completed while the target computed), which
 * is what decides for RMA: a put that waited finishes in next to no time
 * once the target calls MPI, so its post-delay work is small either way;
 * and the share of iterations in which rank 1 saw the data land during its
 * computation. */
static void extras_progress(const mg_ctx *c, uint64_t size, const mg_stats *st,
                            const double *rank_s, double *out)
{
    const double l0 = c->ref ? c->ref->median : st->median, d = delay_us(c);
    (void)rank_s;
    out[0] = d;
    out[1] = c->ref ? mg_post_delay_work(l0, st->median, d) : NAN;
    out[2] = c->ref ? (double)mg_progress_grows(l0, st->median, d) : NAN;
    out[3] = size && c->ref ? c->rank_figures[1] : NAN;
}

static void figures_progress(const mg_ctx *c, double *out)
{
    const rma_state *s = rstate(c);
    out[0] = s->timed ? 100.0 * (double)s->arrived / (double)s->timed : NAN;
}

static int variants_progress(const mg_ctx *c, long *values, int max)
{
    return mg_variants_delays(&rprm(c)->delays, rprm(c)->relative, values, max);
}

static void pairs_of(const mg_ctx *c, int *partner_of)
{
    const int pat = rprm(c)->prog->pattern;
    if (pat == PAT_MR) {
        mg_pairing((mg_pairing_mode)rprm(c)->pairing, c->nranks, c->node_of, partner_of);
        return;
    }
    for (int r = 0; r < c->nranks; ++r)
        partner_of[r] = r < 2 ? 1 - r : -1;
}

/* ---- the descriptor ---- */

/* The form the options choose: fence and pscw latency is a ping-pong
 * (halved); an atomic moves one element of -T (its size). */
/* The form for -s and -T, a pure function from form to form: a fence or
 * PSCW latency is a ping-pong (half the round trip); an atomic moves one
 * element of -T. */
static mg_bench rma_form(mg_bench b, const rma_params *p)
{
    if (p->prog->pattern == PAT_LAT && (p->sync == SYNC_FENCE || p->sync == SYNC_PSCW))
        b.timing.time_scale = 0.5;
    if (is_atomic(p->prog->op)) {
        const uint64_t es = mg_elem_size((mg_elem_type)p->type);
        b.sizes.min_size = b.sizes.default_min_size = b.sizes.default_max_size = es;
    }
    return b;
}

static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out)
{
    const mg_bench form = rma_form(*base, c->params);
    mg_form_take(out, &form);
    return 1;
}

static void shape_sizes(mg_bench *b, uint64_t min, uint64_t from, uint64_t to)
{
    b->sizes.min_size = min;
    b->sizes.default_min_size = from;
    b->sizes.default_max_size = to;
}

static void shape_latency(mg_bench *b, const rma_prog *g)
{
    b->report.headline = "Latency (us)";
    b->timing.metric = MG_METRIC_LATENCY;
    b->timing.time_scale = 1.0;
    if (g->pattern == PAT_ALL || g->pattern == PAT_EXCH) {
        b->layout.max_ranks = 1 << 24;
        b->layout.links = g->pattern == PAT_ALL ? MG_LINKS_STAR : MG_LINKS_RING;
        b->timing.time_mode = MG_TIME_MAX;
        b->report.extra_names = spread_extras;
        b->report.extras = extras_spread;
        shape_sizes(b, 0, 1, 1048576);
        return;
    }
    b->layout.pairs = pairs_of;
    shape_sizes(b, 0, is_data(g->op) ? 0 : 8, is_data(g->op) ? 4194304 : 1048576);
    if (g->pattern == PAT_PROGRESS) {
        shape_sizes(b, 0, 1024, 1048576);
        b->kernel.compute = 1;
        b->timing.times_itself = 1;
        b->kernel.iterate = mg_rma_progress_iterate;
        b->sweep.variant_name = "delay";
        b->sweep.variants = variants_progress;
        b->report.nfigures = 1;
        b->report.figures = figures_progress;
        b->report.extra_names = progress_extras;
        b->report.extras = extras_progress;
    }
}

static void shape_bandwidth(mg_bench *b, const rma_prog *g)
{
    b->report.headline = "Bandwidth (MB/s)";
    b->timing.metric = MG_METRIC_BANDWIDTH;
    b->timing.time_scale = 1.0;
    b->timing.bytes_per_iter = bytes_per_iter;
    b->layout.pairs = pairs_of;
    b->report.extra_names = bw_extras;
    b->report.extras = extras_bw;
    shape_sizes(b, 1, 1, 4194304);
    if (g->pattern == PAT_MR) {
        b->layout.max_ranks = 1 << 24;
        b->timing.time_mode = MG_TIME_MAX;
    }
}

static const rma_prog *find_prog(const char *name)
{
    for (const rma_prog *g = mg_rma_progs; g->name; ++g)
        if (strcmp(g->name, name) == 0)
            return g;
    return NULL;
}

int mg_rma_main(const char *name, int argc, char **argv)
{
    char desc[320];
    rma_params dflt;
    mg_bench base;
    const rma_prog *g = find_prog(name);

    if (g == NULL) {
        snprintf(desc, sizeof desc,
                 "unknown RMA program '%s' (the names: mpigauge_rma --list-names)", name);
        return mg_main_refuse("rma", "usage", MG_EXIT_USAGE, desc, argc, argv);
    }
    memset(&dflt, 0, sizeof dflt);
    dflt.prog = g;
    snprintf(desc, sizeof desc,
             "%s; window flavour -w, synchronisation -s (fence, pscw latency: ping-pong / 2)",
             g->what);
    memset(&base, 0, sizeof base);
    base.id.name = g->name;
    base.report.description = desc;
    base.id.family = "onesided";
    base.id.facts = MG_FACT_NO_QUEUE_PVARS;
    base.params.opts = opts;
    base.params.params_size = sizeof(rma_params);
    base.params.params_default = &dflt;
    base.params.resolve = resolve;
    base.params.check = check;
    base.params.choose = choose;
    base.layout.min_ranks = 2;
    base.layout.max_ranks = 2;
    base.timing.time_mode = MG_TIME_ROOT;
    base.kernel.state_size = sizeof(rma_state);
    base.kernel.buf_bytes = mg_rma_buf_bytes;
    base.kernel.rbuf_bytes = mg_rma_rbuf_bytes;
    base.kernel.other_bytes = mg_rma_other_bytes;
    base.kernel.setup = mg_rma_setup;
    base.kernel.teardown = mg_rma_teardown;
    base.kernel.begin_size = mg_rma_begin_size;
    base.kernel.end_size = mg_rma_end_size;
    base.kernel.iterate = mg_rma_iterate;
    base.valid.fill = mg_rma_fill;
    base.valid.verify = mg_rma_verify;
    base.report.describe = mg_rma_describe;
    if (windowed(g->pattern))
        shape_bandwidth(&base, g);
    else
        shape_latency(&base, g);
    return mg_main(&base, argc, argv);
}

void mg_rma_list_names(FILE *f)
{
    for (const rma_prog *g = mg_rma_progs; g->name; ++g)
        fprintf(f, "%s\n", g->name);
}
