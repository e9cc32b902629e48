/* SPDX-License-Identifier: BSD-3-Clause */
/* Rail groups (mg_mr.h): the command rings between a group's benchmark rank
 * and its helpers, the helpers' serve loop, the shared buffers, the end. */
#include "mg_mr.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Keep MPI progressing while a process waits on shared memory: a finished
 * rendezvous may still owe its peer an acknowledgement (MPICH over UCX). */
static void progress(mg_rails *R)
{
    int flag;
    MG_MPI_CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, R->rail_comm, &flag, MPI_STATUS_IGNORE));
}

void mg_mr_relax(mg_rails *R, unsigned long *spins)
{
    if (R->rail_comm != MPI_COMM_NULL)
        progress(R);
    if (++*spins < 64)
        return;
    if (*spins < 20000) {
        sched_yield();
    } else {
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
    }
}

/* The command rings, in a shared window allocated by the benchmark rank:
 * ring j - 1 for member j. */
void mg_mr_make_rings(mg_rails *R)
{
    MPI_Aint size = R->member == 0 ? (MPI_Aint)(R->k - 1) * (MPI_Aint)sizeof(rail_ring) : 0;
    MPI_Aint qsize;
    int disp;
    void *base;

    MG_MPI_CHECK(MPI_Win_allocate_shared(size, 64, MPI_INFO_NULL, R->group, &base, &R->ctl_win));
    MG_MPI_CHECK(MPI_Win_shared_query(R->ctl_win, 0, &qsize, &disp, &base));
    R->rings = base;
    if (R->member == 0)
        for (int j = 0; j < R->k - 1; ++j) {
            atomic_init(&R->rings[j].head, 0);
            atomic_init(&R->rings[j].tail, 0);
            atomic_init(&R->rings[j].done, 0);
        }
    MG_MPI_CHECK(MPI_Barrier(R->group));
}

int mg_multirail_serve(mg_rails *R)
{
    rail_ring *ring = &R->rings[R->member - 1];
    MPI_Request *reqs = NULL;
    int nreq = 0, cap = 0, rc = 0;
    unsigned long spins = 0;

    for (;;) {
        uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
        rail_cmd c;
        if (atomic_load_explicit(&ring->head, memory_order_acquire) == tail) {
            if (nreq > 0) { /* progress what is posted */
                int flag;
                flag = mg_xfer_testall(nreq, reqs);
                if (flag)
                    nreq = 0;
            }
            mg_mr_relax(R, &spins);
            continue;
        }
        spins = 0;
        c = ring->cmd[tail % RING];
        atomic_store_explicit(&ring->tail, tail + 1, memory_order_release);
        if (c.op == OP_STOP) {
            rc = (int)c.off;
            break;
        }
        switch (c.op) {
        case OP_ISEND:
        case OP_IRECV:
            if (nreq == cap) {
                cap = cap ? 2 * cap : 256;
                reqs = realloc(reqs, (size_t)cap * sizeof *reqs);
                if (reqs == NULL)
                    mg_mpi_die(__FILE__, __LINE__, "out of memory");
            }
            mg_xfer_post_comm(c.op == OP_ISEND, R->rail_comm, R->win_base[c.win] + c.off,
                              (size_t)c.len, c.peer, c.tag, &reqs[nreq++]);
            break;
        case OP_WAIT:
            if (nreq > 0)
                mg_mpi_waitall(nreq, reqs);
            nreq = 0;
            atomic_fetch_add_explicit(&ring->done, 1, memory_order_release);
            break;
        case OP_ALLOC: {
            MPI_Aint qsize;
            int disp;
            void *base;
            MG_MPI_CHECK(
                MPI_Win_allocate_shared(0, 1, MPI_INFO_NULL, R->group, &base, &R->wins[c.win]));
            MG_MPI_CHECK(MPI_Win_shared_query(R->wins[c.win], 0, &qsize, &disp, &base));
            R->win_base[c.win] = base;
            R->win_size[c.win] = (size_t)qsize;
            R->nwins = c.win + 1;
            break;
        }
        default: mg_mpi_die(__FILE__, __LINE__, "rail helper: unknown command");
        }
    }
    free(reqs);
    mg_multirail_finish(R, rc);
    return rc;
}

void mg_mr_push(mg_rails *R, int member, const rail_cmd *c)
{
    rail_ring *ring = &R->rings[member - 1];
    uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    unsigned long spins = 0;
    while (head - atomic_load_explicit(&ring->tail, memory_order_acquire) >= RING)
        mg_mr_relax(R, &spins);
    ring->cmd[head % RING] = *c;
    atomic_store_explicit(&ring->head, head + 1, memory_order_release);
}

void *mg_multirail_alloc(mg_rails *R, size_t bytes)
{
    rail_cmd c;
    void *base;
    if (R == NULL || !R->groups || R->member != 0)
        return mg_buf_alloc(bytes);
    if (R->nwins == MAX_WINS)
        mg_mpi_die(__FILE__, __LINE__, "too many rail windows");
    memset(&c, 0, sizeof c);
    c.op = OP_ALLOC;
    c.win = R->nwins;
    c.len = bytes;
    for (int j = 1; j < R->k; ++j)
        mg_mr_push(R, j, &c);
    if (bytes < 4096)
        bytes = 4096;
    MG_MPI_CHECK(MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, R->group, &base,
                                         &R->wins[R->nwins]));
    memset(base, 0, bytes);
    R->win_base[R->nwins] = base;
    R->win_size[R->nwins] = bytes;
    R->nwins++;
    return base;
}

void mg_multirail_free(mg_rails *R, void *p)
{
    for (int w = 0; R != NULL && w < R->nwins; ++w)
        if (R->groups && p == R->win_base[w])
            return; /* freed with the group in mg_multirail_finish */
    mg_buf_free(p);
}

void mg_multirail_finish(mg_rails *R, int rc)
{
    if (R == NULL || !R->on)
        return;
    if (R->groups) {
        if (R->member == 0) {
            rail_cmd c;
            memset(&c, 0, sizeof c);
            c.op = OP_STOP;
            c.off = (uint64_t)rc;
            for (int j = 1; j < R->k; ++j)
                mg_mr_push(R, j, &c);
        }
        for (int w = 0; w < R->nwins; ++w)
            MG_MPI_CHECK(MPI_Win_free(&R->wins[w]));
        MG_MPI_CHECK(MPI_Win_free(&R->ctl_win));
        MG_MPI_CHECK(MPI_Comm_free(&R->group));
        MG_MPI_CHECK(MPI_Comm_free(&R->rail_comm));
    }
    for (int r = 0; r < R->k; ++r)
        if (R->comm[r] != MPI_COMM_NULL)
            MG_MPI_CHECK(MPI_Comm_free(&R->comm[r]));
    free(R->peer_world);
    free(R->extra);
    free(R->map);
    R->on = 0;
}
