/* SPDX-License-Identifier: BSD-3-Clause */
/* The threaded point-to-point programs' shared hooks: see mt.h. */
#include "mt.h"

#include <errno.h>
#include <string.h>

const char *const mg_mt_comm_modes[] = {"dup", "shared", NULL};

static mg_mt_state *st(const mg_ctx *c) { return c->state; }

mg_tpool *mg_mt_team(int n)
{
    char msg[128];
    mg_tpool *pool = mg_tpool_create(n);
    if (pool == NULL) {
        snprintf(msg, sizeof msg, "could not start %d threads: %s", n, strerror(errno));
        mg_mpi_die(__FILE__, __LINE__, msg);
    }
    return pool;
}

void mg_mt_setup(mg_ctx *c, uint64_t max_size)
{
    mg_mt_state *s = st(c);
    (void)max_size;
    if (mg_mt(c)->comm_mode == MG_MT_DUP)
        for (s->ncomm = 0; s->ncomm < mg_mt_threads(c); ++s->ncomm)
            MG_MPI_CHECK(MPI_Comm_dup(c->comm, &s->comm[s->ncomm]));
    s->pool = mg_mt_team(mg_mt_threads(c));
}

void mg_mt_teardown(mg_ctx *c)
{
    mg_mt_state *s = st(c);
    mg_tpool_destroy(s->pool);
    s->pool = NULL;
    for (int t = 0; t < s->ncomm; ++t)
        MG_MPI_CHECK(MPI_Comm_free(&s->comm[t]));
    s->ncomm = 0;
}

void mg_mt_begin_size(mg_ctx *c, uint64_t size) { mg_bytes_msg_make(&st(c)->msg, size); }

void mg_mt_end_size(mg_ctx *c, uint64_t size)
{
    (void)size;
    mg_bytes_msg_free(&st(c)->msg);
}

size_t mg_mt_buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    return (size_t)mg_mt_threads(c) * (size_t)max_size;
}

int mg_mt_send_slots(const mg_ctx *c, uint64_t size)
{
    (void)size;
    return mg_mt_threads(c);
}

int mg_mt_recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    int n = mg_mt_threads(c) < max ? mg_mt_threads(c) : max;
    (void)size;
    if (c->peer < 0)
        return 0;
    for (int t = 0; t < n; ++t)
        from[t] = c->peer;
    return n;
}

int mg_mt_recv_slots_receiver(const mg_ctx *c, uint64_t size, int *from, int max)
{
    return c->peer < 0 || mg_initiator(c) ? 0 : mg_mt_recv_slots(c, size, from, max);
}

void mg_mt_describe(const mg_ctx *c, mg_kvlist *out)
{
    mg_kv_object(out, "threads");
    mg_kv_number(out, "per_rank", mg_mt_threads(c));
    mg_kv_string(out, "comm", mg_mt_comm_modes[mg_mt(c)->comm_mode]);
    mg_kv_string(out, "thread_level_provided", mg_thread_level_name(c->thread_provided));
    mg_kv_end(out);
}

void mg_mt_send(const mg_mt_state *s, const char *buf, int peer, int tag, MPI_Comm comm)
{
    MG_MPI_CHECK(MPI_Send(buf, s->msg.count, s->msg.dt, peer, tag, comm));
}

void mg_mt_recv(const mg_mt_state *s, char *buf, int peer, int tag, MPI_Comm comm)
{
    MG_MPI_CHECK(MPI_Recv(buf, s->msg.count, s->msg.dt, peer, tag, comm, MPI_STATUS_IGNORE));
}

void mg_mt_isend(const mg_mt_state *s, const char *buf, int peer, int tag, MPI_Comm comm,
                 MPI_Request *r)
{
    MG_MPI_CHECK(MPI_Isend(buf, s->msg.count, s->msg.dt, peer, tag, comm, r));
}

void mg_mt_irecv(const mg_mt_state *s, char *buf, int peer, int tag, MPI_Comm comm, MPI_Request *r)
{
    MG_MPI_CHECK(MPI_Irecv(buf, s->msg.count, s->msg.dt, peer, tag, comm, r));
}

static void member(void *arg, int t)
{
    mg_mt_state *s = arg;
    mg_ctx *c = s->c;
    int shared = mg_mt(c)->comm_mode == MG_MT_SHARED;
    MPI_Comm comm = shared ? c->comm : s->comm[t];
    char *sb = (char *)c->sbuf + (size_t)t * s->size, *rb = (char *)c->rbuf + (size_t)t * s->size;
    s->member_t0[t] = MPI_Wtime();
    s->loop(c, t, comm, shared ? 1 + t : 1, sb, rb, s->size, s->iters);
    s->member_t1[t] = MPI_Wtime();
}

double mg_mt_run(mg_ctx *c, uint64_t size, long iters, mg_mt_loop loop)
{
    mg_mt_state *s = st(c);
    int n = mg_mt_threads(c);
    double first, last;
    if (c->peer < 0)
        return 0;
    s->c = c;
    s->size = size;
    s->iters = iters;
    s->loop = loop;
    mg_tpool_run(s->pool, member, s);
    first = s->member_t0[0];
    last = s->member_t1[0];
    for (int t = 1; t < n; ++t) {
        first = s->member_t0[t] < first ? s->member_t0[t] : first;
        last = s->member_t1[t] > last ? s->member_t1[t] : last;
    }
    return last - first;
}
