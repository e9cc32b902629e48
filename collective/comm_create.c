/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicator creation cost (pmodels/mpich#2333 measured it with a
 * hand-written test; no suite has it).
 *
 * Every call of --calls is a variant call=NAME, measured in list order:
 *   dup           MPI_Comm_dup
 *   split_node    MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): by node
 *   split_parity  MPI_Comm_split by rank parity
 *   split_random  MPI_Comm_split with random colours (about sqrt(P) of
 *                 them) and random keys, new ones every call
 *   cart          MPI_Cart_create, a periodic 2-D grid (MPI_Dims_create)
 *   create_group  MPI_Comm_create_group of every rank
 *   from_group    MPI_Comm_create_from_group of the mpi://WORLD process set
 *                 of a session made once (MPI-4)
 *   win           MPI_Win_create over one page of each rank's buffer
 * Each iteration: MPI_Barrier (not timed), the creation (timed by each rank
 * itself), then the matching free (MPI_Comm_free, MPI_Win_free), timed
 * apart. A sample is the slowest rank's creation time per call, in us;
 * extra free_us: the slowest rank's mean time of the free. Creation cost
 * as ranks grow: one launch per rank count (mpigauge run -n).
 */
#include "mg_bench.h"

#include "config.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { DUP, SPLIT_NODE, SPLIT_PARITY, SPLIT_RANDOM, CART, CREATE_GROUP, FROM_GROUP, WIN, NCALLS };
static const char *const call_names[] = {"dup",          "split_node", "split_parity",
                                         "split_random", "cart",       "create_group",
                                         "from_group",   "win",        NULL};
enum { WIN_BYTES = 4096, TAG_GROUP = 77 };

typedef struct {
    mg_list calls; /* --calls; empty: every one the library has */
} cc_params;

typedef struct {
    MPI_Group world;
    int dims[2];
    unsigned long long ncalls; /* calls so far (the random colours' seed) */
    double free_s;             /* timed frees of this (size, variant) */
    long free_n;
    char bad[160]; /* -c: what the last object got wrong, or "" */
#if MG_HAVE_SESSIONS
    MPI_Session session;
    MPI_Group pset;
#endif
} cc_state;

static const cc_params *prm(const mg_ctx *c) { return c->params; }
static cc_state *st(const mg_ctx *c) { return c->state; }

static int variants(const mg_ctx *c, long *values, int max)
{
    static const long all[] = {DUP,  SPLIT_NODE,   SPLIT_PARITY, SPLIT_RANDOM,
                               CART, CREATE_GROUP, FROM_GROUP,   WIN};
    long some[NCALLS];
    int n = 0;
    for (int k = 0; k < NCALLS; ++k)
        if (all[k] != FROM_GROUP || MG_HAVE_SESSIONS)
            some[n++] = all[k];
    return mg_variants_from_list(&prm(c)->calls, some, n, values, max);
}

static const char *unsupported(const mg_ctx *c)
{
    for (int k = 0; k < prm(c)->calls.n; ++k)
        if (prm(c)->calls.v[k] == FROM_GROUP && !MG_HAVE_SESSIONS)
            return "--calls from_group needs MPI-4 sessions (MPI_Comm_create_from_group), which "
                   "this MPI library lacks";
    return NULL;
}

static int check(const mg_ctx *c, char *err, size_t errlen)
{
    if (c->cfg->sizes_spec != NULL) {
        snprintf(err, errlen, "-m does not apply: comm_create times the creation of objects");
        return -1;
    }
    return 0;
}

static void setup(mg_ctx *c, uint64_t max_size)
{
    cc_state *s = st(c);
    (void)max_size;
    MG_MPI_CHECK(MPI_Comm_group(c->comm, &s->world));
    MG_MPI_CHECK(MPI_Dims_create(c->nranks, 2, s->dims));
#if MG_HAVE_SESSIONS
    s->session = MPI_SESSION_NULL;
    s->pset = MPI_GROUP_NULL;
    int want = prm(c)->calls.n == 0;
    for (int j = 0; j < prm(c)->calls.n; ++j)
        want |= prm(c)->calls.v[j] == FROM_GROUP;
    if (want) {
        MG_MPI_CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s->session));
        MG_MPI_CHECK(MPI_Group_from_session_pset(s->session, "mpi://WORLD", &s->pset));
    }
#endif
}

static void teardown(mg_ctx *c)
{
    cc_state *s = st(c);
    MG_MPI_CHECK(MPI_Group_free(&s->world));
#if MG_HAVE_SESSIONS
    if (s->pset != MPI_GROUP_NULL)
        MG_MPI_CHECK(MPI_Group_free(&s->pset));
    if (s->session != MPI_SESSION_NULL)
        MG_MPI_CHECK(MPI_Session_finalize(&s->session));
#endif
}

/* A random colour (of about sqrt(P) for P ranks) and key for `rank` in
 * call n: every rank can work out every other rank's. */
static void random_split(int rank, int nranks, unsigned long long n, int *colour, int *key)
{
    uint64_t h = ((uint64_t)rank + 1) * 0x9E3779B97F4A7C15ull ^ (n + 1) * 0xC2B2AE3D27D4EB4Full;
    int ncol = (int)sqrt((double)nranks);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    *colour = (int)(h % (uint64_t)(ncol < 1 ? 1 : ncol));
    *key = (int)((h >> 20) & 0x7fffffff);
}

/* The timed creation; the object goes to *comm or *win. */
static void create(mg_ctx *c, MPI_Comm *comm, MPI_Win *win)
{
    cc_state *s = st(c);
    int colour, key, periods[2] = {1, 1};
    switch ((int)c->variant) {
    case DUP: MG_MPI_CHECK(MPI_Comm_dup(c->comm, comm)); break;
    case SPLIT_NODE:
        MG_MPI_CHECK(
            MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, comm));
        break;
    case SPLIT_PARITY: MG_MPI_CHECK(MPI_Comm_split(c->comm, c->rank % 2, c->rank, comm)); break;
    case SPLIT_RANDOM:
        random_split(c->rank, c->nranks, s->ncalls, &colour, &key);
        MG_MPI_CHECK(MPI_Comm_split(c->comm, colour, key, comm));
        break;
    case CART: MG_MPI_CHECK(MPI_Cart_create(c->comm, 2, s->dims, periods, 0, comm)); break;
    case CREATE_GROUP:
        MG_MPI_CHECK(MPI_Comm_create_group(c->comm, s->world, TAG_GROUP, comm));
        break;
#if MG_HAVE_SESSIONS
    case FROM_GROUP:
        MG_MPI_CHECK(MPI_Comm_create_from_group(s->pset, "org.mpigauge.comm_create", MPI_INFO_NULL,
                                                MPI_ERRORS_RETURN, comm));
        break;
#endif
    default:
        MG_MPI_CHECK(MPI_Win_create(c->sbuf, WIN_BYTES, 1, MPI_INFO_NULL, c->comm, win));
        break;
    }
}

/* -c: the ranks the new object must hold, and this rank's place in it. */
static void expected(mg_ctx *c, unsigned long long n, int *size, int *rank)
{
    int colour, key, mine, below = 0;
    *size = c->nranks;
    *rank = c->rank;
    if (c->variant == SPLIT_NODE) {
        *size = c->local_ranks;
        *rank = c->local_rank;
    } else if (c->variant == SPLIT_PARITY) {
        *size = (c->nranks + 1 - c->rank % 2) / 2;
        *rank = c->rank / 2;
    } else if (c->variant == SPLIT_RANDOM) {
        random_split(c->rank, c->nranks, n, &mine, &key);
        *size = 0;
        for (int r = 0; r < c->nranks; ++r) {
            int kr;
            random_split(r, c->nranks, n, &colour, &kr);
            *size += colour == mine;
            below += colour == mine && (kr < key || (kr == key && r < c->rank));
        }
        *rank = below;
    }
}

static void check_object(mg_ctx *c, MPI_Comm comm, MPI_Win win)
{
    cc_state *s = st(c);
    int size, rank, want_size, want_rank;
    MPI_Group g = MPI_GROUP_NULL;
    if (win != MPI_WIN_NULL) {
        MG_MPI_CHECK(MPI_Win_get_group(win, &g));
        MG_MPI_CHECK(MPI_Group_size(g, &size));
        MG_MPI_CHECK(MPI_Group_rank(g, &rank));
        MG_MPI_CHECK(MPI_Group_free(&g));
    } else {
        MG_MPI_CHECK(MPI_Comm_size(comm, &size));
        MG_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    }
    expected(c, s->ncalls, &want_size, &want_rank);
    if (size != want_size || rank != want_rank)
        snprintf(s->bad, sizeof s->bad,
                 "rank %d, call=%s: the new object has %d ranks and this rank is %d; expected %d "
                 "and %d",
                 c->rank, call_names[c->variant], size, rank, want_size, want_rank);
}

static void fill(mg_ctx *c, uint64_t size, int pass)
{
    (void)size, (void)pass;
    st(c)->bad[0] = '\0';
}

static int verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen)
{
    (void)size, (void)pass;
    if (st(c)->bad[0] == '\0')
        return 0;
    snprintf(err, errlen, "%s", st(c)->bad);
    return -1;
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    cc_state *s = st(c);
    (void)size;
    for (long i = 0; i < iters; ++i, ++s->ncalls) {
        MPI_Comm comm = MPI_COMM_NULL;
        MPI_Win win = MPI_WIN_NULL;
        double t0, t1, t2;
        MG_MPI_CHECK(MPI_Barrier(c->comm));
        t0 = MPI_Wtime();
        create(c, &comm, &win);
        t1 = MPI_Wtime();
        if (c->validating)
            check_object(c, comm, win);
        if (win != MPI_WIN_NULL)
            MG_MPI_CHECK(MPI_Win_free(&win));
        else
            MG_MPI_CHECK(MPI_Comm_free(&comm));
        t2 = MPI_Wtime();
        c->sample_s += t1 - t0;
        if (c->timed) {
            s->free_s += t2 - t1;
            s->free_n++;
        }
    }
}

static void begin_size(mg_ctx *c, uint64_t size)
{
    (void)size;
    st(c)->free_s = 0;
    st(c)->free_n = 0;
}

static void figures(const mg_ctx *c, double *out)
{
    out[0] = st(c)->free_n ? st(c)->free_s / (double)st(c)->free_n : NAN;
}

static const char *const extra_names[] = {"free_us", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *stats, const double *rank_s,
                   double *out)
{
    (void)size, (void)stats, (void)rank_s;
    out[0] = mg_ctx_figure_over_ranks(c, 0, 1).max * 1e6;
}

static size_t buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    (void)c, (void)max_size;
    return WIN_BYTES;
}

static const mg_opt opts[] = {
    {.long_name = "calls",
     .type = MG_OPT_LIST,
     .offset = offsetof(cc_params, calls),
     .arg_name = "LIST",
     .help =
         "of dup,split_node,split_parity,split_random,cart,create_group,from_group,win (default "
         "all; from_group with MPI-4 sessions)",
     .choices = call_names},
    {.type = MG_OPT_END}};

static const mg_bench bench = {
    .id.name = "comm_create",
    .report.description = "time to create a communicator (or window) per call, the slowest rank, "
                          "in us; the free apart (free_us)",
    .report.headline = "Create (us)",
    .id.family = "collective",
    .id.facts = MG_FACT_NO_QUEUE_PVARS | MG_FACT_ALGORITHM,
    .params.opts = opts,
    .params.params_size = sizeof(cc_params),
    .params.check = check,
    .params.unsupported = unsupported,
    .layout.min_ranks = 1,
    .layout.max_ranks = 1 << 24,
    .sweep.variant_name = "call",
    .sweep.variants = variants,
    .sweep.variant_labels = call_names,
    .timing.metric = MG_METRIC_LATENCY,
    .timing.time_mode = MG_TIME_MAX,
    .timing.time_scale = 1.0,
    .timing.times_itself = 1,
    .kernel.iterate = iterate,
    .kernel.state_size = sizeof(cc_state),
    .kernel.setup = setup,
    .kernel.teardown = teardown,
    .kernel.begin_size = begin_size,
    .kernel.buf_bytes = buf_bytes,
    .valid.fill = fill,
    .valid.verify = verify,
    .report.nfigures = 1,
    .report.figures = figures,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
