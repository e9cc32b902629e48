/* SPDX-License-Identifier: BSD-3-Clause */
/* The timed loops of the RMA programs (rma.h): one iteration is one access
 * phase (two for the ping-pong latency of fence and pscw) in the chosen
 * synchronisation mode, OSU's meanings:
 *
 *   lock         per target: MPI_Win_lock(shared), W operations, MPI_Win_unlock
 *   lock_all     MPI_Win_lock_all, W operations per target, MPI_Win_unlock_all
 *   flush        W operations per target, MPI_Win_flush (the targets locked,
 *                shared, around each size: not timed)
 *   flush_local  the same with MPI_Win_flush_local (local completion only)
 *   fence        MPI_Win_fence, the operations, MPI_Win_fence (every rank)
 *   pscw         targets MPI_Win_post ... MPI_Win_wait, origins
 *                MPI_Win_start ... MPI_Win_complete
 *
 * Latency in fence and pscw is a ping-pong (rank 0 accesses rank 1, then
 * rank 1 rank 0; the driver halves the time), as OSU does; in the passive
 * modes rank 0 alone works and rank 1 waits in the driver's next call.
 */
#include "rma.h"

#include "mg_mpi.h"

#include <limits.h>

/* Put or get of more than INT_MAX bytes: one element of a derived type of
 * exactly that many bytes, with both libraries. MPI-4's MPI_Put_c and
 * MPI_Get_c crash MPICH 4.0.2 (ch4:ucx) above 2 GiB (a segmentation fault
 * in UCX's shared-memory transport, reproduced without mpigauge), while the
 * derived type moves the same bytes correctly (doc/onesided.md). */
static void put_get_large(int get, void *obuf, size_t bytes, int t, MPI_Aint disp, MPI_Win win)
{
    MPI_Datatype dt = mg_mpi_bytes_type(bytes);
    if (get)
        MG_MPI_CHECK(MPI_Get(obuf, 1, dt, t, disp, 1, dt, win));
    else
        MG_MPI_CHECK(MPI_Put(obuf, 1, dt, t, disp, 1, dt, win));
    MG_MPI_CHECK(MPI_Type_free(&dt));
}

/* One operation of `size` bytes to target t, slot `slot` (rma_win.c). */
static inline void issue(mg_ctx *c, uint64_t size, int t, int slot)
{
    rma_state *s = rstate(c);
    const MPI_Aint at = s->disp0[t];
    const MPI_Datatype dt = s->dt;
    const int count = s->count;
    char *res = (char *)c->rbuf;

    switch (rprm(c)->prog->op) {
    case RMA_PUT:
        if (size > (uint64_t)INT_MAX)
            put_get_large(0, c->sbuf, size, t, at + (MPI_Aint)slot * (MPI_Aint)s->slot_bytes,
                          s->win);
        else
            MG_MPI_CHECK(MPI_Put(c->sbuf, count, MPI_BYTE, t,
                                 at + (MPI_Aint)slot * (MPI_Aint)s->slot_bytes, count, MPI_BYTE,
                                 s->win));
        break;
    case RMA_GET:
        res += (size_t)slot * s->slot_bytes;
        if (size > (uint64_t)INT_MAX)
            put_get_large(1, res, size, t, at, s->win);
        else
            MG_MPI_CHECK(MPI_Get(res, count, MPI_BYTE, t, at, count, MPI_BYTE, s->win));
        break;
    case RMA_ACC:
        MG_MPI_CHECK(MPI_Accumulate(c->sbuf, count, dt, t, at, count, dt, s->op, s->win));
        break;
    case RMA_GACC:
        MG_MPI_CHECK(MPI_Get_accumulate(c->sbuf, count, dt, res, count, dt, t, at, count, dt, s->op,
                                        s->win));
        break;
    case RMA_FOP: MG_MPI_CHECK(MPI_Fetch_and_op(c->sbuf, res, dt, t, at, s->op, s->win)); break;
    default: MG_MPI_CHECK(MPI_Compare_and_swap(c->sbuf, s->cmp, res, dt, t, at, s->win));
    }
}

/* One access phase of role r: W operations to every target, in the mode's
 * epoch. open_fence 0: the previous phase's closing fence opened this one. */
static void access_phase(mg_ctx *c, const rma_role *r, uint64_t size, long w, int open_fence)
{
    const MPI_Win win = rstate(c)->win;
    const int sync = rprm(c)->sync;

    if (sync == SYNC_LOCK_ALL && r->ntargets)
        MG_MPI_CHECK(MPI_Win_lock_all(0, win));
    else if (sync == SYNC_FENCE && open_fence)
        MG_MPI_CHECK(MPI_Win_fence(0, win));
    else if (sync == SYNC_PSCW) {
        if (r->norigins)
            MG_MPI_CHECK(MPI_Win_post(r->ogroup, 0, win));
        if (r->ntargets)
            MG_MPI_CHECK(MPI_Win_start(r->tgroup, 0, win));
    }
    for (int i = 0; i < r->ntargets; ++i) {
        const int t = r->targets[i];
        if (sync == SYNC_LOCK)
            MG_MPI_CHECK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        for (long k = 0; k < w; ++k)
            issue(c, size, t, r->tslot[i]);
        if (sync == SYNC_LOCK)
            MG_MPI_CHECK(MPI_Win_unlock(t, win));
        else if (sync == SYNC_FLUSH)
            MG_MPI_CHECK(MPI_Win_flush(t, win));
        else if (sync == SYNC_FLUSH_LOCAL)
            MG_MPI_CHECK(MPI_Win_flush_local(t, win));
    }
    if (sync == SYNC_LOCK_ALL && r->ntargets)
        MG_MPI_CHECK(MPI_Win_unlock_all(win));
    else if (sync == SYNC_FENCE)
        MG_MPI_CHECK(MPI_Win_fence(0, win));
    else if (sync == SYNC_PSCW) {
        if (r->ntargets)
            MG_MPI_CHECK(MPI_Win_complete(win));
        if (r->norigins)
            MG_MPI_CHECK(MPI_Win_wait(win));
    }
}

static long ops_per_epoch(const mg_ctx *c)
{
    const int pat = rprm(c)->prog->pattern;
    return pat == PAT_BW || pat == PAT_BIBW || pat == PAT_MR ? rprm(c)->window : 1;
}

void mg_rma_iterate(mg_ctx *c, uint64_t size, long iters)
{
    rma_state *s = rstate(c);
    const long w = ops_per_epoch(c);
    if (s->nphases == 2) {
        for (long i = 0; i < iters; ++i) {
            access_phase(c, &s->role[0], size, w, 1);
            access_phase(c, &s->role[1], size, w, 0);
        }
        return;
    }
    for (long i = 0; i < iters; ++i)
        access_phase(c, &s->role[0], size, w, 1);
}

/* Lock (or unlock) every target of phase 0 once (exchange on 2 ranks lists
 * its one neighbour twice). */
static void lock_targets(const mg_ctx *c, int lock)
{
    const rma_state *s = rstate(c);
    const rma_role *r = &s->role[0];
    for (int i = 0; i < r->ntargets; ++i) {
        int seen = 0;
        for (int j = 0; j < i; ++j)
            seen |= r->targets[j] == r->targets[i];
        if (seen)
            continue;
        if (lock)
            MG_MPI_CHECK(MPI_Win_lock(MPI_LOCK_SHARED, r->targets[i], 0, s->win));
        else
            MG_MPI_CHECK(MPI_Win_unlock(r->targets[i], s->win));
    }
}

/* flush, flush_local: the targets stay locked (shared) for a whole size. */
void mg_rma_begin_size(mg_ctx *c, uint64_t size)
{
    rma_state *s = rstate(c);
    const int sync = rprm(c)->sync;
    (void)size;
    s->timed = s->arrived = 0;
    s->count = (int)(size <= (uint64_t)INT_MAX ? size / mg_rma_esize(c) : 0);
    s->dt = mg_rma_datatype(c);
    s->op = mg_rma_op(c);
    if (sync == SYNC_FLUSH || sync == SYNC_FLUSH_LOCAL)
        lock_targets(c, 1);
}

/* ... unlocked after it; then every rank waits for the others, so a target
 * reads its window only after every origin's epoch has ended. */
void mg_rma_end_size(mg_ctx *c, uint64_t size)
{
    const int sync = rprm(c)->sync;
    (void)size;
    if (sync == SYNC_FLUSH || sync == SYNC_FLUSH_LOCAL)
        lock_targets(c, 0);
    MG_MPI_CHECK(MPI_Barrier(c->comm));
}

enum { TAG_GO = 21, TAG_DONE = 22 };

static double delay_s(const mg_ctx *c)
{
    if (c->variant_index == 0)
        return 0.0;
    return rprm(c)->relative ? (double)c->variant / 100.0 * c->ref_s : (double)c->variant * 1e-6;
}

/* rma_progress, rank 0: after rank 1's go, one put of `size` bytes completed
 * at the target (the mode's epoch), timed; then done to rank 1. */
static void progress_origin(mg_ctx *c, uint64_t size)
{
    rma_state *s = rstate(c);
    char token = 0;
    double t0;
    mg_xfer_recv(&c->xfer, &token, 0, 1, TAG_GO);
    if (size && !c->validating)
        ((unsigned char *)c->sbuf)[size - 1] = s->marker;
    t0 = MPI_Wtime();
    access_phase(c, &s->role[0], size, 1, 1);
    c->sample_s += MPI_Wtime() - t0;
    mg_xfer_send(&c->xfer, &token, 0, 1, TAG_DONE);
}

/* rma_progress, rank 1: marks its window, says go, computes for d without
 * entering MPI while watching whether the put's last byte has landed, then
 * waits in MPI_Recv for rank 0's done (the first MPI call after the go). */
static void progress_target(mg_ctx *c, uint64_t size, double d)
{
    rma_state *s = rstate(c);
    volatile unsigned char *last = (unsigned char *)s->base + (size ? size - 1 : 0);
    char token = 0;
    int seen = 0;
    if (size && !c->validating)
        *last = (unsigned char)~s->marker;
    mg_xfer_send(&c->xfer, &token, 0, 0, TAG_GO);
    for (double done = 0.0; done < d; done += 1e-6) {
        s->sink += mg_ctx_compute(c, d - done < 1e-6 ? d - done : 1e-6, 0.0, NULL, 0);
        seen = seen || (size > 0 && *last == s->marker);
    }
    if (c->timed && size) {
        s->timed++;
        s->arrived += seen;
    }
    mg_xfer_recv(&c->xfer, &token, 0, 0, TAG_DONE);
}

void mg_rma_progress_iterate(mg_ctx *c, uint64_t size, long iters)
{
    rma_state *s = rstate(c);
    const double d = delay_s(c);
    for (long i = 0; i < iters; ++i) {
        if (c->rank == 0)
            progress_origin(c, size);
        else
            progress_target(c, size, d);
        s->marker = (unsigned char)(s->marker * 5 + 3);
    }
}
