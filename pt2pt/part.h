/* SPDX-License-Identifier: BSD-3-Clause */
/* Partitioned point-to-point (MPI-4: MPI_Psend_init, MPI_Precv_init,
 * MPI_Pready, MPI_Parrived), part_latency and part_bw (pt2pt/part.c).
 *
 * A message is P partitions of N bytes each (-m gives N, the partition
 * size; the message is P x N bytes). T threads per rank share the
 * partitions: thread t marks partitions t, t + T, ... ready (MPI_Pready)
 * and, on the receiving side, polls the same partitions with MPI_Parrived.
 * The requests are made once per size (not timed) and started with
 * MPI_Start/MPI_Startall each iteration by thread 0. Inside an iteration
 * the threads stay in lockstep with a spinning barrier (mg_tpool_barrier):
 * one after the start, one before thread 0 completes the requests. The
 * figure is thread 0's own loop time (timing.times_itself), so waking the
 * team is not in it. Validation gives every partition its own pattern, so
 * a partition delivered to the wrong place fails. Libraries without MPI-4
 * partitioned communication (Open MPI 4.1) build programs that exit 77. */
#ifndef MG_PT2PT_PART_H
#define MG_PT2PT_PART_H

#include "mt.h"

typedef struct {
    mg_pt2pt_params p2p; /* first: -W's row addresses it */
    long threads;        /* -t */
    long partitions;     /* -p */
} mg_part_params;

static inline const mg_part_params *mg_part(const mg_ctx *c)
{
    return (const mg_part_params *)c->params;
}

#define MG_OPT_PART                                                                                \
    MG_OPT_THREAD_COUNT(mg_part_params, threads,                                                   \
                        "threads per rank; thread t marks (and polls) partitions t, t+T, ...",     \
                        "1"),                                                                      \
    {                                                                                              \
        .short_name = 'p', .long_name = "partitions", .type = MG_OPT_LONG,                         \
        .offset = offsetof(mg_part_params, partitions), .arg_name = "P",                           \
        .help = "partitions per message; -m gives the bytes of one partition", .min = 1,           \
        .max = 65536, .def = "8"                                                                   \
    }

/* A member's step inside the lockstep loop (between the two barriers). */
typedef void (*mg_part_step)(mg_ctx *c, int member);
/* Thread 0 before and after the step: start and complete the requests. */
typedef void (*mg_part_edge)(mg_ctx *c);

typedef struct {
    mg_tpool *pool;
    mg_bytes_msg part; /* one partition as a count and a datatype */
    int nreq;          /* requests made for this size */
    int receives;      /* this rank receives partitions (set by begin_size): validated */
    mg_ctx *c;
    long iters;
    mg_part_step step;
    mg_part_edge start, complete;
    double loop_s; /* thread 0's loop time */
} mg_part_state;

/* Request k of c->reqs: a partitioned send (send = 1) or receive of P
 * partitions of `size` bytes at buf with the peer. */
void mg_part_init(mg_ctx *c, int k, int send, void *buf, int tag);
/* Thread `member`'s partitions: first and step. */
static inline int mg_part_first(const mg_ctx *c, int member)
{
    (void)c;
    return member;
}
static inline int mg_part_step_of(const mg_ctx *c) { return (int)mg_part(c)->threads; }
static inline int mg_part_count(const mg_ctx *c) { return (int)mg_part(c)->partitions; }

/* Mark this member's partitions of request r ready / wait until they have
 * arrived (MPI_Parrived, polled). */
void mg_part_ready(const mg_ctx *c, int member, MPI_Request r);
void mg_part_arrived(const mg_ctx *c, int member, MPI_Request r);
/* For each of this member's partitions: wait until it has arrived in recv,
 * then mark the same partition of send ready (a pipelined reply). */
void mg_part_relay(const mg_ctx *c, int member, MPI_Request recv, MPI_Request send);

/* `iters` lockstep iterations of start / step / complete on every member;
 * adds thread 0's loop time to c->sample_s. */
void mg_part_run(mg_ctx *c, long iters, mg_part_edge start, mg_part_step step,
                 mg_part_edge complete);

void mg_part_setup(mg_ctx *c, uint64_t max_size);
void mg_part_teardown(mg_ctx *c);
void mg_part_begin_size(mg_ctx *c, uint64_t size);
void mg_part_end_size(mg_ctx *c, uint64_t size);
size_t mg_part_buf_bytes(const mg_ctx *c, uint64_t max_size);
void mg_part_fill(mg_ctx *c, uint64_t size, int pass);
int mg_part_verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen);
void mg_part_describe(const mg_ctx *c, mg_kvlist *out);
/* params.unsupported: NULL, or why the program exits 77 (no MPI-4
 * partitioned communication; a pattern the library hangs in: part.c); --help
 * works either way. part_bw: several sends at once (-W); part_latency: a
 * send and a receive of more than one partition at once. */
const char *mg_part_unsupported(const mg_ctx *c);
const char *mg_part_pingpong_unsupported(const mg_ctx *c);

#define MG_PART_FIELDS                                                                             \
    MG_PT2PT_PAIR_FIELDS,                                                                          \
        .layout.thread_level = MPI_THREAD_MULTIPLE, .params.params_size = sizeof(mg_part_params),  \
        .timing.times_itself = 1, .kernel.state_size = sizeof(mg_part_state),                      \
        .kernel.setup = mg_part_setup, .kernel.teardown = mg_part_teardown,                        \
        .kernel.buf_bytes = mg_part_buf_bytes, .kernel.plain_calls = 1,                            \
        .valid.fill = mg_part_fill, .valid.verify = mg_part_verify,                                \
        .report.describe = mg_part_describe, .sizes.min_size = 1, .sizes.default_min_size = 1,     \
        .sizes.default_max_size = 524288

#endif
