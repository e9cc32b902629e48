/* SPDX-License-Identifier: BSD-3-Clause */
/* The partitioned programs' shared hooks: see part.h. */
#include "part.h"

#include "config.h"
#include "mg_pattern.h"

static mg_part_state *pst(const mg_ctx *c) { return c->state; }

void mg_part_setup(mg_ctx *c, uint64_t max_size)
{
    (void)max_size;
    pst(c)->pool = mg_mt_team((int)mg_part(c)->threads);
}

void mg_part_teardown(mg_ctx *c)
{
    mg_tpool_destroy(pst(c)->pool);
    pst(c)->pool = NULL;
}

void mg_part_begin_size(mg_ctx *c, uint64_t size) { mg_bytes_msg_make(&pst(c)->part, size); }

void mg_part_end_size(mg_ctx *c, uint64_t size)
{
    mg_part_state *s = pst(c);
    (void)size;
    for (int k = 0; k < s->nreq; ++k)
        MG_MPI_CHECK(MPI_Request_free(&c->reqs[k]));
    s->nreq = 0;
    mg_bytes_msg_free(&s->part);
}

size_t mg_part_buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    return (size_t)mg_part_count(c) * (size_t)max_size;
}

#if MG_HAVE_PARTITIONED
void mg_part_init(mg_ctx *c, int k, int send, void *buf, int tag)
{
    mg_part_state *s = pst(c);
    if (send)
        MG_MPI_CHECK(MPI_Psend_init(buf, mg_part_count(c), s->part.count, s->part.dt, c->peer, tag,
                                    c->comm, MPI_INFO_NULL, &c->reqs[k]));
    else
        MG_MPI_CHECK(MPI_Precv_init(buf, mg_part_count(c), s->part.count, s->part.dt, c->peer, tag,
                                    c->comm, MPI_INFO_NULL, &c->reqs[k]));
    if (k + 1 > s->nreq)
        s->nreq = k + 1;
}

void mg_part_ready(const mg_ctx *c, int member, MPI_Request r)
{
    for (int p = mg_part_first(c, member); p < mg_part_count(c); p += mg_part_step_of(c))
        MG_MPI_CHECK(MPI_Pready(p, r));
}

void mg_part_arrived(const mg_ctx *c, int member, MPI_Request r)
{
    for (int p = mg_part_first(c, member); p < mg_part_count(c); p += mg_part_step_of(c)) {
        int flag = 0;
        while (!flag)
            MG_MPI_CHECK(MPI_Parrived(r, p, &flag));
    }
}

void mg_part_relay(const mg_ctx *c, int member, MPI_Request recv, MPI_Request send)
{
    for (int p = mg_part_first(c, member); p < mg_part_count(c); p += mg_part_step_of(c)) {
        int flag = 0;
        while (!flag)
            MG_MPI_CHECK(MPI_Parrived(recv, p, &flag));
        MG_MPI_CHECK(MPI_Pready(p, send));
    }
}

/* Open MPI 5.0 (5.0.11 here): its part/persist component leaves partitioned
 * requests incomplete forever in two patterns, which MPICH 5.0.2 and Intel
 * MPI complete: two or more partitioned sends to the same rank at once
 * (bench/part_window.c hangs from W = 4) and a ping-pong of more than one
 * partition, a send and a receive active at once on each rank, when a rank
 * is preempted (bench/part_pingpong.c with the cores busy: 2 to 9 hangs in
 * 15 launches). Rather than hang, those runs exit 77 and say so. */
static int open_mpi_5_0(void) { return mg_mpi_library_is("Open MPI v5.0."); }

const char *mg_part_unsupported(const mg_ctx *c)
{
    if (mg_part(c)->p2p.window > 1 && open_mpi_5_0())
        return "Open MPI 5.0 does not complete more than one partitioned request at once "
               "between two ranks (it hangs: bench/part_window.c, doc/releases.md); use -W 1";
    return NULL;
}

const char *mg_part_pingpong_unsupported(const mg_ctx *c)
{
    if (mg_part_count(c) > 1 && open_mpi_5_0())
        return "Open MPI 5.0 can leave a partitioned ping-pong of more than one partition "
               "incomplete for ever when a rank is preempted (bench/part_pingpong.c, "
               "doc/releases.md); use -p 1";
    return NULL;
}
#else
void mg_part_init(mg_ctx *c, int k, int send, void *buf, int tag)
{
    (void)c, (void)k, (void)send, (void)buf, (void)tag;
}
void mg_part_ready(const mg_ctx *c, int member, MPI_Request r) { (void)c, (void)member, (void)r; }
void mg_part_arrived(const mg_ctx *c, int member, MPI_Request r) { (void)c, (void)member, (void)r; }
void mg_part_relay(const mg_ctx *c, int member, MPI_Request recv, MPI_Request send)
{
    (void)c, (void)member, (void)recv, (void)send;
}

const char *mg_part_unsupported(const mg_ctx *c)
{
    (void)c;
    return "partitioned communication needs MPI-4 (MPI_Psend_init, MPI_Pready, MPI_Parrived), "
           "which this MPI library lacks";
}

const char *mg_part_pingpong_unsupported(const mg_ctx *c) { return mg_part_unsupported(c); }
#endif

static void member(void *arg, int t)
{
    mg_part_state *s = arg;
    mg_ctx *c = s->c;
    double t0;
    mg_tpool_barrier(s->pool, t);
    t0 = MPI_Wtime();
    for (long i = 0; i < s->iters; ++i) {
        if (t == 0)
            s->start(c);
        mg_tpool_barrier(s->pool, t);
        s->step(c, t);
        mg_tpool_barrier(s->pool, t);
        if (t == 0)
            s->complete(c);
    }
    if (t == 0)
        s->loop_s = MPI_Wtime() - t0;
}

void mg_part_run(mg_ctx *c, long iters, mg_part_edge start, mg_part_step step,
                 mg_part_edge complete)
{
    mg_part_state *s = pst(c);
    s->c = c;
    s->iters = iters;
    s->start = start;
    s->step = step;
    s->complete = complete;
    mg_tpool_run(s->pool, member, s);
    c->sample_s += s->loop_s;
}

/* Partition p of rank r's message: a pattern of its own. */
static uint64_t part_seed(int rank, uint64_t size, int pass, int p)
{
    return mg_pattern_seed(rank, size, (uint64_t)pass) + (uint64_t)(p + 1) * 0x9E3779B97F4A7C15ull;
}

void mg_part_fill(mg_ctx *c, uint64_t size, int pass)
{
    for (int p = 0; p < mg_part_count(c); ++p) {
        mg_pattern_fill((char *)c->sbuf + (size_t)p * size, size,
                        part_seed(c->rank, size, pass, p));
        mg_pattern_poison((char *)c->rbuf + (size_t)p * size, size,
                          part_seed(c->peer, size, pass, p));
    }
}

int mg_part_verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen)
{
    const mg_part_state *s = pst(c);
    if (!s->receives)
        return 0;
    for (int p = 0; p < mg_part_count(c); ++p) {
        size_t bad = 0;
        const unsigned char *got = (const unsigned char *)c->rbuf + (size_t)p * size;
        uint64_t seed = part_seed(c->peer, size, pass, p);
        if (mg_pattern_check(got, size, seed, &bad) != 0) {
            snprintf(err, errlen,
                     "rank %d, partition size %llu, pass %d: partition %d of %d from rank %d: "
                     "first bad byte at offset %zu (expected 0x%02x, got 0x%02x)",
                     c->rank, (unsigned long long)size, pass, p, mg_part_count(c), c->peer, bad,
                     mg_pattern_byte(seed, bad), got[bad]);
            return -1;
        }
    }
    return 0;
}

void mg_part_describe(const mg_ctx *c, mg_kvlist *out)
{
    mg_kv_object(out, "partitioned");
    mg_kv_number(out, "partitions", (double)mg_part_count(c));
    mg_kv_number(out, "threads_per_rank", (double)mg_part(c)->threads);
    mg_kv_string(out, "size_is", "bytes per partition");
    mg_kv_string(out, "thread_level_provided", mg_thread_level_name(c->thread_provided));
    mg_kv_end(out);
}
