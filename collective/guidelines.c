/* SPDX-License-Identifier: BSD-3-Clause */
/* Self-consistent performance guidelines (Traff, Gropp, Thakur, "Self-
 * consistent MPI performance guidelines", IEEE TPDS 21(5), 2010; Hunold,
 * Carpen-Amarie, Lubbe, Traff, PGMPI, EuroMPI 2016): a collective should be
 * no slower than a composition of other collectives that does the same
 * work (MPI_Allreduce(n) <= MPI_Reduce(n) + MPI_Bcast(n)), or than a more
 * general collective that can stand in for it (MPI_Reduce(n) <=
 * MPI_Allreduce(n); MPI_Gather(n) <= MPI_Gatherv(n) with equal counts).
 *
 * One program, one rule per launch (--rule): for every size both sides are
 * measured in one launch, variant side=collective and side=mockup, each a
 * call as the collective programs time it (MG_TIME_CALL: ranks
 * synchronised before every call, the slowest rank's time; a mock-up's
 * calls run back to back as one call). The front-end (`mpigauge
 * guidelines`) pairs the two sides launch by launch and gives the verdict
 * (doc/guidelines.md). -m is n, the bytes of the whole result (float
 * elements, MPI_SUM): a rooted or gathering collective's blocks are n/P
 * each, so n is a multiple of 4P. The rules and their source:
 * doc/guidelines.md; the list: --list-rules.
 */
#include "coll_int.h"

#include "mg_exit.h"

#include <stdlib.h>
#include <string.h>

enum { WHOLE = 0, BLOCK = 1 };   /* count: n/4 elements, or n/4P (a rank's block) */
enum { BA = 0, BB = 1, BC = 2 }; /* the three buffers */
enum { SIDE_COLL = 0, SIDE_MOCK = 1 };
enum { MAX_CALLS = 2 };

typedef struct {
    const char *op; /* a row of mg_coll_ops */
    int count;      /* WHOLE or BLOCK */
    int src, dst;   /* buffers: what it reads, what it writes (bcast: dst only) */
} g_call;

typedef struct {
    const char *says; /* the rule as written in doc/guidelines.md */
    g_call coll;
    g_call mock[MAX_CALLS];
} g_rule;

/* The rules' names (--rule), in the order of rules[] below. */
static const char *const rule_names[] = {"allreduce_as_reduce_then_bcast",
                                         "allreduce_as_reduce_scatter_block_then_allgather",
                                         "bcast_as_scatter_then_allgather",
                                         "allgather_as_gather_then_bcast",
                                         "reduce_as_reduce_scatter_block_then_gather",
                                         "reduce_scatter_block_as_reduce_then_scatter",
                                         "scan_as_exscan_then_reduce_local",
                                         "reduce_as_allreduce",
                                         "gather_as_allgather",
                                         "gather_as_reduce",
                                         "scatter_as_bcast",
                                         "allgather_as_alltoall",
                                         "allgather_as_allreduce",
                                         "reduce_scatter_block_as_allreduce",
                                         "gather_as_gatherv",
                                         "scatter_as_scatterv",
                                         "allgather_as_allgatherv",
                                         "alltoall_as_alltoallv",
                                         "reduce_scatter_block_as_reduce_scatter",
                                         NULL};

/* Pattern rules (a composition, or a more general collective) and
 * specialisation rules (the v-variant with equal counts). */
static const g_rule rules[] = {
    {"Allreduce(n) <= Reduce(n) + Bcast(n)",
     {"allreduce", WHOLE, BA, BB},
     {{"reduce", WHOLE, BA, BB}, {"bcast", WHOLE, BB, BB}}},
    {"Allreduce(n) <= Reduce_scatter_block(n) + Allgather(n)",
     {"allreduce", WHOLE, BA, BB},
     {{"reduce_scatter_block", BLOCK, BA, BC}, {"allgather", BLOCK, BC, BB}}},
    {"Bcast(n) <= Scatter(n) + Allgather(n)",
     {"bcast", WHOLE, BA, BA},
     {{"scatter", BLOCK, BA, BC}, {"allgather", BLOCK, BC, BB}}},
    {"Allgather(n) <= Gather(n) + Bcast(n)",
     {"allgather", BLOCK, BA, BB},
     {{"gather", BLOCK, BA, BB}, {"bcast", WHOLE, BB, BB}}},
    {"Reduce(n) <= Reduce_scatter_block(n) + Gather(n)",
     {"reduce", WHOLE, BA, BB},
     {{"reduce_scatter_block", BLOCK, BA, BC}, {"gather", BLOCK, BC, BB}}},
    {"Reduce_scatter_block(n) <= Reduce(n) + Scatter(n)",
     {"reduce_scatter_block", BLOCK, BA, BB},
     {{"reduce", WHOLE, BA, BC}, {"scatter", BLOCK, BC, BB}}},
    {"Scan(n) <= Exscan(n) + Reduce_local(n)",
     {"scan", WHOLE, BA, BB},
     {{"exscan", WHOLE, BA, BB}, {"reduce_local", WHOLE, BA, BB}}},
    {"Reduce(n) <= Allreduce(n)", {"reduce", WHOLE, BA, BB}, {{"allreduce", WHOLE, BA, BB}}},
    {"Gather(n) <= Allgather(n)", {"gather", BLOCK, BA, BB}, {{"allgather", BLOCK, BA, BB}}},
    {"Gather(n) <= Reduce(n)", {"gather", BLOCK, BA, BB}, {{"reduce", WHOLE, BA, BB}}},
    {"Scatter(n) <= Bcast(n)", {"scatter", BLOCK, BA, BB}, {{"bcast", WHOLE, BA, BA}}},
    {"Allgather(n) <= Alltoall(n)", {"allgather", BLOCK, BA, BB}, {{"alltoall", BLOCK, BA, BB}}},
    {"Allgather(n) <= Allreduce(n)", {"allgather", BLOCK, BA, BB}, {{"allreduce", WHOLE, BA, BB}}},
    {"Reduce_scatter_block(n) <= Allreduce(n)",
     {"reduce_scatter_block", BLOCK, BA, BB},
     {{"allreduce", WHOLE, BA, BB}}},
    {"Gather(n) <= Gatherv(n)", {"gather", BLOCK, BA, BB}, {{"gatherv", BLOCK, BA, BB}}},
    {"Scatter(n) <= Scatterv(n)", {"scatter", BLOCK, BA, BB}, {{"scatterv", BLOCK, BA, BB}}},
    {"Allgather(n) <= Allgatherv(n)",
     {"allgather", BLOCK, BA, BB},
     {{"allgatherv", BLOCK, BA, BB}}},
    {"Alltoall(n) <= Alltoallv(n)", {"alltoall", BLOCK, BA, BB}, {{"alltoallv", BLOCK, BA, BB}}},
    {"Reduce_scatter_block(n) <= Reduce_scatter(n)",
     {"reduce_scatter_block", BLOCK, BA, BB},
     {{"reduce_scatter", BLOCK, BA, BB}}},
};
enum { NRULES = sizeof rules / sizeof rules[0] };
_Static_assert(sizeof rule_names / sizeof rule_names[0] == NRULES + 1, "a name for every rule");
static const char *const side_names[] = {"collective", "mockup", NULL};

typedef struct {
    int rule;      /* --rule */
    mg_list sides; /* --sides: the order (default collective, mockup) */
} g_params;

typedef struct {
    const mg_coll_op *coll, *mock[MAX_CALLS];
    void *third;          /* buffer C */
    int *counts, *displs; /* every rank's block and its place (v-variants) */
} g_state;

static const g_params *prm_g(const mg_ctx *c) { return c->params; }
static g_state *st_g(const mg_ctx *c) { return c->state; }

static const mg_coll_op *find(const char *name)
{
    for (const mg_coll_op *op = mg_coll_ops; op->name; ++op)
        if (strcmp(op->name, name) == 0)
            return op;
    return NULL;
}

static int sides(const mg_ctx *c, long *values, int max)
{
    static const long both[] = {SIDE_COLL, SIDE_MOCK};
    return mg_variants_from_list(&prm_g(c)->sides, both, 2, values, max);
}

static int check(const mg_ctx *c, char *err, size_t errlen)
{
    const uint64_t unit = 4u * (uint64_t)c->nranks;
    for (size_t i = 0; c->sizes != NULL && i < c->sizes->n; ++i)
        if (c->sizes->sizes_bytes[i] % unit != 0) {
            snprintf(err, errlen,
                     "-m: %llu bytes is not %d blocks of whole float elements: every size must be "
                     "a multiple of %llu on %d ranks",
                     (unsigned long long)c->sizes->sizes_bytes[i], c->nranks,
                     (unsigned long long)unit, c->nranks);
            return -1;
        }
    return 0;
}

static size_t buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    (void)c;
    return (size_t)max_size + 64;
}

static void setup(mg_ctx *c, uint64_t max_size)
{
    g_state *s = st_g(c);
    const g_rule *r = &rules[prm_g(c)->rule];
    s->coll = find(r->coll.op);
    for (int k = 0; k < MAX_CALLS && r->mock[k].op; ++k)
        s->mock[k] = find(r->mock[k].op);
    s->third = calloc(1, (size_t)max_size + 64);
    s->counts = calloc((size_t)c->nranks, sizeof *s->counts);
    s->displs = calloc((size_t)c->nranks, sizeof *s->displs);
    if (s->third == NULL || s->counts == NULL || s->displs == NULL)
        MG_MPI_CHECK(MPI_ERR_NO_MEM);
    /* small whole values: sums stay exact and far from denormals */
    float *a = c->sbuf;
    for (size_t i = 0; i < max_size / sizeof(float); ++i)
        a[i] = (float)(1 + (c->rank + (int)i) % 4);
}

static void teardown(mg_ctx *c)
{
    g_state *s = st_g(c);
    free(s->third);
    free(s->counts);
    free(s->displs);
}

static void begin_size(mg_ctx *c, uint64_t size)
{
    g_state *s = st_g(c);
    const int block = (int)(size / 4 / (uint64_t)c->nranks);
    for (int r = 0; r < c->nranks; ++r) {
        s->counts[r] = block;
        s->displs[r] = r * block;
    }
}

static void *buffer(const mg_ctx *c, int which)
{
    return which == BA ? c->sbuf : which == BB ? c->rbuf : st_g(c)->third;
}

static void call(const mg_ctx *c, const mg_coll_op *op, const g_call *g, uint64_t size)
{
    const g_state *s = st_g(c);
    mg_coll_args a = {.form = MG_FORM_BLOCKING,
                      .sbuf = buffer(c, g->src),
                      .rbuf = buffer(c, g->dst),
                      .count =
                          (MPI_Count)(size / 4 / (g->count == BLOCK ? (uint64_t)c->nranks : 1)),
                      .dt = MPI_FLOAT,
                      .op = MPI_SUM,
                      .root = 0,
                      .comm = c->comm,
                      .scounts = s->counts,
                      .sdispls = s->displs,
                      .rcounts = s->counts,
                      .rdispls = s->displs};
    MG_MPI_CHECK(op->call(&a));
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const g_state *s = st_g(c);
    const g_rule *r = &rules[prm_g(c)->rule];
    for (long i = 0; i < iters; ++i) {
        if (c->variant == SIDE_COLL) {
            call(c, s->coll, &r->coll, size);
            continue;
        }
        for (int k = 0; k < MAX_CALLS && r->mock[k].op; ++k)
            call(c, s->mock[k], &r->mock[k], size);
    }
}

static void describe(const mg_ctx *c, mg_kvlist *out)
{
    const g_rule *r = &rules[prm_g(c)->rule];
    mg_kv_string(out, "rule", rule_names[prm_g(c)->rule]);
    mg_kv_string(out, "guideline", r->says);
}

static const mg_opt opts[] = {
    {.long_name = "rule",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(g_params, rule),
     .arg_name = "NAME",
     .help = "the guideline whose two sides are measured (--list-rules; doc/guidelines.md)",
     .choices = rule_names,
     .def = "allreduce_as_reduce_then_bcast"},
    {.long_name = "sides",
     .type = MG_OPT_LIST,
     .offset = offsetof(g_params, sides),
     .arg_name = "LIST",
     .help = "the sides in the order they are measured at each size (default "
             "collective,mockup)",
     .choices = side_names},
    {.type = MG_OPT_END}};

static const mg_bench bench = {
    .id.name = "guidelines",
    .id.family = "collective",
    .id.facts = MG_FACT_NO_QUEUE_PVARS | MG_FACT_ALGORITHM,
    .report.description = "a performance guideline's two sides, the collective and its mock-up, "
                          "time per call in us, the slowest rank; ranks synchronised before every "
                          "call (--sync), not timed",
    .report.headline = "Latency (us)",
    .params.opts = opts,
    .params.params_size = sizeof(g_params),
    .params.check = check,
    .layout.min_ranks = 2,
    .layout.max_ranks = 1 << 24,
    .sizes.min_size = 0,
    .sizes.default_min_size = 64,
    .sizes.default_max_size = 65536,
    .sweep.variant_name = "side",
    .sweep.variants = sides,
    .sweep.variant_labels = side_names,
    .timing.metric = MG_METRIC_LATENCY,
    .timing.time_mode = MG_TIME_CALL,
    .timing.time_scale = 1.0,
    .kernel.state_size = sizeof(g_state),
    .kernel.setup = setup,
    .kernel.teardown = teardown,
    .kernel.begin_size = begin_size,
    .kernel.buf_bytes = buf_bytes,
    .kernel.iterate = iterate,
    .report.describe = describe,
};

int main(int argc, char **argv)
{
    for (int k = 1; k < argc; ++k)
        if (strcmp(argv[k], "--list-rules") == 0) {
            for (int j = 0; j < NRULES; ++j)
                printf("%-48s %s\n", rule_names[j], rules[j].says);
            return 0;
        }
    return mg_main(&bench, argc, argv);
}
