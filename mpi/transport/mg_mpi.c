/* SPDX-License-Identifier: BSD-3-Clause */
/* The thin MPI layer: see mg_mpi.h. */
#include "mg_mpi.h"

#include "config.h"
#include "mg_exit.h"
#include "mg_linkrate.h"
#include "mg_outfile.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void mg_mpi_fail(int rc, const char *call, const char *file, int line)
{
    char msg[MPI_MAX_ERROR_STRING] = "unknown error";
    int len = 0, rank = -1;
    MPI_Error_string(rc, msg, &len);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "mpigauge: rank %d: %s:%d: %s failed: %s\n", rank, file, line, call, msg);
    fflush(stderr);
    mg_out_forget_temporary(); /* the -o file's temporary goes with the run */
    MPI_Abort(MPI_COMM_WORLD, MG_EXIT_INTERNAL);
    exit(MG_EXIT_INTERNAL);
}

void mg_mpi_die(const char *file, int line, const char *msg)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "mpigauge: rank %d: %s:%d: %s\n", rank, file, line, msg);
    fflush(stderr);
    mg_out_forget_temporary(); /* the -o file's temporary goes with the run */
    MPI_Abort(MPI_COMM_WORLD, MG_EXIT_INTERNAL);
    exit(MG_EXIT_INTERNAL);
}

int mg_mpi_library_is(const char *prefix)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    return MPI_Get_library_version(lib, &len) == MPI_SUCCESS &&
           strncmp(lib, prefix, strlen(prefix)) == 0;
}

static void *plain_alloc(void *impl, size_t bytes)
{
    (void)impl;
    return mg_buf_alloc(bytes);
}

static void plain_release(void *impl, void *p)
{
    (void)impl;
    mg_buf_free(p);
}

const mg_xfer_ops mg_xfer_plain_ops = {.alloc = plain_alloc, .release = plain_release};

void mg_xfer_init(mg_xfer *x, MPI_Comm comm)
{
    x->comm = comm;
    x->fast_max = (size_t)INT_MAX;
    x->ops = &mg_xfer_plain_ops;
    x->impl = NULL;
}

void *mg_xfer_alloc(const mg_xfer *x, size_t bytes) { return x->ops->alloc(x->impl, bytes); }

void mg_xfer_release(const mg_xfer *x, void *p)
{
    if (p)
        x->ops->release(x->impl, p);
}

void mg_xfer_prepare(const mg_xfer *x, const mg_xfer_peers *peers)
{
    if (x->ops->prepare)
        x->ops->prepare(x->impl, peers);
}

void mg_xfer_finish(const mg_xfer *x, int rc)
{
    if (x->ops->finish)
        x->ops->finish(x->impl, rc);
}

void mg_xfer_describe_json(const mg_xfer *x, struct mg_json *j)
{
    if (x->ops->describe_json)
        x->ops->describe_json(x->impl, j);
}

void mg_xfer_describe_comment(const mg_xfer *x, FILE *f)
{
    if (x->ops->describe_comment)
        x->ops->describe_comment(x->impl, f);
}

MPI_Datatype mg_mpi_bytes_type(size_t bytes)
{
    const size_t block = (size_t)1 << 20;
    MPI_Datatype blk, t;
    int nblocks = (int)(bytes / block), tail = (int)(bytes % block);

    MG_MPI_CHECK(MPI_Type_contiguous((int)block, MPI_BYTE, &blk));
    if (tail == 0) {
        MG_MPI_CHECK(MPI_Type_contiguous(nblocks, blk, &t));
    } else {
        int lens[2] = {nblocks, tail};
        MPI_Aint disp[2] = {0, (MPI_Aint)(bytes - (size_t)tail)};
        MPI_Datatype types[2] = {blk, MPI_BYTE};
        MG_MPI_CHECK(MPI_Type_create_struct(2, lens, disp, types, &t));
    }
    MG_MPI_CHECK(MPI_Type_commit(&t));
    MG_MPI_CHECK(MPI_Type_free(&blk));
    return t;
}

void mg_bytes_msg_make(mg_bytes_msg *m, uint64_t bytes)
{
    m->derived = bytes > (uint64_t)INT_MAX;
    m->count = m->derived ? 1 : (int)bytes;
    m->dt = m->derived ? mg_mpi_bytes_type((size_t)bytes) : MPI_BYTE;
}

void mg_bytes_msg_free(mg_bytes_msg *m)
{
    if (m->derived)
        MG_MPI_CHECK(MPI_Type_free(&m->dt));
    m->derived = 0;
    m->dt = MPI_BYTE;
}

/* Counts above INT_MAX: MPI-4 _c calls, or one element of a derived type. */
#if MG_HAVE_MPI_LARGE_COUNT
#define MG_XFER_LARGE(fn, buf, bytes, ...)                                                         \
    MG_MPI_CHECK(fn##_c((buf), (MPI_Count)(bytes), MPI_BYTE, __VA_ARGS__))
#else
#define MG_XFER_LARGE(fn, buf, bytes, ...)                                                         \
    do {                                                                                           \
        MPI_Datatype mg_t_ = mg_mpi_bytes_type(bytes);                                             \
        MG_MPI_CHECK(fn((buf), 1, mg_t_, __VA_ARGS__));                                            \
        MG_MPI_CHECK(MPI_Type_free(&mg_t_));                                                       \
    } while (0)
#endif

void mg_xfer_post_comm(int send, MPI_Comm comm, void *buf, size_t bytes, int peer, int tag,
                       MPI_Request *req)
{
    if (bytes <= (size_t)INT_MAX && send)
        MG_MPI_CHECK(MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, tag, comm, req));
    else if (bytes <= (size_t)INT_MAX)
        MG_MPI_CHECK(MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, tag, comm, req));
    else if (send)
        MG_XFER_LARGE(MPI_Isend, buf, bytes, peer, tag, comm, req);
    else
        MG_XFER_LARGE(MPI_Irecv, buf, bytes, peer, tag, comm, req);
}

/* Blocking calls over another transport: post, then complete every part. */
static void ops_blocking(const mg_xfer *x, int send, const void *buf, size_t bytes, int peer,
                         int tag)
{
    MPI_Request r;
    if (x->ops->blocking) {
        x->ops->blocking(x->impl, send, buf, bytes, peer, tag);
        return;
    }
    x->ops->post(x->impl, send, buf, bytes, peer, tag, &r);
    x->ops->complete(x->impl, 1, &r);
}

void mg_xfer_send_large(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag)
{
    if (x->ops->post)
        ops_blocking(x, 1, buf, bytes, peer, tag);
    else if (bytes <= (size_t)INT_MAX)
        MG_MPI_CHECK(MPI_Send(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm));
    else
        MG_XFER_LARGE(MPI_Send, buf, bytes, peer, tag, x->comm);
}

void mg_xfer_recv_large(const mg_xfer *x, void *buf, size_t bytes, int peer, int tag)
{
    if (x->ops->post)
        ops_blocking(x, 0, buf, bytes, peer, tag);
    else if (bytes <= (size_t)INT_MAX)
        MG_MPI_CHECK(MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm, MPI_STATUS_IGNORE));
    else
        MG_XFER_LARGE(MPI_Recv, buf, bytes, peer, tag, x->comm, MPI_STATUS_IGNORE);
}

void mg_xfer_isend_large(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag,
                         MPI_Request *req)
{
    if (x->ops->post)
        x->ops->post(x->impl, 1, buf, bytes, peer, tag, req);
    else
        mg_xfer_post_comm(1, x->comm, (void *)buf, bytes, peer, tag, req);
}

void mg_xfer_irecv_large(const mg_xfer *x, void *buf, size_t bytes, int peer, int tag,
                         MPI_Request *req)
{
    if (x->ops->post)
        x->ops->post(x->impl, 0, buf, bytes, peer, tag, req);
    else
        mg_xfer_post_comm(0, x->comm, buf, bytes, peer, tag, req);
}

/* Synchronous sends do not take another transport (no rail benchmark uses them). */
void mg_xfer_issend_large(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag,
                          MPI_Request *req)
{
    if (bytes <= (size_t)INT_MAX)
        MG_MPI_CHECK(MPI_Issend(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm, req));
    else
        MG_XFER_LARGE(MPI_Issend, buf, bytes, peer, tag, x->comm, req);
}

void mg_xfer_ssend_large(const mg_xfer *x, const void *buf, size_t bytes, int peer, int tag)
{
    if (bytes <= (size_t)INT_MAX)
        MG_MPI_CHECK(MPI_Ssend(buf, (int)bytes, MPI_BYTE, peer, tag, x->comm));
    else
        MG_XFER_LARGE(MPI_Ssend, buf, bytes, peer, tag, x->comm);
}

/* MPICH's mpi.h annotates the status array with an access size that GCC
 * checks against the MPI_STATUSES_IGNORE sentinel: a false positive. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
void mg_xfer_waitall(const mg_xfer *x, int n, MPI_Request *reqs)
{
    if (x->ops->post)
        x->ops->complete(x->impl, n, reqs);
    else
        MG_MPI_CHECK(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
}

int mg_mpi_agree_message(MPI_Comm comm, char *msg, int len)
{
    int rank, size, me, first;
    MG_MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MG_MPI_CHECK(MPI_Comm_size(comm, &size));
    me = msg[0] ? rank : size;
    MG_MPI_CHECK(MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, comm));
    if (first == size)
        return 0;
    MG_MPI_CHECK(MPI_Bcast(msg, len, MPI_CHAR, first, comm));
    return -1;
}

void mg_mpi_waitall(int n, MPI_Request *reqs)
{
    MG_MPI_CHECK(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
}

int mg_xfer_testall(int n, MPI_Request *reqs)
{
    int flag = 0;
    MG_MPI_CHECK(MPI_Testall(n, reqs, &flag, MPI_STATUSES_IGNORE));
    return flag;
}
#pragma GCC diagnostic pop

void *mg_buf_alloc(size_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t align = page > 0 ? (size_t)page : 4096;
    size_t len = bytes < align ? align : bytes;
    void *p = NULL;
    if (posix_memalign(&p, align, len) != 0 || p == NULL)
        return NULL;
    memset(p, 0, len);
    return p;
}

void mg_buf_free(void *buf) { free(buf); }

double mg_wtime(void *unused)
{
    (void)unused;
    return MPI_Wtime();
}

double mg_timer_overhead_s(void)
{
    const int n = 2000;
    double t0 = MPI_Wtime(), t = t0;
    for (int i = 0; i < n; ++i)
        t = MPI_Wtime();
    return (t - t0) / n;
}

mg_link *mg_mpi_gather_links(MPI_Comm comm)
{
    mg_link mine, *all;
    int n;
    MG_MPI_CHECK(MPI_Comm_size(comm, &n));
    if ((all = calloc((size_t)n, sizeof *all)) == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    if (mg_link_of_node(&mine) != 0)
        memset(&mine, 0, sizeof mine);
    MG_MPI_CHECK(
        MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, comm));
    return all;
}
