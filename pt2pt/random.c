/* SPDX-License-Identifier: BSD-3-Clause */
/* Messages between random ranks (IMB-P2P Unirandom, Birandom, Corandom).
 *
 * Every rank draws the same pseudo-random sequence (xorshift64*, --seed).
 * One iteration, by --pattern:
 *   uni  P steps; in each a random pair (a, b), a != b: a sends N bytes to
 *        b, the other ranks go on to the next step (an imbalanced load:
 *        a rank takes part in the steps that name it);
 *   bi   the same pairs, each exchanging N bytes both ways;
 *   co   the ranks shuffled into a random ring: every rank receives from
 *        its predecessor and sends to its successor, all at once.
 * A step waits only for its own pair, so no rank waits for a later one.
 * Every sample is the slowest rank's time per iteration; extras: the
 * messages per iteration, their aggregate bandwidth and message rate
 * (IMB's Mbytes/sec and Msg/sec). */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>
#include <stdlib.h>

enum { PAT_UNI = 0, PAT_BI, PAT_CO, TAG_RANDOM = 5 };

typedef struct {
    int pattern;
    long seed;
} random_params;

typedef struct {
    uint64_t rng;
    int *ring; /* co: the ring, reshuffled every iteration */
} random_state;

static const random_params *rp(const mg_ctx *c) { return c->params; }
static random_state *rs(const mg_ctx *c) { return c->state; }

static uint64_t next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ULL;
}

static void setup(mg_ctx *c, uint64_t max_size)
{
    random_state *s = rs(c);
    (void)max_size;
    s->rng = (uint64_t)rp(c)->seed * 0x9E3779B97F4A7C15ULL + 1;
    if ((s->ring = malloc((size_t)c->nranks * sizeof *s->ring)) == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    for (int r = 0; r < c->nranks; ++r)
        s->ring[r] = r;
}

static void teardown(mg_ctx *c)
{
    free(rs(c)->ring);
    rs(c)->ring = NULL;
}

/* One step's pair from the sequence. */
static void pair(uint64_t *rng, int n, int *a, int *b)
{
    *a = (int)(next(rng) % (uint64_t)n);
    do
        *b = (int)(next(rng) % (uint64_t)n);
    while (*b == *a);
}

/* co: the ring shuffled (IMB's swaps), and this rank's neighbours in it. */
static void shuffle(uint64_t *rng, int *ring, int n, int rank, int *prev, int *succ)
{
    int i = 0;
    for (int k = 0; k < n; ++k) {
        const int j = (int)(next(rng) % (uint64_t)n), t = ring[k];
        ring[k] = ring[j];
        ring[j] = t;
    }
    while (ring[i] != rank)
        ++i;
    *prev = ring[(i + n - 1) % n];
    *succ = ring[(i + 1) % n];
}

/* Receive from `from` while sending to `to`. */
static void swap(mg_ctx *c, uint64_t size, int from, int to)
{
    mg_xfer_irecv(&c->xfer, c->rbuf, size, from, TAG_RANDOM, &c->reqs[0]);
    mg_xfer_send(&c->xfer, c->sbuf, size, to, TAG_RANDOM);
    mg_xfer_waitall(&c->xfer, 1, c->reqs);
}

static void one_iteration(mg_ctx *c, uint64_t size)
{
    random_state *s = rs(c);
    const int n = c->nranks, me = c->rank, pat = rp(c)->pattern;
    int a, b;
    if (pat == PAT_CO) {
        shuffle(&s->rng, s->ring, n, me, &a, &b);
        swap(c, size, a, b);
        return;
    }
    for (int step = 0; step < n; ++step) {
        pair(&s->rng, n, &a, &b);
        if (me != a && me != b)
            continue;
        if (pat == PAT_BI)
            swap(c, size, me == a ? b : a, me == a ? b : a);
        else if (me == a)
            mg_xfer_send(&c->xfer, c->sbuf, size, b, TAG_RANDOM);
        else
            mg_xfer_recv(&c->xfer, c->rbuf, size, a, TAG_RANDOM);
    }
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    for (long i = 0; i < iters; ++i)
        one_iteration(c, size);
}

/* Validation: who sends this rank the last message of the next iteration,
 * from a copy of the sequence (the iteration itself then draws the same). */
static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    const int n = c->nranks, me = c->rank, pat = rp(c)->pattern;
    uint64_t rng = rs(c)->rng;
    int a, b, last = -1;
    (void)size, (void)max;
    if (pat == PAT_CO) {
        int *ring = malloc((size_t)n * sizeof *ring);
        if (ring == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
        for (int r = 0; r < n; ++r)
            ring[r] = rs(c)->ring[r];
        shuffle(&rng, ring, n, me, &last, &b);
        free(ring);
    } else {
        for (int step = 0; step < n; ++step) {
            pair(&rng, n, &a, &b);
            if (me == b || (pat == PAT_BI && me == a))
                last = me == b ? a : b;
        }
    }
    if (last < 0)
        return 0;
    from[0] = last;
    return 1;
}

static double messages(const mg_ctx *c)
{
    return (double)c->nranks * (rp(c)->pattern == PAT_BI ? 2.0 : 1.0);
}

static const char *const extra_names[] = MG_MSG_EXTRA_NAMES;

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)rank_s;
    mg_msg_extras(messages(c), size, st, out);
}

static const char *const patterns[] = {"uni", "bi", "co", NULL};

static const mg_opt opts[] = {
    {.long_name = "pattern",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(random_params, pattern),
     .arg_name = "uni|bi|co",
     .help = "P random pairs per iteration, one way (IMB Unirandom) or both ways (Birandom), or "
             "a random ring, every rank at once (Corandom)",
     .choices = patterns,
     .def = "uni"},
    {.long_name = "seed",
     .type = MG_OPT_LONG,
     .offset = offsetof(random_params, seed),
     .arg_name = "N",
     .help = "seed of the pseudo-random pairs and rings (the same on every rank)",
     .min = 0,
     .max = 1L << 30,
     .def = "1"},
    MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "random",
    .report.description = "messages between random ranks (IMB-P2P Unirandom, Birandom, "
                          "Corandom): time per iteration in us, the slowest rank",
    MG_PT2PT_MANY_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(1.0),
    .params.opts = opts,
    .params.params_size = sizeof(random_params),
    .kernel.setup = setup,
    .kernel.teardown = teardown,
    .kernel.iterate = iterate,
    .kernel.state_size = sizeof(random_state),
    .kernel.nrequests = 1,
    .valid.recv_slots = recv_slots,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
