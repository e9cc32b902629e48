/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI library's own memory per rank (doc/footprint.md), as the kernel
 * counts it (util/mg_footprint.h: RSS, and PSS, which splits shared pages
 * among the processes that map them) and as malloc counts it (the heap in
 * use), at six stages of one launch:
 *
 *   before_init  main, before MPI_Init: the program and its libraries
 *   init         right after MPI_Init
 *   ring         after an 8-byte exchange with both ring neighbours
 *   peers        after an 8-byte exchange with every other rank (P - 1
 *                steps of pairwise exchange): every connection made
 *   collective   after MPI_Allreduce (8 bytes) and MPI_Alltoall (8 bytes
 *                per rank)
 *   window       after MPI_Win_allocate of 4 KiB and two fences
 *
 * Everything happens in the program's own initialisation, on
 * MPI_COMM_WORLD, before the driver's set-up (which makes collectives and
 * communicators of its own), so each stage adds what the library needed
 * for it; the driver then reports one row per stage (variant stage=NAME):
 * the figure is the heaviest rank's PSS in MiB, extras give the other
 * ranks, RSS, the shared-memory part, the heap and what the stage added;
 * the JSON result names the heaviest and lightest rank and host. The
 * window is freed once measured. The stages' messages and collectives
 * carry known values, checked as they arrive (-c reports it). `mpigauge run` over rank counts
 * and `mpigauge plot --against ranks` draw memory against ranks.
 */
#include "mg_bench.h"
#include "mg_footprint.h"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

enum { ST_BEFORE, ST_INIT, ST_RING, ST_PEERS, ST_COLL, ST_WINDOW, NSTAGE };
enum { WINDOW_BYTES = 4096, TAG_FOOTPRINT = 77 };

static const char *const stage_names[] = {"before_init", "init",   "ring", "peers",
                                          "collective",  "window", NULL};

typedef struct {
    mg_footprint at[NSTAGE];
    int bad;        /* a reading failed */
    char wrong[96]; /* what a stage's message or collective got wrong, or "" */
} fp_state;

static fp_state *st(const mg_ctx *c) { return c->state; }

static void take(fp_state *s, int stage)
{
    if (mg_footprint_read(&s->at[stage]) != 0)
        s->bad = 1;
}

static void wrong(fp_state *s, const char *what, double got, double want)
{
    if (!s->wrong[0] && got != want)
        snprintf(s->wrong, sizeof s->wrong, "%s: got %g, expected %g", what, got, want);
}

/* 8 bytes with the ranks `k` ahead and behind: the sender's rank. */
static void exchange(fp_state *s, int rank, int n, int k)
{
    const int from = (rank - k % n + n) % n;
    double out = rank, in = -1;
    MG_MPI_CHECK(MPI_Sendrecv(&out, 1, MPI_DOUBLE, (rank + k) % n, TAG_FOOTPRINT, &in, 1,
                              MPI_DOUBLE, from, TAG_FOOTPRINT, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    wrong(s, "the exchange's message", in, from);
}

static void stages(fp_state *s, int rank, int n, double *a2a)
{
    double one = 1, sum = 0;
    void *base = NULL;
    MPI_Win win;
    exchange(s, rank, n, 1);
    exchange(s, rank, n, n - 1);
    take(s, ST_RING);
    for (int k = 2; k < n - 1; ++k)
        exchange(s, rank, n, k);
    take(s, ST_PEERS);
    for (int j = 0; j < n; ++j)
        a2a[j] = rank;
    MG_MPI_CHECK(MPI_Allreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    MG_MPI_CHECK(MPI_Alltoall(a2a, 1, MPI_DOUBLE, a2a + n, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    take(s, ST_COLL);
    wrong(s, "MPI_Allreduce's sum", sum, n);
    for (int j = 0; j < n; ++j)
        wrong(s, "MPI_Alltoall's block", a2a[n + j], j);
    MG_MPI_CHECK(MPI_Win_allocate(WINDOW_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MG_MPI_CHECK(MPI_Win_fence(0, win));
    MG_MPI_CHECK(MPI_Win_fence(0, win));
    take(s, ST_WINDOW);
    /* measured: freed now, so that no exit of the driver leaves it behind */
    MG_MPI_CHECK(MPI_Win_free(&win));
}

static void init(mg_ctx *c, int *argc, char ***argv, int required)
{
    fp_state *s = st(c);
    int rank, n;
    double *a2a;
    (void)required;
    take(s, ST_BEFORE);
    MG_MPI_CHECK(MPI_Init(argc, argv));
    take(s, ST_INIT);
    MG_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MG_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    if (n < 2)
        return; /* the driver refuses the rank count */
    if ((a2a = calloc(2 * (size_t)n, sizeof *a2a)) == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    stages(s, rank, n, a2a);
    free(a2a);
}

static const char *unsupported(const mg_ctx *c)
{
    (void)c;
    if (access("/proc/self/smaps_rollup", R_OK) != 0)
        return "footprint reads /proc/self/smaps_rollup (Linux 4.14 or later), which this "
               "system lacks";
    return NULL;
}

static int check(const mg_ctx *c, char *err, size_t errlen)
{
    if (c->cfg->policy.iterations != 1) {
        snprintf(err, errlen,
                 "-i: footprint reads each stage once per launch (-i 1); for more, run more "
                 "launches (mpigauge run -K N)");
        return -1;
    }
    return 0;
}

static int variants(const mg_ctx *c, long *values, int max)
{
    int n = 0;
    (void)c;
    for (int i = 0; i < NSTAGE && n < max; ++i)
        values[n++] = i;
    return n;
}

static double mib(double kib) { return kib / 1024.0; }

/* -c: the stages' messages and collectives carried the right values
 * (checked as they ran; fill has nothing to set). */
static void fill(mg_ctx *c, uint64_t size, int pass) { (void)c, (void)size, (void)pass; }

static int verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen)
{
    (void)size, (void)pass;
    if (!st(c)->wrong[0])
        return 0;
    snprintf(err, errlen, "rank %d: %s", c->rank, st(c)->wrong);
    return -1;
}

/* Every sample is the stage's PSS in MiB (the driver's figure unit). */
static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    (void)size;
    if (st(c)->bad)
        mg_ctx_fail(c, "/proc/self/smaps_rollup could not be read on this rank");
    c->sample_s += mib(st(c)->at[c->variant].pss_kib) * (double)iters;
}

enum { FIG_PSS, FIG_RSS, FIG_SHMEM, FIG_HEAP, FIG_ADDED, NFIG };

static void figures(const mg_ctx *c, double *out)
{
    const mg_footprint *f = &st(c)->at[c->variant];
    out[FIG_PSS] = mib(f->pss_kib);
    out[FIG_RSS] = mib(f->rss_kib);
    out[FIG_SHMEM] = mib(f->pss_shmem_kib);
    out[FIG_HEAP] = mib(f->heap_kib);
    out[FIG_ADDED] = c->variant > 0 ? mib(f->pss_kib - f[-1].pss_kib) : NAN;
}

static const char *const extra_names[] = {
    "pss_min_mib",  "pss_mean_mib",       "pss_sum_mib",   "rss_max_mib", "shmem_pss_mean_mib",
    "heap_max_mib", "added_pss_mean_mib", "heaviest_rank", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *stt, const double *rank_s,
                   double *out)
{
    const mg_figure_span pss = mg_ctx_figure_over_ranks(c, FIG_PSS, NFIG);
    int heaviest = 0;
    (void)size, (void)stt, (void)rank_s;
    for (int r = 1; r < c->nranks; ++r)
        if (c->rank_figures[r * NFIG + FIG_PSS] > c->rank_figures[heaviest * NFIG + FIG_PSS])
            heaviest = r;
    out[0] = pss.min;
    out[1] = pss.mean;
    out[2] = pss.mean * c->nranks;
    out[3] = mg_ctx_figure_over_ranks(c, FIG_RSS, NFIG).max;
    out[4] = mg_ctx_figure_over_ranks(c, FIG_SHMEM, NFIG).mean;
    out[5] = mg_ctx_figure_over_ranks(c, FIG_HEAP, NFIG).max;
    out[6] = mg_ctx_figure_over_ranks(c, FIG_ADDED, NFIG).mean;
    out[7] = heaviest;
}

static void describe(const mg_ctx *c, mg_kvlist *out)
{
    (void)c;
    mg_kv_object(out, "footprint");
    mg_kv_string(out, "source", "/proc/self/smaps_rollup");
#if defined(HAVE_MALLINFO2)
    mg_kv_string(out, "heap", "mallinfo2");
#else
    mg_kv_string(out, "heap", "none");
#endif
    mg_kv_number(out, "window_bytes", WINDOW_BYTES);
    mg_kv_end(out);
}

static const mg_bench bench = {
    .id.name = "footprint",
    .id.facts = MG_FACT_ALONE,
    .report.description =
        "the MPI library's memory per rank after MPI_Init, after contacting the ring "
        "neighbours, every peer, a collective and a window: the heaviest rank's PSS, in MiB",
    .report.headline = "PSS max (MiB)",
    .params.check = check,
    .params.unsupported = unsupported,
    .layout.min_ranks = 2,
    .layout.max_ranks = 1 << 24,
    .layout.init = init,
    .sizes.none = 1,
    .sweep.variant_name = "stage",
    .sweep.variants = variants,
    .sweep.variant_labels = stage_names,
    .timing.metric = MG_METRIC_VALUE,
    .timing.unit = "MiB",
    .timing.time_mode = MG_TIME_MAX,
    .timing.time_scale = 1.0,
    .timing.times_itself = 1,
    .timing.default_iterations = 1,
    .timing.default_warmup = 0,
    .kernel.iterate = iterate,
    .kernel.state_size = sizeof(fp_state),
    .valid.fill = fill,
    .valid.verify = verify,
    .report.nfigures = NFIG,
    .report.figures = figures,
    .report.extra_names = extra_names,
    .report.extras = extras,
    .report.describe = describe,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
