/* SPDX-License-Identifier: BSD-3-Clause */
/* Threaded point-to-point (latency_mt, mbw_mr_mt; pt2pt/mt.c): T threads
 * per rank under MPI_THREAD_MULTIPLE, thread t of a rank talking to thread
 * t of its peer. The threads are a team made once per run (setup) and
 * parked between calls; each member reads the clock as its loop starts and
 * ends, and the figure is the span from the first start to the last end
 * (timing.times_itself): waking the team is not in it, and threads the
 * library serialises count as taking turns, not as running at once. Thread t
 * sends from and receives into slot t of sbuf/rbuf (t x size bytes in), on
 * its own communicator (--thread-comm dup: one MPI_Comm_dup per thread,
 * made in setup) or on the benchmark's communicator with tag 1 + t
 * (--thread-comm shared). */
#ifndef MG_PT2PT_MT_H
#define MG_PT2PT_MT_H

#include "mg_tpool.h"
#include "pt2pt.h"

enum { MG_MT_MAX = 64, MG_MT_DUP = 0, MG_MT_SHARED = 1 };

typedef struct {
    mg_pt2pt_params p2p; /* first: the pt2pt options' rows address it */
    long threads;        /* -t */
    int comm_mode;       /* --thread-comm: MG_MT_DUP or MG_MT_SHARED */
} mg_mt_params;

typedef struct mg_mt_state mg_mt_state;
/* A member's loop: `iters` iterations with messages of `size` bytes on
 * comm/tag with buffers sb/rb; returns nothing, the caller times it. */
typedef void (*mg_mt_loop)(mg_ctx *c, int member, MPI_Comm comm, int tag, char *sb, char *rb,
                           uint64_t size, long iters);

struct mg_mt_state {
    mg_tpool *pool;
    MPI_Comm comm[MG_MT_MAX];
    int ncomm;
    mg_bytes_msg msg; /* the current size as a count and a datatype */
    mg_ctx *c;        /* the current call's context, size, iterations, loop */
    uint64_t size;
    long iters;
    mg_mt_loop loop;
    double member_t0[MG_MT_MAX], member_t1[MG_MT_MAX]; /* each loop's start and end */
};

extern const char *const mg_mt_comm_modes[];

/* -t over field `f` of struct T (threads per rank, at most MG_MT_MAX). */
#define MG_OPT_THREAD_COUNT(T, f, what, dflt)                                                      \
    {                                                                                              \
        .short_name = 't', .long_name = "threads", .type = MG_OPT_LONG, .offset = offsetof(T, f),  \
        .arg_name = "T", .help = what, .min = 1, .max = MG_MT_MAX, .def = dflt                     \
    }
#define MG_OPT_THREADS                                                                             \
    MG_OPT_THREAD_COUNT(mg_mt_params, threads,                                                     \
                        "threads per rank; thread t talks to thread t of the peer", "2"),          \
    {                                                                                              \
        .long_name = "thread-comm", .type = MG_OPT_CHOICE,                                         \
        .offset = offsetof(mg_mt_params, comm_mode), .arg_name = "dup|shared",                     \
        .help = "one communicator per thread pair (MPI_Comm_dup), or the one communicator with a " \
                "tag per thread",                                                                  \
        .choices = mg_mt_comm_modes, .def = "dup"                                                  \
    }

static inline const mg_mt_params *mg_mt(const mg_ctx *c) { return (const mg_mt_params *)c->params; }
static inline int mg_mt_threads(const mg_ctx *c) { return (int)mg_mt(c)->threads; }

/* A team of n threads (mg_tpool), or MPI_Abort saying why not. */
mg_tpool *mg_mt_team(int n);

/* The hooks every threaded program shares (state, setup, teardown, sizes,
 * buffers, describe) and its validation slots (one per thread, from the
 * peer: receivers only when `receiver_only`). */
void mg_mt_setup(mg_ctx *c, uint64_t max_size);
void mg_mt_teardown(mg_ctx *c);
void mg_mt_begin_size(mg_ctx *c, uint64_t size);
void mg_mt_end_size(mg_ctx *c, uint64_t size);
size_t mg_mt_buf_bytes(const mg_ctx *c, uint64_t max_size);
int mg_mt_send_slots(const mg_ctx *c, uint64_t size);
int mg_mt_recv_slots(const mg_ctx *c, uint64_t size, int *from, int max);
int mg_mt_recv_slots_receiver(const mg_ctx *c, uint64_t size, int *from, int max);
void mg_mt_describe(const mg_ctx *c, mg_kvlist *out);

/* Post a send or receive of the current size for a member loop (the
 * datatype chosen in begin_size). */
void mg_mt_send(const mg_mt_state *s, const char *buf, int peer, int tag, MPI_Comm comm);
void mg_mt_recv(const mg_mt_state *s, char *buf, int peer, int tag, MPI_Comm comm);
void mg_mt_isend(const mg_mt_state *s, const char *buf, int peer, int tag, MPI_Comm comm,
                 MPI_Request *r);
void mg_mt_irecv(const mg_mt_state *s, char *buf, int peer, int tag, MPI_Comm comm, MPI_Request *r);

/* Run `loop` on every member for `iters` iterations; returns the seconds
 * from the first member's start to the last one's end. Ranks without a
 * peer return 0. */
double mg_mt_run(mg_ctx *c, uint64_t size, long iters, mg_mt_loop loop);

/* The descriptor fields of every threaded program. */
#define MG_MT_FIELDS                                                                               \
    .layout.thread_level = MPI_THREAD_MULTIPLE, .params.params_size = sizeof(mg_mt_params),        \
    .timing.times_itself = 1, .kernel.state_size = sizeof(mg_mt_state),                            \
    .kernel.setup = mg_mt_setup, .kernel.teardown = mg_mt_teardown,                                \
    .kernel.begin_size = mg_mt_begin_size, .kernel.end_size = mg_mt_end_size,                      \
    .kernel.buf_bytes = mg_mt_buf_bytes, .valid.send_slots = mg_mt_send_slots,                     \
    .report.describe = mg_mt_describe

#endif
