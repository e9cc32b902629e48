/* SPDX-License-Identifier: BSD-3-Clause */
/* Independent progress (seed 003, Rashti & Afsahi), built as
 * mpigauge_send_progress and (with MG_RECV_SIDE) mpigauge_recv_progress.
 *
 * One iteration starts with rank 0 (the receiver, timed) sending a 0-byte
 * "go" to rank 1 (the sender); the time counted (the kernel times it) ends
 * when rank 0 has the data; a 0-byte "done" from rank 1 after its wait,
 * untimed, separates iterations. The
 * variant is the delay d (--delays, us, or % of l_0 with --relative; the
 * first, 0, is the reference l_0).
 *  send_progress: rank 1 posts MPI_Isend of N bytes, computes for d (not a
 *    sleep), then MPI_Wait; rank 0 blocks in MPI_Recv.
 *  recv_progress: rank 0 posts MPI_Irecv before the go, computes for d while
 *    checking whether the message's last byte has arrived in its buffer,
 *    then MPI_Wait; rank 1 blocks in MPI_Send.
 * Extras: the delay, post_delay_work = (L(d) - d) / l_0 clamped to [0, 1]
 * (0: the message moved during the delay; 1: nothing happened until MPI was
 * called); send_progress: grows = 1 when L(d) - l_0 >= d / 2 (the latency
 * grows with the delay: no independent progress); recv_progress:
 * arrived_pct, the share of timed iterations in which the data arrived in
 * the buffer during the delay.
 */
#include "overlap.h"

#include <math.h>

#ifdef MG_RECV_SIDE
#define NAME "recv_progress"
#define DESCRIPTION "receive progress: rank 0 MPI_Irecv, computes d watching its buffer, MPI_Wait"
#else
#define NAME "send_progress"
#define DESCRIPTION "send progress: rank 1 MPI_Isend, computes d, MPI_Wait; rank 0 MPI_Recv"
#endif

typedef struct {
    uint64_t sink;
    unsigned char marker; /* last byte of the next message (when not validating) */
    long timed, arrived;  /* rank 0: timed iterations; those whose data came in the delay */
} prog_state;

static double delay_s(const mg_ctx *c)
{
    if (c->variant_index == 0)
        return 0.0;
    return mg_ovl(c)->relative ? (double)c->variant / 100.0 * c->ref_s : (double)c->variant * 1e-6;
}

static void begin_size(mg_ctx *c, uint64_t size)
{
    prog_state *st = c->state;
    (void)size;
    st->marker = 1;
    st->timed = st->arrived = 0;
}

/* Rank 0 times from the go to the data's arrival; a "done" message from
 * rank 1 after its wait (untimed) keeps iterations apart, so the sender's
 * delay never spills into the next measurement. */
#ifndef MG_RECV_SIDE
static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    prog_state *st = c->state;
    for (long i = 0; i < iters; ++i)
        st->sink += mg_ovl_send_progress(c, size, delay_s(c));
}
#else
static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    prog_state *st = c->state;
    for (long i = 0; i < iters; ++i) {
        int seen = mg_ovl_recv_progress(c, size, delay_s(c), &st->marker, &st->sink);
        if (c->timed && c->rank == 0) {
            st->timed++;
            st->arrived += seen;
        }
    }
}
#endif

static int variants(const mg_ctx *c, long *values, int max)
{
    return mg_variants_delays(&mg_ovl(c)->delays, mg_ovl(c)->relative, values, max);
}

static void figures(const mg_ctx *c, double *out)
{
    const prog_state *st = c->state;
    out[0] = st->timed ? 100.0 * (double)st->arrived / (double)st->timed : NAN;
}

#ifdef MG_RECV_SIDE
static const char *const extra_names[] = {"delay_us", "post_delay_work", "arrived_pct", NULL};
#else
static const char *const extra_names[] = {"delay_us", "post_delay_work", "grows", NULL};
#endif

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    const double l0 = c->ref ? c->ref->median : st->median, d = delay_s(c) * 1e6;
    (void)rank_s;
    out[0] = d;
    out[1] = c->ref ? mg_post_delay_work(l0, st->median, d) : NAN;
#ifdef MG_RECV_SIDE
    out[2] = size && c->ref ? c->rank_figures[0] : NAN;
#else
    (void)size;
    out[2] = c->ref ? mg_progress_grows(l0, st->median, d) : NAN;
#endif
}

static int check(const mg_ctx *c, char *err, size_t errlen)
{
    return mg_delays_check(&mg_ovl(c)->delays, mg_ovl(c)->relative, err, errlen);
}

static const mg_opt opts[] = {MG_OPT_TEST_INTERVAL,
                              MG_OPT_DELAYS(mg_ovl_params, delays, relative, "delays"),
                              MG_OPT_LAST_OVL};

static const mg_bench bench = {
    .id.name = NAME,
    .id.family = "overlap",
    .id.facts = MG_FACT_NO_QUEUE_PVARS,
    .report.description = DESCRIPTION "; go-to-data time in us at rank 0",
    MG_OVL_FIELDS,
    .sizes.default_min_size = 1024,
    .sizes.default_max_size = 1048576,
    .params.opts = opts,
    .params.check = check,
    .sweep.variant_name = "delay",
    .sweep.variants = variants,
    .kernel.state_size = sizeof(prog_state),
    .timing.times_itself = 1,
    .kernel.begin_size = begin_size,
    .report.nfigures = 1,
    .report.figures = figures,
    .kernel.iterate = iterate,
    .valid.recv_slots = mg_ovl_rank0_receives,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
