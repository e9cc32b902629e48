/* SPDX-License-Identifier: BSD-3-Clause */
/* A hello through every rank (OSU osu_hello, timed; method in
 * pt2pt/startup.c): the first 1-byte message round the ring right after
 * MPI_Init (first_us, cold), then the ring with -m bytes as the driver's
 * samples (warm). Rank r receives from r-1 and sends its own buffer on to
 * r+1; rank 0 starts and ends each round. Figure: the round in us; extras:
 * per hop, and the first round. */
#include "pt2pt.h"
#include "startup.h"

#include <math.h>

enum { TAG_HELLO = 5 };

/* One round of the ring through x with `bytes` from sb into rb. */
static void ring(const mg_xfer *x, int rank, int nranks, void *sb, void *rb, uint64_t bytes)
{
    int next = (rank + 1) % nranks, prev = (rank + nranks - 1) % nranks;
    if (rank == 0) {
        mg_xfer_send(x, sb, bytes, next, TAG_HELLO);
        mg_xfer_recv(x, rb, bytes, prev, TAG_HELLO);
    } else {
        mg_xfer_recv(x, rb, bytes, prev, TAG_HELLO);
        mg_xfer_send(x, sb, bytes, next, TAG_HELLO);
    }
}

static void init(mg_ctx *c, int *argc, char ***argv, int required)
{
    int rank, n;
    char sb = 'h', rb = 0;
    mg_xfer x;
    double t0;
    (void)required;
    mg_startup_state(c)->first_ring_s = NAN;
    MG_MPI_CHECK(MPI_Init(argc, argv));
    MG_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MG_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    if (n < 2)
        return; /* the driver refuses the rank count */
    mg_xfer_init(&x, MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    ring(&x, rank, n, &sb, &rb, 1);
    mg_startup_state(c)->first_ring_s = MPI_Wtime() - t0;
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    for (long i = 0; i < iters; ++i)
        ring(&c->xfer, c->rank, c->nranks, c->sbuf, c->rbuf, size);
}

static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size, (void)max;
    from[0] = (c->rank + c->nranks - 1) % c->nranks;
    return 1;
}

static const char *const extra_names[] = {"per_hop_us", "first_us", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)size, (void)rank_s;
    out[0] = st->median / c->nranks;
    out[1] = mg_startup_state(c)->first_ring_s * 1e6;
}

static const mg_opt opts[] = {MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "hello",
    .id.facts = MG_FACT_ALONE,
    .report.description =
        "a message round every rank (0 -> 1 -> ... -> P-1 -> 0): the round in us; "
        "the first round after MPI_Init as an extra",
    .report.headline = "Ring time (us)",
    .params.opts = opts,
    .layout.min_ranks = 2,
    .layout.max_ranks = 1 << 24,
    .layout.links = MG_LINKS_RING,
    .layout.init = init,
    .timing.metric = MG_METRIC_LATENCY,
    .timing.time_mode = MG_TIME_ROOT,
    .timing.time_scale = 1.0,
    .sizes.min_size = 0,
    .sizes.default_min_size = 1,
    .sizes.default_max_size = 1,
    .kernel.iterate = iterate,
    .kernel.state_size = sizeof(mg_startup_times),
    .kernel.rails = 1,
    .valid.recv_slots = recv_slots,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
