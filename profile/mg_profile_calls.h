/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI calls libmgprofile counts (mg_profile.c, mg_profile_wrap.c): an
 * X-macro of (id, name), the name as the profile records it. */
#ifndef MG_PROFILE_CALLS_H
#define MG_PROFILE_CALLS_H

#include <mpi.h>
#include <stdint.h>

#define MG_PF_CALLS(X)                                                                             \
    X(SEND, "MPI_Send")                                                                            \
    X(SSEND, "MPI_Ssend")                                                                          \
    X(RSEND, "MPI_Rsend")                                                                          \
    X(BSEND, "MPI_Bsend")                                                                          \
    X(RECV, "MPI_Recv")                                                                            \
    X(SENDRECV, "MPI_Sendrecv")                                                                    \
    X(SENDRECV_REPLACE, "MPI_Sendrecv_replace")                                                    \
    X(ISEND, "MPI_Isend")                                                                          \
    X(ISSEND, "MPI_Issend")                                                                        \
    X(IRECV, "MPI_Irecv")                                                                          \
    X(WAIT, "MPI_Wait")                                                                            \
    X(WAITALL, "MPI_Waitall")                                                                      \
    X(WAITANY, "MPI_Waitany")                                                                      \
    X(WAITSOME, "MPI_Waitsome")                                                                    \
    X(TEST, "MPI_Test")                                                                            \
    X(TESTALL, "MPI_Testall")                                                                      \
    X(TESTANY, "MPI_Testany")                                                                      \
    X(PROBE, "MPI_Probe")                                                                          \
    X(IPROBE, "MPI_Iprobe")                                                                        \
    X(BARRIER, "MPI_Barrier")                                                                      \
    X(BCAST, "MPI_Bcast")                                                                          \
    X(REDUCE, "MPI_Reduce")                                                                        \
    X(ALLREDUCE, "MPI_Allreduce")                                                                  \
    X(GATHER, "MPI_Gather")                                                                        \
    X(GATHERV, "MPI_Gatherv")                                                                      \
    X(SCATTER, "MPI_Scatter")                                                                      \
    X(SCATTERV, "MPI_Scatterv")                                                                    \
    X(ALLGATHER, "MPI_Allgather")                                                                  \
    X(ALLGATHERV, "MPI_Allgatherv")                                                                \
    X(ALLTOALL, "MPI_Alltoall")                                                                    \
    X(ALLTOALLV, "MPI_Alltoallv")                                                                  \
    X(ALLTOALLW, "MPI_Alltoallw")                                                                  \
    X(REDUCE_SCATTER, "MPI_Reduce_scatter")                                                        \
    X(REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block")                                            \
    X(SCAN, "MPI_Scan")                                                                            \
    X(EXSCAN, "MPI_Exscan")                                                                        \
    X(IBARRIER, "MPI_Ibarrier")                                                                    \
    X(IBCAST, "MPI_Ibcast")                                                                        \
    X(IREDUCE, "MPI_Ireduce")                                                                      \
    X(IALLREDUCE, "MPI_Iallreduce")                                                                \
    X(IALLGATHER, "MPI_Iallgather")                                                                \
    X(IALLTOALL, "MPI_Ialltoall")                                                                  \
    X(PUT, "MPI_Put")                                                                              \
    X(GET, "MPI_Get")                                                                              \
    X(ACCUMULATE, "MPI_Accumulate")                                                                \
    X(FETCH_AND_OP, "MPI_Fetch_and_op")                                                            \
    X(COMPARE_AND_SWAP, "MPI_Compare_and_swap")                                                    \
    X(WIN_FENCE, "MPI_Win_fence")                                                                  \
    X(WIN_LOCK, "MPI_Win_lock")                                                                    \
    X(WIN_UNLOCK, "MPI_Win_unlock")                                                                \
    X(WIN_FLUSH, "MPI_Win_flush")                                                                  \
    X(COMM_SPLIT, "MPI_Comm_split")                                                                \
    X(COMM_DUP, "MPI_Comm_dup")

enum {
#define MG_PF_ID(id, name) MG_PF_##id,
    MG_PF_CALLS(MG_PF_ID)
#undef MG_PF_ID
        MG_PF_NCALLS
};

/* mg_profile.c: the clock, the table, bytes of a count of a type. */
double mg_pf_now(void);
const char *mg_pf_call_name(int call);
/* One call: its kind, communicator size (0: none, as a window's), bytes,
 * the type of a reduction (MPI_DATATYPE_NULL: not one) and its time. */
void mg_pf_add(int call, int comm_size, uint64_t bytes, MPI_Datatype rtype, double seconds);
int mg_pf_comm_size(MPI_Comm comm);
uint64_t mg_pf_bytes(int count, MPI_Datatype t);
uint64_t mg_pf_mean_bytes(const int *counts, int n, MPI_Datatype t);

/* A wrapper's body: the call timed and counted, its return code returned. */
#define MG_PF_TIMED(id, comm_size, bytes, rtype, call)                                             \
    do {                                                                                           \
        const int size_ = (comm_size);                                                             \
        const uint64_t bytes_ = (bytes);                                                           \
        const double t0_ = mg_pf_now();                                                            \
        const int rc_ = (call);                                                                    \
        mg_pf_add(MG_PF_##id, size_, bytes_, (rtype), mg_pf_now() - t0_);                          \
        return rc_;                                                                                \
    } while (0)

#endif
