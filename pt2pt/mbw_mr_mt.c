/* SPDX-License-Identifier: BSD-3-Clause */
/* Multithreaded multi-pair bandwidth and message rate.
 *
 * Ranks are paired by --pairing as in mbw_mr; each rank runs T threads
 * (MPI_THREAD_MULTIPLE) and thread t of a pair's lower rank streams windows
 * of W non-blocking sends of N bytes to thread t of the other rank, which
 * acknowledges each window with 4 bytes. Every thread of every pair runs at
 * once; a rank's sample is the span from its first thread's start to its
 * last thread's end, the sample the slowest rank's. Reported: aggregate
 * bandwidth = pairs x T x W x N / time in MB/s; extra: the message rate
 * (messages/s over all threads and pairs).
 * Compared with mbw_mr at the same pairs x T, it shows what the library's
 * thread safety costs and whether threads reach the rate processes do.
 */
#include "mt.h"

#include <math.h>

enum { TAG_ACK_BASE = 1 << 14, ACK_BYTES = 4 };

static void stream(mg_ctx *c, int member, MPI_Comm comm, int tag, char *sb, char *rb, uint64_t size,
                   long iters)
{
    const mg_mt_state *s = c->state;
    const int w = (int)mg_window(c), send = mg_initiator(c);
    MPI_Request *r = &c->reqs[(size_t)member * (size_t)w];
    char ack[ACK_BYTES] = {0};
    (void)size;
    for (long i = 0; i < iters; ++i) {
        for (int k = 0; k < w; ++k) {
            if (send)
                mg_mt_isend(s, sb, c->peer, tag, comm, &r[k]);
            else
                mg_mt_irecv(s, rb, c->peer, tag, comm, &r[k]);
        }
        mg_mpi_waitall(w, r);
        if (send)
            MG_MPI_CHECK(MPI_Recv(ack, ACK_BYTES, MPI_BYTE, c->peer, TAG_ACK_BASE + tag, comm,
                                  MPI_STATUS_IGNORE));
        else
            MG_MPI_CHECK(MPI_Send(ack, ACK_BYTES, MPI_BYTE, c->peer, TAG_ACK_BASE + tag, comm));
    }
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    c->sample_s += mg_mt_run(c, size, iters, stream);
}

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)mg_ctx_npairs(c) * mg_mt_threads(c) * (double)mg_window(c) * (double)size;
}

static size_t requests(const mg_ctx *c) { return (size_t)mg_mt_threads(c) * (size_t)mg_window(c); }

static const char *const extra_names[] = {"msg_rate_per_s", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)c, (void)rank_s;
    out[0] = size > 0 ? st->median * 1e6 / (double)size : NAN;
}

static const mg_opt opts[] = {MG_OPT_THREADS, MG_OPT_WINDOW, MG_OPT_PAIRING, MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "mbw_mr_mt",
    .report.description =
        "multithreaded multi-pair bandwidth: T threads per rank, thread t of each "
        "pair streams windows of W sends to thread t of the other; aggregate MB/s",
    MG_PT2PT_MANY_FIELDS,
    MG_PT2PT_BW_SWEEP,
    MG_MT_FIELDS,
    .layout.pairs = mg_pairs_by_option,
    .timing.bytes_per_iter = bytes_per_iter,
    .kernel.requests = requests,
    .kernel.iterate = iterate,
    .valid.recv_slots = mg_mt_recv_slots_receiver,
    .params.opts = opts,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
