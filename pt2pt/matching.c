/* SPDX-License-Identifier: BSD-3-Clause */
/* The cost of message matching (doc/pt2pt.md, "Message matching").
 *
 * Ping-pong latency between ranks 0 and 1 (round trip / 2, us) while rank
 * 1's matching queues are deep. The variant is the depth D:
 *   --queue posted      rank 1 has D receives posted that no message
 *                       matches (another tag), so an arriving message is
 *                       compared with D entries before its own;
 *   --queue unexpected  rank 0 has sent D messages (another tag, 0 bytes)
 *                       that rank 1 has not received, so a receive is
 *                       compared with D unexpected messages first.
 * Rank 1 takes each message with --call: MPI_Recv, MPI_Probe + MPI_Recv, an
 * MPI_Iprobe loop + MPI_Recv, or MPI_Mprobe + MPI_Mrecv, naming the source
 * and tag (--match exact) or MPI_ANY_SOURCE, MPI_ANY_TAG or both. Depth 0
 * is always measured first; the extra per_entry_ns is (median - depth 0's
 * median) / D, the cost of one queue entry. The deep entries are made
 * before the size's warm-up and removed after its timed samples (posted:
 * cancelled; unexpected: received). The point-to-point pvars (--pvars
 * queues, the default) show the queue lengths where the library counts
 * them (Open MPI's pml_ob1_posted_recvq_length is D on rank 1).
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>

enum { TAG_DATA = 1, TAG_DEEP = 2, TAG_MARK = 3, MAX_DEPTH = 65536 };
enum { Q_POSTED, Q_UNEXPECTED };
enum { M_EXACT, M_ANY_SOURCE, M_ANY_TAG, M_ANY };
enum { C_RECV, C_PROBE, C_IPROBE, C_MPROBE };

static const char *const queues[] = {"posted", "unexpected", NULL};
static const char *const matches[] = {"exact", "any_source", "any_tag", "any", NULL};
static const char *const calls[] = {"recv", "probe", "iprobe", "mprobe", NULL};
static const char *const extra_names[] = {"per_entry_ns", NULL};

typedef struct {
    mg_list depths; /* --depths; empty: the defaults */
    int queue, match, call;
} matching_params;

static const mg_opt opts[] = {
    {.long_name = "depths",
     .type = MG_OPT_LIST,
     .offset = offsetof(matching_params, depths),
     .arg_name = "LIST",
     .help = "queue depths D, like 0,16,256 or 1:4096 (default 0, 16, 256, 1024, 4096; 0 is "
             "always measured first)",
     .max = MAX_DEPTH},
    {.long_name = "queue",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(matching_params, queue),
     .arg_name = "posted|unexpected",
     .help = "the deep queue on rank 1: D receives posted for another tag, or D messages of "
             "another tag arrived and not received",
     .choices = queues,
     .def = "posted"},
    {.long_name = "match",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(matching_params, match),
     .arg_name = "exact|any_source|any_tag|any",
     .help = "rank 1's source and tag: both named, MPI_ANY_SOURCE, MPI_ANY_TAG or both "
             "(any_tag and any need --queue posted)",
     .choices = matches,
     .def = "exact"},
    {.long_name = "call",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(matching_params, call),
     .arg_name = "recv|probe|iprobe|mprobe",
     .help = "how rank 1 takes a message: MPI_Recv, MPI_Probe + MPI_Recv, an MPI_Iprobe loop + "
             "MPI_Recv, MPI_Mprobe + MPI_Mrecv",
     .choices = calls,
     .def = "recv"},
    {.type = MG_OPT_END}};

static const matching_params *prm(const mg_ctx *c) { return c->params; }

static int variants(const mg_ctx *c, long *values, int max)
{
    static const long defaults[] = {16, 256, 1024, 4096};
    return mg_variants_ref_first(0, &prm(c)->depths, defaults, 4, values, max);
}

static long deepest(const mg_ctx *c)
{
    long d = prm(c)->depths.n == 0 ? 4096 : 0;
    for (int i = 0; i < prm(c)->depths.n; ++i)
        d = prm(c)->depths.v[i] > d ? prm(c)->depths.v[i] : d;
    return d;
}

/* MPI_ANY_TAG would take the unexpected messages of the other tag. */
static int check(const mg_ctx *c, char *err, size_t errlen)
{
    if (prm(c)->queue == Q_UNEXPECTED && (prm(c)->match == M_ANY_TAG || prm(c)->match == M_ANY)) {
        snprintf(err, errlen,
                 "--match %s: with --queue unexpected MPI_ANY_TAG would receive the unexpected "
                 "messages themselves (use exact or any_source)",
                 matches[prm(c)->match]);
        return -1;
    }
    return 0;
}

static size_t requests(const mg_ctx *c) { return (size_t)deepest(c) + 1; }

/* MPI_Wait on each (MPICH's MPI_STATUSES_IGNORE in MPI_Waitall makes GCC 12
 * report a false -Wstringop-overflow). */
static void wait_each(MPI_Request *r, int n)
{
    for (int k = 0; k < n; ++k)
        MG_MPI_CHECK(MPI_Wait(&r[k], MPI_STATUS_IGNORE));
}

/* The deep queue of this variant: posted receives on rank 1, or messages
 * rank 0 sent and rank 1 has not received (both sides wait for them to be
 * in place). */
static void begin_size(mg_ctx *c, uint64_t size)
{
    const int d = (int)c->variant;
    (void)size;
    if (prm(c)->queue == Q_POSTED && c->rank == 1)
        for (int k = 0; k < d; ++k)
            MG_MPI_CHECK(MPI_Irecv(c->rbuf, 0, MPI_BYTE, c->peer, TAG_DEEP, c->comm, &c->reqs[k]));
    if (prm(c)->queue == Q_UNEXPECTED && c->rank == 0 && d > 0) { /* then a marker */
        for (int k = 0; k < d; ++k)
            MG_MPI_CHECK(MPI_Isend(c->sbuf, 0, MPI_BYTE, c->peer, TAG_DEEP, c->comm, &c->reqs[k]));
        wait_each(c->reqs, d);
        MG_MPI_CHECK(MPI_Send(c->sbuf, 0, MPI_BYTE, c->peer, TAG_MARK, c->comm));
    }
    if (prm(c)->queue == Q_UNEXPECTED && c->rank == 1 && d > 0) /* sent after them all */
        MG_MPI_CHECK(MPI_Recv(c->rbuf, 0, MPI_BYTE, c->peer, TAG_MARK, c->comm, MPI_STATUS_IGNORE));
    MG_MPI_CHECK(MPI_Barrier(c->comm));
}

static void end_size(mg_ctx *c, uint64_t size)
{
    const int d = (int)c->variant;
    (void)size;
    if (c->rank != 1 || d == 0)
        return;
    if (prm(c)->queue == Q_POSTED) {
        for (int k = 0; k < d; ++k)
            MG_MPI_CHECK(MPI_Cancel(&c->reqs[k]));
        wait_each(c->reqs, d);
    } else {
        for (int k = 0; k < d; ++k)
            MG_MPI_CHECK(
                MPI_Recv(c->rbuf, 0, MPI_BYTE, c->peer, TAG_DEEP, c->comm, MPI_STATUS_IGNORE));
    }
}

/* Rank 1 takes one message of size bytes with --call and --match. */
static void take(mg_ctx *c, uint64_t size)
{
    const int m = prm(c)->match, n = (int)size;
    const int src = m == M_ANY_SOURCE || m == M_ANY ? MPI_ANY_SOURCE : c->peer;
    const int tag = m == M_ANY_TAG || m == M_ANY ? MPI_ANY_TAG : TAG_DATA;
    MPI_Status st;
    MPI_Message msg;
    int flag = 0;
    switch (prm(c)->call) {
    case C_RECV: MG_MPI_CHECK(MPI_Recv(c->rbuf, n, MPI_BYTE, src, tag, c->comm, &st)); return;
    case C_PROBE: MG_MPI_CHECK(MPI_Probe(src, tag, c->comm, &st)); break;
    case C_IPROBE:
        while (!flag)
            MG_MPI_CHECK(MPI_Iprobe(src, tag, c->comm, &flag, &st));
        break;
    default:
        MG_MPI_CHECK(MPI_Mprobe(src, tag, c->comm, &msg, &st));
        MG_MPI_CHECK(MPI_Mrecv(c->rbuf, n, MPI_BYTE, &msg, MPI_STATUS_IGNORE));
        return;
    }
    MG_MPI_CHECK(
        MPI_Recv(c->rbuf, n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, c->comm, MPI_STATUS_IGNORE));
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const int n = (int)size;
    for (long i = 0; i < iters; ++i) {
        if (c->rank == 0) {
            MG_MPI_CHECK(MPI_Send(c->sbuf, n, MPI_BYTE, c->peer, TAG_DATA, c->comm));
            MG_MPI_CHECK(
                MPI_Recv(c->rbuf, n, MPI_BYTE, c->peer, TAG_DATA, c->comm, MPI_STATUS_IGNORE));
        } else {
            take(c, size);
            MG_MPI_CHECK(MPI_Send(c->sbuf, n, MPI_BYTE, c->peer, TAG_DATA, c->comm));
        }
    }
}

/* Rank 0: what one queue entry costs, from depth 0's median. */
static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)size;
    (void)rank_s;
    out[0] =
        c->ref && c->variant > 0 ? (st->median - c->ref->median) * 1e3 / (double)c->variant : NAN;
}

static const mg_bench bench = {
    .id.name = "matching",
    .report.description =
        "cost of message matching: ping-pong latency (us) while rank 1 has D posted receives "
        "or D unexpected messages of another tag, per depth D, and the cost of one entry",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_LATENCY_SWEEP(0.5, 8, 8),
    .params.opts = opts,
    .params.params_size = sizeof(matching_params),
    .params.check = check,
    .sweep.variant_name = "depth",
    .sweep.variants = variants,
    .kernel.begin_size = begin_size,
    .kernel.end_size = end_size,
    .kernel.requests = requests,
    .kernel.iterate = iterate,
    .valid.recv_slots = mg_recv_from_peer,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
