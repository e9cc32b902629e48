/* SPDX-License-Identifier: BSD-3-Clause */
/* Cost of checking for completion (seed 004, "Cost of checking for
 * communication completion").
 *
 * Ping-pong latency between ranks 0 and 1 (round trip / 2, us) where both
 * ranks detect the arrival of each message with one method (the variant):
 *   recv      MPI_Recv (the baseline: plain blocking latency)
 *   wait      MPI_Irecv + MPI_Wait
 *   test      MPI_Irecv + a busy MPI_Test loop
 *   waitany   MPI_Irecv + MPI_Waitany over a set: K pending receives on
 *             another tag (posted at the start of the size, never matched,
 *             cancelled at its end) and the real one last
 *   testsome  the same set, a busy MPI_Testsome loop
 * The extra diff_us is the method's median minus the recv median of the
 * same size; recv is therefore always measured first.
 */
#include "mg_bench.h"
#include "pt2pt.h"

enum { TAG_DATA = 1, TAG_IDLE = 2, MAX_PENDING = 1024 };
enum { RECV, WAIT, TEST, WAITANY, TESTSOME, NMETHODS };

static const char *const methods[] = {"recv", "wait", "test", "waitany", "testsome", NULL};
static const char *const extra_names[] = {"diff_us", NULL};

typedef struct {
    mg_list methods; /* --methods; empty: all */
    long pending;    /* --pending K */
} completion_params;

typedef struct {
    /* MPI_Testsome's indices and statuses (an array: with MPICH's
     * MPI_STATUSES_IGNORE, GCC 12 reports a false -Wstringop-overflow) */
    int idx[MAX_PENDING + 1];
    MPI_Status sts[MAX_PENDING + 1];
} completion_state;

static const mg_opt opts[] = {
    {.long_name = "methods",
     .type = MG_OPT_LIST,
     .offset = offsetof(completion_params, methods),
     .arg_name = "LIST",
     .help = "of recv,wait,test,waitany,testsome (default all; recv is always measured first)",
     .choices = methods},
    {.long_name = "pending",
     .type = MG_OPT_LONG,
     .offset = offsetof(completion_params, pending),
     .arg_name = "K",
     .help = "waitany, testsome: never-completing receives in the set besides the real one",
     .max = MAX_PENDING,
     .def = "7"},
    {.type = MG_OPT_END}};

static const completion_params *prm(const mg_ctx *c) { return c->params; }

/* recv first (the reference), then the listed methods in order. */
static int variants(const mg_ctx *c, long *values, int max)
{
    static const long all[] = {WAIT, TEST, WAITANY, TESTSOME};
    return mg_variants_ref_first(RECV, &prm(c)->methods, all, 4, values, max);
}

static int is_set(const mg_ctx *c) { return c->variant == WAITANY || c->variant == TESTSOME; }

/* --pending does nothing unless waitany or testsome is measured. */
static int check(const mg_ctx *c, char *err, size_t errlen)
{
    const mg_list *m = &prm(c)->methods;
    int sets = m->n == 0;
    for (int i = 0; i < m->n; ++i)
        sets |= m->v[i] == WAITANY || m->v[i] == TESTSOME;
    if (!sets && mg_ctx_given(c, "pending")) {
        snprintf(err, errlen, "--pending applies to --methods waitany or testsome only");
        return -1;
    }
    return 0;
}

/* The set's pending receives occupy reqs[0..K-1]; the real one is reqs[K]. */
static void begin_size(mg_ctx *c, uint64_t size)
{
    (void)size;
    for (long k = 0; is_set(c) && k < prm(c)->pending; ++k)
        mg_xfer_irecv(&c->xfer, c->rbuf, 0, c->peer, TAG_IDLE, &c->reqs[k]);
}

static void end_size(mg_ctx *c, uint64_t size)
{
    const int k = (int)prm(c)->pending;
    (void)size;
    if (!is_set(c))
        return;
    for (int i = 0; i < k; ++i)
        MG_MPI_CHECK(MPI_Cancel(&c->reqs[i]));
    mg_xfer_waitall(&c->xfer, k, c->reqs);
}

static size_t requests(const mg_ctx *c) { return (size_t)prm(c)->pending + 1; }

/* Receive one message, detecting its completion with this variant's method. */
static void receive(mg_ctx *c, uint64_t size)
{
    completion_state *st = c->state;
    const int k = (int)prm(c)->pending;
    MPI_Request *real = &c->reqs[k];
    int flag = 0, idx = -1, out = 0;
    if (c->variant == RECV) {
        mg_xfer_recv(&c->xfer, c->rbuf, size, c->peer, TAG_DATA);
        return;
    }
    mg_xfer_irecv(&c->xfer, c->rbuf, size, c->peer, TAG_DATA, real);
    switch (c->variant) {
    case WAIT: MG_MPI_CHECK(MPI_Wait(real, MPI_STATUS_IGNORE)); return;
    case TEST:
        while (!flag)
            MG_MPI_CHECK(MPI_Test(real, &flag, MPI_STATUS_IGNORE));
        return;
    case WAITANY: MG_MPI_CHECK(MPI_Waitany(k + 1, c->reqs, &idx, MPI_STATUS_IGNORE)); break;
    default:
        while (out == 0)
            MG_MPI_CHECK(MPI_Testsome(k + 1, c->reqs, &out, st->idx, st->sts));
        idx = out == 1 ? st->idx[0] : -1;
    }
    if (idx != k)
        mg_mpi_die(__FILE__, __LINE__, "completion: a pending receive completed");
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    for (long i = 0; i < iters; ++i) {
        if (c->rank == 0) {
            mg_xfer_send(&c->xfer, c->sbuf, size, c->peer, TAG_DATA);
            receive(c, size);
        } else {
            receive(c, size);
            mg_xfer_send(&c->xfer, c->sbuf, size, c->peer, TAG_DATA);
        }
    }
}

/* Rank 0: the difference to the reference (recv) median of this size. */
static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)size;
    (void)rank_s;
    out[0] = c->ref ? st->median - c->ref->median : 0.0;
}

static const mg_bench bench = {
    .id.name = "completion",
    .report.description =
        "cost of checking for completion: ping-pong latency (us) with MPI_Recv, "
        "Wait, a Test loop, Waitany or a Testsome loop, and its difference to Recv",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_LATENCY_SWEEP(0.5, 0, 1048576),
    .params.opts = opts,
    .params.params_size = sizeof(completion_params),
    .sweep.variant_name = "method",
    .sweep.variants = variants,
    .sweep.variant_labels = methods,
    .params.check = check,
    .kernel.state_size = sizeof(completion_state),
    .kernel.begin_size = begin_size,
    .kernel.end_size = end_size,
    .kernel.requests = requests,
    .kernel.iterate = iterate,
    .valid.recv_slots = mg_recv_from_peer,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
