/* SPDX-License-Identifier: BSD-3-Clause */
/* Computation/communication overlap (seed 003, Rashti & Afsahi), built as
 * mpigauge_send_overlap and (with MG_RECV_SIDE) mpigauge_recv_overlap.
 *
 * send_overlap: rank 0 loops MPI_Issend of N bytes, computes for c_m,
 *   MPI_Wait; rank 1 blocks in MPI_Recv. Timed at the sender (rank 0).
 * recv_overlap: rank 0 loops MPI_Irecv, computes for c_m, MPI_Wait; rank 1
 *   blocks in MPI_Ssend. Timed at the receiver (rank 0).
 * Synchronous sends make both ends finish together. The variant is the step
 * m (0, 1, 2, ...): c_m = m x 10% of l_0, where l_0 is step 0's median (the
 * reference). Steps stop once the lower 95% CI bound of l_m reaches
 * 1.1 x l_0 (or at --max-steps). Extras per step: the computation, l_0, the
 * step's ratio (c_m - (l_m - l_0)) / l_0 clamped to [0, 1], and
 * overlap_ratio: the ratio of the last step whose median stayed below
 * 1.1 x l_0, the figure the seed reports.
 */
#include "overlap.h"

#include <math.h>

#ifdef MG_RECV_SIDE
#define NAME "recv_overlap"
#define DESCRIPTION "receive overlap: rank 0 MPI_Irecv, computes c_m, MPI_Wait; rank 1 MPI_Ssend"
#else
#define NAME "send_overlap"
#define DESCRIPTION "send overlap: rank 0 MPI_Issend, computes c_m, MPI_Wait; rank 1 MPI_Recv"
#endif

enum { TAG_DATA = 1 };

typedef struct {
    uint64_t sink;
    double final_ratio; /* rank 0: overlap_ratio of the last step below 1.1 l0 */
} ovl_state;

static double compute_s(const mg_ctx *c)
{
    return c->variant_index ? mg_overlap_compute((int)c->variant, c->ref_s, 0.1) : 0.0;
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    ovl_state *st = c->state;
    const double work = compute_s(c);
    for (long i = 0; i < iters; ++i) {
        if (c->rank == 0) {
#ifdef MG_RECV_SIDE
            mg_xfer_irecv(&c->xfer, c->rbuf, size, 1, TAG_DATA, c->reqs);
#else
            mg_xfer_issend(&c->xfer, c->sbuf, size, 1, TAG_DATA, c->reqs);
#endif
            st->sink += mg_ovl_compute(c, work, c->reqs);
            mg_xfer_waitall(&c->xfer, 1, c->reqs);
        } else {
#ifdef MG_RECV_SIDE
            mg_xfer_ssend(&c->xfer, c->sbuf, size, 0, TAG_DATA);
#else
            mg_xfer_recv(&c->xfer, c->rbuf, size, 0, TAG_DATA);
#endif
        }
    }
}

static int variants(const mg_ctx *c, long *values, int max)
{
    int n = 0;
    for (long m = 0; m <= mg_ovl(c)->max_steps && n < max; ++m)
        values[n++] = m;
    return n;
}

static int stop(const mg_ctx *c, const mg_stats *st)
{
    return mg_overlap_stop(c->ref->median, st->ci95_low, 1.1);
}

static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size, (void)max;
#ifdef MG_RECV_SIDE
    from[0] = 1;
    return c->rank == 0;
#else
    from[0] = 0;
    return c->rank == 1;
#endif
}

static const char *const extra_names[] = {"compute_us", "l0_us", "step_ratio", "overlap_ratio",
                                          NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    ovl_state *s = c->state;
    const double l0 = c->ref ? c->ref->median : st->median;
    (void)size, (void)rank_s;
    out[0] = c->ref ? mg_overlap_compute((int)c->variant, l0, 0.1) : 0.0;
    out[1] = l0;
    out[2] = c->ref ? mg_overlap_ratio(l0, st->median, out[0]) : 0.0;
    if (!c->ref)
        s->final_ratio = 0.0;
    else if (st->median < 1.1 * l0)
        s->final_ratio = out[2];
    out[3] = s->final_ratio;
}

static const mg_opt opts[] = {MG_OPT_TEST_INTERVAL,
                              {.long_name = "max-steps",
                               .type = MG_OPT_LONG,
                               .offset = offsetof(mg_ovl_params, max_steps),
                               .arg_name = "M",
                               .help = "most computation steps of 10% of l_0",
                               .min = 1,
                               .max = 1000,
                               .def = "30"},
                              MG_OPT_LAST_OVL};

static const mg_bench bench = {
    .id.name = NAME,
    .id.family = "overlap",
    .id.facts = MG_FACT_NO_QUEUE_PVARS,
    .report.description = DESCRIPTION "; time per iteration in us, c_m grown by 10% of l_0",
    MG_OVL_FIELDS,
    .sizes.default_min_size = 1024,
    .sizes.default_max_size = 4194304,
    .params.opts = opts,
    .sweep.variant_name = "step",
    .sweep.variants = variants,
    .sweep.variant_stop = stop,
    .kernel.state_size = sizeof(ovl_state),
    .kernel.iterate = iterate,
    .valid.recv_slots = recv_slots,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
