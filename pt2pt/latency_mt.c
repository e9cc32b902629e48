/* SPDX-License-Identifier: BSD-3-Clause */
/* Multithreaded ping-pong latency (OSU osu_latency_mt).
 *
 * T threads on each of ranks 0 and 1 (MPI_THREAD_MULTIPLE); thread t of
 * rank 0 ping-pongs N bytes with thread t of rank 1 with blocking calls,
 * all pairs at once, on a communicator per thread pair or one shared with a
 * tag per pair (--thread-comm). A sample is rank 0's span from the first
 * thread's start to the last one's end per iteration, halved: the one-way
 * latency each pair sees while all run at once (threads the library
 * serialises make it T times longer). Extra: the message rate of all pairs
 * together (2T messages per round trip). OSU's osu_latency_mt differs
 * (doc/threads.md).
 */
#include "mt.h"

#include <math.h>

static void pingpong(mg_ctx *c, int member, MPI_Comm comm, int tag, char *sb, char *rb,
                     uint64_t size, long iters)
{
    const mg_mt_state *s = c->state;
    (void)member, (void)size;
    if (c->rank == 0) {
        for (long i = 0; i < iters; ++i) {
            mg_mt_send(s, sb, c->peer, tag, comm);
            mg_mt_recv(s, rb, c->peer, tag, comm);
        }
    } else {
        for (long i = 0; i < iters; ++i) {
            mg_mt_recv(s, rb, c->peer, tag, comm);
            mg_mt_send(s, sb, c->peer, tag, comm);
        }
    }
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    c->sample_s += mg_mt_run(c, size, iters, pingpong);
}

static const char *const extra_names[] = {"msg_rate_per_s", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)size, (void)rank_s;
    out[0] = st->median > 0 ? (double)mg_mt_threads(c) * 1e6 / st->median : NAN;
}

static const mg_opt opts[] = {MG_OPT_THREADS, MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "latency_mt",
    .report.description = "multithreaded ping-pong: T thread pairs between ranks 0 and 1 at once; "
                          "one-way latency (round trip / 2) over the span of all threads, in us",
    MG_PT2PT_PAIR_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(0.5),
    MG_MT_FIELDS,
    .kernel.iterate = iterate,
    .valid.recv_slots = mg_mt_recv_slots,
    .params.opts = opts,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
