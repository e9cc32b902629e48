/* SPDX-License-Identifier: BSD-3-Clause */
/* The thin MPI layer: error checking, the transfer layer and buffers.
 *
 * Every MPI call goes through MG_MPI_CHECK: on failure it prints the rank,
 * file, line, the call and MPI's error string, then aborts the job with
 * MG_EXIT_INTERNAL. MPI_COMM_WORLD is switched to MPI_ERRORS_RETURN so that
 * errors reach the macro instead of killing the job silently.
 *
 * Point-to-point traffic of the benchmarks goes through mg_xfer_*: post a
 * send or receive of N bytes to a peer. Counts above INT_MAX use MPI-4
 * large-count calls where the library has them and a derived datatype
 * otherwise, so no size ever wraps an int. Messages above a transfer's
 * fast_max take its slow path: large counts, or the ops of another transport
 * (the rails of mg_multirail.h) installed in the mg_xfer.
 */
#ifndef MG_MPI_H
#define MG_MPI_H

#include "mg_group.h"
#include "mg_linkrate.h"

#include <limits.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MG_MPI_CHECK(call)                                                                         \
    do {                                                                                           \
        int mg_rc_ = (call);                                                                       \
        if (mg_rc_ != MPI_SUCCESS)                                                                 \
            mg_mpi_fail(mg_rc_, #call, __FILE__, __LINE__);                                        \
    } while (0)

/* Says what failed on this rank, removes the -o file's temporary
 * (util/mg_outfile.h) and aborts the run (exit code 99); so does mg_mpi_die. */
void mg_mpi_fail(int rc, const char *call, const char *file, int line);

/* Collective over comm: when any rank's msg (len bytes) is not empty, every
 * rank gets the lowest such rank's msg and -1; else 0, msg unchanged. */
int mg_mpi_agree_message(MPI_Comm comm, char *msg, int len);

/* The four-call group (util/mg_group.h) over *comm, which it reads at every
 * call: the communicator may change after this (rails), the group's rank and
 * size are then set again by another call. */
void mg_group_mpi(mg_group *g, MPI_Comm *comm);

/* Collective over comm: every rank's node link (util/mg_linkrate.h's
 * mg_link_of_node; all zero where none is known), by rank: the run
 * record's links and the screen's both read it. An array of comm's size,
 * to free. */
mg_link *mg_mpi_gather_links(MPI_Comm comm);

/* Abort with a message for a non-MPI internal error. */
void mg_mpi_die(const char *file, int line, const char *msg);

/* 1 when the MPI library's version string (MPI_Get_library_version, which
 * may be called before MPI_Init) starts with prefix: a release's known
 * defect is refused by name, e.g. "Open MPI v5.0." or "Intel(R) MPI". */
int mg_mpi_library_is(const char *prefix);

/* What a transport prepares once the buffers exist (benchmark ranks,
 * collective over comm): the pairs, and the buffers a probe may use. */
typedef struct {
    MPI_Comm comm;
    const int *partner_of; /* every rank's partner (-1: none), or NULL */
    int rank;
    void *sbuf, *rbuf;
    size_t buf_bytes;
} mg_xfer_peers;

struct mg_json;

/* The session's transport: where the benchmark's buffers live, what it
 * prepares and finishes, what the run record says of it, and the slow path
 * of messages above the fast path's limit. Two implementations: the plain
 * one (mg_xfer_plain_ops: page-aligned buffers, large-count MPI calls,
 * nothing to prepare, finish or describe) and the rails (mg_multirail.h). */
typedef struct mg_xfer_ops {
    /* Buffers of the sweep (NULL when out of memory), freed by release. */
    void *(*alloc)(void *impl, size_t bytes);
    void (*release)(void *impl, void *p);
    /* After the buffers, before the sweep (NULL: nothing to prepare). */
    void (*prepare)(void *impl, const mg_xfer_peers *peers);
    /* At the end of the run with its exit code (NULL: nothing to finish). */
    void (*finish)(void *impl, int rc);
    /* Rank 0: members of the run record, and "# " lines above a table (NULL:
     * nothing to say). */
    void (*describe_json)(const void *impl, struct mg_json *j);
    void (*describe_comment)(const void *impl, FILE *f);
    /* The slow path (NULL: plain and large-count calls): post one message of
     * any count (*req is its first part), and complete requests together
     * with every part the transport keeps outstanding. */
    void (*post)(void *impl, int send, const void *buf, size_t bytes, int peer, int tag,
                 MPI_Request *req);
    void (*complete)(void *impl, int n, MPI_Request *reqs);
    /* A blocking send or receive (NULL: post, then complete). */
    void (*blocking)(void *impl, int send, const void *buf, size_t bytes, int peer, int tag);
} mg_xfer_ops;

extern const mg_xfer_ops mg_xfer_plain_ops;

/* The communicator and peer-independent state of the transfer layer. */
typedef struct {
    MPI_Comm comm;
    size_t fast_max;        /* messages above this take the out-of-line path: INT_MAX,
                             * or the stripe threshold (0 for bound rails) with rails */
    const mg_xfer_ops *ops; /* the transport (mg_xfer_plain_ops after mg_xfer_init) */
    void *impl;             /* the transport's state (owned by the session) */
} mg_xfer;

/* The plain transport over comm. */
void mg_xfer_init(mg_xfer *x, MPI_Comm comm);

/* The transport's calls (each a no-op where its ops have none). */
void *mg_xfer_alloc(const mg_xfer *x, size_t bytes);
void mg_xfer_release(const mg_xfer *x, void *p);
void mg_xfer_prepare(const mg_xfer *x, const mg_xfer_peers *peers);
void mg_xfer_finish(const mg_xfer *x, int rc);
void mg_xfer_describe_json(const mg_xfer *x, struct mg_json *j);
void mg_xfer_describe_comment(const mg_xfer *x, FILE *f);

/* Post a send (send = 1) or receive of any count on comm (no rails). */
void mg_xfer_post_comm(int send, MPI_Comm comm, void *buf, size_t bytes, int peer, int tag,
                       MPI_Request *req);

/* The out-of-line path: counts above INT_MAX (rare, and slow anyway) and
 * another transport's ops. */
void mg_xfer_send_large(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag);
void mg_xfer_recv_large(const mg_xfer *x, void *buf, size_t bytes, int peer, int tag);
void mg_xfer_isend_large(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag,
                         MPI_Request *req);
void mg_xfer_irecv_large(const mg_xfer *x, void *buf, size_t bytes, int peer, int tag,
                         MPI_Request *req);
void mg_xfer_issend_large(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag,
                          MPI_Request *req);
void mg_xfer_ssend_large(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag);
void mg_xfer_waitall(const mg_xfer *x, int n, MPI_Request *reqs);
int mg_xfer_testall(int n, MPI_Request *reqs); /* 1 when all have completed */
/* MPI_Waitall without statuses (the one place that tells GCC that MPICH's
 * MPI_STATUSES_IGNORE is not an empty array). */
void mg_mpi_waitall(int n, MPI_Request *reqs);

/* The common path is inline: an out-of-line wrapper costs 1-2 ns per call,
 * about 1% of a shared-memory ping-pong (measured with bench/). */
static inline void mg_xfer_send(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag)
{
    if (bytes > x->fast_max)
        mg_xfer_send_large(x, buf, bytes, peer, tag);
    else
        MG_MPI_CHECK(MPI_Send(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm));
}

static inline void mg_xfer_recv(const mg_xfer *x, void *buf, size_t bytes, int peer, int tag)
{
    if (bytes > x->fast_max)
        mg_xfer_recv_large(x, buf, bytes, peer, tag);
    else
        MG_MPI_CHECK(MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm, MPI_STATUS_IGNORE));
}

static inline void mg_xfer_isend(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag,
                                 MPI_Request *req)
{
    if (bytes > x->fast_max)
        mg_xfer_isend_large(x, buf, bytes, peer, tag, req);
    else
        MG_MPI_CHECK(MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm, req));
}

static inline void mg_xfer_irecv(const mg_xfer *x, void *buf, size_t bytes, int peer, int tag,
                                 MPI_Request *req)
{
    if (bytes > x->fast_max)
        mg_xfer_irecv_large(x, buf, bytes, peer, tag, req);
    else
        MG_MPI_CHECK(MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm, req));
}

/* A committed datatype of exactly `bytes` bytes (1 MiB blocks and a tail),
 * for counts above INT_MAX where the library lacks MPI-4 large-count calls.
 * The caller frees it after posting the call: MPI keeps it alive until the
 * operation completes. */
MPI_Datatype mg_mpi_bytes_type(size_t bytes);

/* A message of `bytes` bytes as a count and a datatype that requests made
 * once per size keep using (persistent and partitioned requests, threads):
 * `bytes` of MPI_BYTE up to INT_MAX, else 1 of mg_mpi_bytes_type (made by
 * mg_bytes_msg_make, freed by mg_bytes_msg_free). */
typedef struct {
    int count;
    MPI_Datatype dt;
    int derived;
} mg_bytes_msg;
void mg_bytes_msg_make(mg_bytes_msg *m, uint64_t bytes);
void mg_bytes_msg_free(mg_bytes_msg *m);

/* Page-aligned buffer of `bytes` (at least one page), every page touched. */
void *mg_buf_alloc(size_t bytes);
void mg_buf_free(void *buf);

/* Wall-clock for the iteration policy (MPI_Wtime). */
double mg_wtime(void *unused);

/* Mean cost of one MPI_Wtime call in seconds. */
double mg_timer_overhead_s(void);

/* Synchronous sends: complete only once the receive has started. */
static inline void mg_xfer_issend(const mg_xfer *x, const void *buf, size_t bytes, int peer,
                                  int tag, MPI_Request *req)
{
    if (bytes > x->fast_max)
        mg_xfer_issend_large(x, buf, bytes, peer, tag, req);
    else
        MG_MPI_CHECK(MPI_Issend(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm, req));
}

static inline void mg_xfer_ssend(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag)
{
    if (bytes > x->fast_max)
        mg_xfer_ssend_large(x, buf, bytes, peer, tag);
    else
        MG_MPI_CHECK(MPI_Ssend(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm));
}

#endif
