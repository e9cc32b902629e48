/* SPDX-License-Identifier: BSD-3-Clause */
/* libmgprofile's wrappers (mg_profile_calls.h): each MPI call it counts,
 * timed around the PMPI one, with its bytes as mg_profile.c defines them. */
#include "mg_profile_calls.h"

#define NOTYPE MPI_DATATYPE_NULL
#define SZ(comm) mg_pf_comm_size(comm)

/* A rank's block of an all-to-all or gather-like call: the send count, or
 * the receive count when the send buffer is MPI_IN_PLACE. */
static uint64_t block(const void *sendbuf, int scount, MPI_Datatype stype, int rcount,
                      MPI_Datatype rtype)
{
    return sendbuf == MPI_IN_PLACE ? mg_pf_bytes(rcount, rtype) : mg_pf_bytes(scount, stype);
}

/* Point-to-point. */
int MPI_Send(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    MG_PF_TIMED(SEND, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Send(b, n, t, dest, tag, c));
}
int MPI_Ssend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    MG_PF_TIMED(SSEND, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Ssend(b, n, t, dest, tag, c));
}
int MPI_Rsend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    MG_PF_TIMED(RSEND, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Rsend(b, n, t, dest, tag, c));
}
int MPI_Bsend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    MG_PF_TIMED(BSEND, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Bsend(b, n, t, dest, tag, c));
}
int MPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *st)
{
    MG_PF_TIMED(RECV, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Recv(b, n, t, src, tag, c, st));
}
int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int dest, int stag, void *rb, int rn,
                 MPI_Datatype rt, int src, int rtag, MPI_Comm c, MPI_Status *s)
{
    MG_PF_TIMED(SENDRECV, SZ(c), mg_pf_bytes(sn, st), NOTYPE,
                PMPI_Sendrecv(sb, sn, st, dest, stag, rb, rn, rt, src, rtag, c, s));
}
int MPI_Sendrecv_replace(void *b, int n, MPI_Datatype t, int dest, int stag, int src, int rtag,
                         MPI_Comm c, MPI_Status *s)
{
    MG_PF_TIMED(SENDRECV_REPLACE, SZ(c), mg_pf_bytes(n, t), NOTYPE,
                PMPI_Sendrecv_replace(b, n, t, dest, stag, src, rtag, c, s));
}
int MPI_Isend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    MG_PF_TIMED(ISEND, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Isend(b, n, t, dest, tag, c, r));
}
int MPI_Issend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    MG_PF_TIMED(ISSEND, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Issend(b, n, t, dest, tag, c, r));
}
int MPI_Irecv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *r)
{
    MG_PF_TIMED(IRECV, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Irecv(b, n, t, src, tag, c, r));
}

/* Completion and probes: no bytes, no communicator. */
int MPI_Wait(MPI_Request *r, MPI_Status *s) { MG_PF_TIMED(WAIT, 0, 0, NOTYPE, PMPI_Wait(r, s)); }
int MPI_Waitall(int n, MPI_Request r[], MPI_Status s[])
{
    MG_PF_TIMED(WAITALL, 0, 0, NOTYPE, PMPI_Waitall(n, r, s));
}
int MPI_Waitany(int n, MPI_Request r[], int *i, MPI_Status *s)
{
    MG_PF_TIMED(WAITANY, 0, 0, NOTYPE, PMPI_Waitany(n, r, i, s));
}
int MPI_Waitsome(int n, MPI_Request r[], int *k, int i[], MPI_Status s[])
{
    MG_PF_TIMED(WAITSOME, 0, 0, NOTYPE, PMPI_Waitsome(n, r, k, i, s));
}
int MPI_Test(MPI_Request *r, int *f, MPI_Status *s)
{
    MG_PF_TIMED(TEST, 0, 0, NOTYPE, PMPI_Test(r, f, s));
}
int MPI_Testall(int n, MPI_Request r[], int *f, MPI_Status s[])
{
    MG_PF_TIMED(TESTALL, 0, 0, NOTYPE, PMPI_Testall(n, r, f, s));
}
int MPI_Testany(int n, MPI_Request r[], int *i, int *f, MPI_Status *s)
{
    MG_PF_TIMED(TESTANY, 0, 0, NOTYPE, PMPI_Testany(n, r, i, f, s));
}
int MPI_Probe(int src, int tag, MPI_Comm c, MPI_Status *s)
{
    MG_PF_TIMED(PROBE, SZ(c), 0, NOTYPE, PMPI_Probe(src, tag, c, s));
}
int MPI_Iprobe(int src, int tag, MPI_Comm c, int *f, MPI_Status *s)
{
    MG_PF_TIMED(IPROBE, SZ(c), 0, NOTYPE, PMPI_Iprobe(src, tag, c, f, s));
}

/* Collectives. */
int MPI_Barrier(MPI_Comm c) { MG_PF_TIMED(BARRIER, SZ(c), 0, NOTYPE, PMPI_Barrier(c)); }
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    MG_PF_TIMED(BCAST, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Bcast(b, n, t, root, c));
}
int MPI_Reduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    MG_PF_TIMED(REDUCE, SZ(c), mg_pf_bytes(n, t), t, PMPI_Reduce(sb, rb, n, t, op, root, c));
}
int MPI_Allreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    MG_PF_TIMED(ALLREDUCE, SZ(c), mg_pf_bytes(n, t), t, PMPI_Allreduce(sb, rb, n, t, op, c));
}
int MPI_Scan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    MG_PF_TIMED(SCAN, SZ(c), mg_pf_bytes(n, t), t, PMPI_Scan(sb, rb, n, t, op, c));
}
int MPI_Exscan(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    MG_PF_TIMED(EXSCAN, SZ(c), mg_pf_bytes(n, t), t, PMPI_Exscan(sb, rb, n, t, op, c));
}
int MPI_Gather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, int root,
               MPI_Comm c)
{
    MG_PF_TIMED(GATHER, SZ(c), block(sb, sn, st, rn, rt), NOTYPE,
                PMPI_Gather(sb, sn, st, rb, rn, rt, root, c));
}
int MPI_Gatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int rn[], const int d[],
                MPI_Datatype rt, int root, MPI_Comm c)
{
    MG_PF_TIMED(GATHERV, SZ(c), mg_pf_bytes(sn, st), NOTYPE,
                PMPI_Gatherv(sb, sn, st, rb, rn, d, rt, root, c));
}
int MPI_Scatter(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                int root, MPI_Comm c)
{
    MG_PF_TIMED(SCATTER, SZ(c), mg_pf_bytes(rn, rt), NOTYPE,
                PMPI_Scatter(sb, sn, st, rb, rn, rt, root, c));
}
int MPI_Scatterv(const void *sb, const int sn[], const int d[], MPI_Datatype st, void *rb, int rn,
                 MPI_Datatype rt, int root, MPI_Comm c)
{
    MG_PF_TIMED(SCATTERV, SZ(c), mg_pf_bytes(rn, rt), NOTYPE,
                PMPI_Scatterv(sb, sn, d, st, rb, rn, rt, root, c));
}
int MPI_Allgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                  MPI_Comm c)
{
    MG_PF_TIMED(ALLGATHER, SZ(c), block(sb, sn, st, rn, rt), NOTYPE,
                PMPI_Allgather(sb, sn, st, rb, rn, rt, c));
}
int MPI_Allgatherv(const void *sb, int sn, MPI_Datatype st, void *rb, const int rn[], const int d[],
                   MPI_Datatype rt, MPI_Comm c)
{
    const int p = SZ(c);
    MG_PF_TIMED(ALLGATHERV, p, mg_pf_mean_bytes(rn, p, rt), NOTYPE,
                PMPI_Allgatherv(sb, sn, st, rb, rn, d, rt, c));
}
int MPI_Alltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                 MPI_Comm c)
{
    MG_PF_TIMED(ALLTOALL, SZ(c), block(sb, sn, st, rn, rt), NOTYPE,
                PMPI_Alltoall(sb, sn, st, rb, rn, rt, c));
}
int MPI_Alltoallv(const void *sb, const int sn[], const int sd[], MPI_Datatype st, void *rb,
                  const int rn[], const int rd[], MPI_Datatype rt, MPI_Comm c)
{
    const int p = SZ(c);
    MG_PF_TIMED(ALLTOALLV, p,
                sb == MPI_IN_PLACE ? mg_pf_mean_bytes(rn, p, rt) : mg_pf_mean_bytes(sn, p, st),
                NOTYPE, PMPI_Alltoallv(sb, sn, sd, st, rb, rn, rd, rt, c));
}
int MPI_Alltoallw(const void *sb, const int sn[], const int sd[], const MPI_Datatype st[], void *rb,
                  const int rn[], const int rd[], const MPI_Datatype rt[], MPI_Comm c)
{
    const int p = SZ(c);
    MG_PF_TIMED(ALLTOALLW, p, p > 0 ? mg_pf_mean_bytes(rn, p, rt[0]) : 0, NOTYPE,
                PMPI_Alltoallw(sb, sn, sd, st, rb, rn, rd, rt, c));
}
int MPI_Reduce_scatter(const void *sb, void *rb, const int rn[], MPI_Datatype t, MPI_Op op,
                       MPI_Comm c)
{
    const int p = SZ(c);
    MG_PF_TIMED(REDUCE_SCATTER, p, mg_pf_mean_bytes(rn, p, t), t,
                PMPI_Reduce_scatter(sb, rb, rn, t, op, c));
}
int MPI_Reduce_scatter_block(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    MG_PF_TIMED(REDUCE_SCATTER_BLOCK, SZ(c), mg_pf_bytes(n, t), t,
                PMPI_Reduce_scatter_block(sb, rb, n, t, op, c));
}

/* Non-blocking collectives: the time of the call that starts them (their
 * completion is the MPI_Wait or MPI_Test that ends them). */
int MPI_Ibarrier(MPI_Comm c, MPI_Request *r)
{
    MG_PF_TIMED(IBARRIER, SZ(c), 0, NOTYPE, PMPI_Ibarrier(c, r));
}
int MPI_Ibcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *r)
{
    MG_PF_TIMED(IBCAST, SZ(c), mg_pf_bytes(n, t), NOTYPE, PMPI_Ibcast(b, n, t, root, c, r));
}
int MPI_Ireduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c,
                MPI_Request *r)
{
    MG_PF_TIMED(IREDUCE, SZ(c), mg_pf_bytes(n, t), t, PMPI_Ireduce(sb, rb, n, t, op, root, c, r));
}
int MPI_Iallreduce(const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c,
                   MPI_Request *r)
{
    MG_PF_TIMED(IALLREDUCE, SZ(c), mg_pf_bytes(n, t), t, PMPI_Iallreduce(sb, rb, n, t, op, c, r));
}
int MPI_Iallgather(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                   MPI_Comm c, MPI_Request *r)
{
    MG_PF_TIMED(IALLGATHER, SZ(c), block(sb, sn, st, rn, rt), NOTYPE,
                PMPI_Iallgather(sb, sn, st, rb, rn, rt, c, r));
}
int MPI_Ialltoall(const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt,
                  MPI_Comm c, MPI_Request *r)
{
    MG_PF_TIMED(IALLTOALL, SZ(c), block(sb, sn, st, rn, rt), NOTYPE,
                PMPI_Ialltoall(sb, sn, st, rb, rn, rt, c, r));
}

/* One-sided: the message, no communicator size (a window's). */
int MPI_Put(const void *b, int n, MPI_Datatype t, int target, MPI_Aint d, int tn, MPI_Datatype tt,
            MPI_Win w)
{
    MG_PF_TIMED(PUT, 0, mg_pf_bytes(n, t), NOTYPE, PMPI_Put(b, n, t, target, d, tn, tt, w));
}
int MPI_Get(void *b, int n, MPI_Datatype t, int target, MPI_Aint d, int tn, MPI_Datatype tt,
            MPI_Win w)
{
    MG_PF_TIMED(GET, 0, mg_pf_bytes(n, t), NOTYPE, PMPI_Get(b, n, t, target, d, tn, tt, w));
}
int MPI_Accumulate(const void *b, int n, MPI_Datatype t, int target, MPI_Aint d, int tn,
                   MPI_Datatype tt, MPI_Op op, MPI_Win w)
{
    MG_PF_TIMED(ACCUMULATE, 0, mg_pf_bytes(n, t), t,
                PMPI_Accumulate(b, n, t, target, d, tn, tt, op, w));
}
int MPI_Fetch_and_op(const void *b, void *r, MPI_Datatype t, int target, MPI_Aint d, MPI_Op op,
                     MPI_Win w)
{
    MG_PF_TIMED(FETCH_AND_OP, 0, mg_pf_bytes(1, t), t,
                PMPI_Fetch_and_op(b, r, t, target, d, op, w));
}
int MPI_Compare_and_swap(const void *b, const void *cb, void *r, MPI_Datatype t, int target,
                         MPI_Aint d, MPI_Win w)
{
    MG_PF_TIMED(COMPARE_AND_SWAP, 0, mg_pf_bytes(1, t), NOTYPE,
                PMPI_Compare_and_swap(b, cb, r, t, target, d, w));
}
int MPI_Win_fence(int a, MPI_Win w) { MG_PF_TIMED(WIN_FENCE, 0, 0, NOTYPE, PMPI_Win_fence(a, w)); }
int MPI_Win_lock(int l, int rank, int a, MPI_Win w)
{
    MG_PF_TIMED(WIN_LOCK, 0, 0, NOTYPE, PMPI_Win_lock(l, rank, a, w));
}
int MPI_Win_unlock(int rank, MPI_Win w)
{
    MG_PF_TIMED(WIN_UNLOCK, 0, 0, NOTYPE, PMPI_Win_unlock(rank, w));
}
int MPI_Win_flush(int rank, MPI_Win w)
{
    MG_PF_TIMED(WIN_FLUSH, 0, 0, NOTYPE, PMPI_Win_flush(rank, w));
}

/* Communicators: counted, as they cost a collective each. */
int MPI_Comm_split(MPI_Comm c, int colour, int key, MPI_Comm *out)
{
    MG_PF_TIMED(COMM_SPLIT, SZ(c), 0, NOTYPE, PMPI_Comm_split(c, colour, key, out));
}
int MPI_Comm_dup(MPI_Comm c, MPI_Comm *out)
{
    MG_PF_TIMED(COMM_DUP, SZ(c), 0, NOTYPE, PMPI_Comm_dup(c, out));
}
