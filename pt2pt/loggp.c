/* SPDX-License-Identifier: BSD-3-Clause */
/* LogGP's round trips (the PRTT method of Hoefler, Lichei and Rehm, 2007;
 * Netgauge's loggp pattern): per size s, four variants (prtt), each a round
 * trip timed on rank 0 in us:
 *
 *   1,0   rank 0 sends one message, rank 1 answers with one: PRTT(1,0,s),
 *         the reference
 *   n,0   rank 0 sends n (--messages) back to back, rank 1 receives them all
 *         and answers with one: PRTT(n,0,s) = PRTT(1,0,s) + (n-1)(g+(s-1)G)
 *   n,d   the same with a delay d after each send but the last, d = the
 *         reference round trip (longer than a message's gap): PRTT(n,d,s)
 *         = PRTT(1,0,s) + (n-1)(o_s + d)
 *   o_r   PRTT(1,0,s) with rank 1 computing for d before its MPI_Recv, so the
 *         message has arrived: the call's time is the receive overhead
 *
 * The delays are the driver's calibrated busy loop, each timed. Extras:
 * delay_us (n,d and o_r: the mean delay as it ran, on the rank that waited)
 * and recv_call_us (o_r: rank 1's mean time inside MPI_Recv). The
 * front-end (`mpigauge model --loggp`) derives per size g+(s-1)G = (PRTT(n,0)
 * - PRTT(1,0))/(n-1), o_s = (PRTT(n,d) - PRTT(1,0))/(n-1) - d, o_r, and
 * L = PRTT(1,0)/2 - o_s - o_r, then g and G per regime.
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>

enum { TAG_DATA = 1, TAG_BACK = 2 };
enum { ONE = 0, BURST = 1, SPACED = 2, RECV = 3 };

typedef struct {
    long messages;
} loggp_params;

typedef struct {
    uint64_t sink;
    double recv_s; /* rank 1, variant o_r: time inside the timed MPI_Recv calls */
    long recvs;
    double delay_s; /* the delays as they ran (the busy loop's own time) */
    long delays;
} loggp_state;

static const char *const prtt_labels[] = {"1,0", "n,0", "n,d", "o_r", NULL};

static const loggp_params *prm(const mg_ctx *c) { return c->params; }

static void begin_size(mg_ctx *c, uint64_t size)
{
    loggp_state *st = c->state;
    (void)size;
    st->recv_s = st->delay_s = 0.0;
    st->recvs = st->delays = 0;
}

/* The delay of variants n,d and o_r: the reference round trip. */
static double delay_s(const mg_ctx *c) { return isfinite(c->ref_s) ? c->ref_s : 0.0; }

/* A delay, timed: the derivation subtracts the delay that ran, not the one
 * asked for (a busy loop of a microsecond misses by a fraction of it). */
static void delay(mg_ctx *c)
{
    loggp_state *st = c->state;
    double t0 = MPI_Wtime();
    st->sink += mg_ctx_compute(c, delay_s(c), 0.0, NULL, 0);
    if (c->timed) {
        st->delay_s += MPI_Wtime() - t0;
        st->delays++;
    }
}

static void client(mg_ctx *c, uint64_t size, long n, int spaced)
{
    for (long k = 0; k < n; ++k) {
        mg_xfer_send(&c->xfer, c->sbuf, size, c->peer, TAG_DATA);
        if (spaced && k + 1 < n)
            delay(c);
    }
    mg_xfer_recv(&c->xfer, c->rbuf, size, c->peer, TAG_BACK);
}

static void server(mg_ctx *c, uint64_t size, long n, int timed_recv)
{
    loggp_state *st = c->state;
    if (timed_recv) {
        delay(c);
        double t0 = MPI_Wtime();
        mg_xfer_recv(&c->xfer, c->rbuf, size, c->peer, TAG_DATA);
        if (c->timed) {
            st->recv_s += MPI_Wtime() - t0;
            st->recvs++;
        }
    } else {
        for (long k = 0; k < n; ++k)
            mg_xfer_recv(&c->xfer, c->rbuf, size, c->peer, TAG_DATA);
    }
    mg_xfer_send(&c->xfer, c->sbuf, size, c->peer, TAG_BACK);
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const long n = c->variant == BURST || c->variant == SPACED ? prm(c)->messages : 1;
    for (long i = 0; i < iters; ++i) {
        if (c->rank == 0)
            client(c, size, n, c->variant == SPACED);
        else
            server(c, size, n, c->variant == RECV);
    }
}

static int variants(const mg_ctx *c, long *values, int max)
{
    (void)c;
    if (max < 4)
        return 0;
    values[0] = ONE;
    values[1] = BURST;
    values[2] = SPACED;
    values[3] = RECV;
    return 4;
}

static void figures(const mg_ctx *c, double *out)
{
    const loggp_state *st = c->state;
    out[0] = st->recvs ? st->recv_s / (double)st->recvs : 0.0;
    out[1] = st->delays ? st->delay_s / (double)st->delays : 0.0;
}

static const char *const extra_names[] = {"delay_us", "recv_call_us", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    const double *f = c->rank_figures; /* nranks x 2: receive, delay */
    (void)size, (void)st, (void)rank_s;
    out[0] = c->variant == SPACED ? f[0 * 2 + 1] * 1e6
             : c->variant == RECV ? f[1 * 2 + 1] * 1e6
                                  : NAN;
    out[1] = c->variant == RECV ? f[1 * 2 + 0] * 1e6 : NAN;
}

static const mg_opt opts[] = {{.short_name = 'n',
                               .long_name = "messages",
                               .type = MG_OPT_LONG,
                               .offset = offsetof(loggp_params, messages),
                               .arg_name = "N",
                               .help = "messages of the n,0 and n,d round trips",
                               .min = 2,
                               .max = 1000,
                               .def = "10"},
                              MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "loggp",
    .id.facts = MG_FACT_NO_QUEUE_PVARS,
    .report.description = "LogGP's round trips (PRTT): 1 message, n back to back, n spaced "
                          "by a delay, and the receive overhead; round trip in us, ranks 0 and 1",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(1.0),
    .params.opts = opts,
    .params.params_size = sizeof(loggp_params),
    .kernel.compute = 1,
    .kernel.state_size = sizeof(loggp_state),
    .kernel.begin_size = begin_size,
    .kernel.iterate = iterate,
    .sweep.variant_name = "prtt",
    .sweep.variants = variants,
    .sweep.variant_labels = prtt_labels,
    .report.nfigures = 2,
    .report.figures = figures,
    .report.extra_names = extra_names,
    .report.extras = extras,
    .valid.recv_slots = mg_recv_from_peer,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
