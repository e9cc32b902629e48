/* SPDX-License-Identifier: BSD-3-Clause */
/* Collective benchmarks: one ops table (collective/ops.c, ReproMPI's
 * collectives.c is the model) and one descriptor (collective/coll_*.c) run by
 * the shared driver, in one program (collective/main.c) installed under every
 * name: "allreduce" is the blocking call, "iallreduce" the non-blocking one,
 * "allreduce_init" the persistent one (MPI-4, where configure found it).
 * Adding an operation is one line of the ops table. Method and columns:
 * doc/collectives.md.
 */
#ifndef MG_COLL_BENCH_H
#define MG_COLL_BENCH_H

#include "mg_coll.h"
#include "mg_mpi.h"

#include <stdint.h>
#include <stdio.h>

/* How a call is made. */
enum { MG_FORM_BLOCKING = 0, MG_FORM_NONBLOCKING, MG_FORM_PERSISTENT };

/* Operation flags. */
enum {
    MG_COLL_ROOTED = 1 << 0,   /* has a root (--root) */
    MG_COLL_REDUCE = 1 << 1,   /* combines typed values with --op */
    MG_COLL_VECTOR = 1 << 2,   /* v-variant: unequal counts (mg_coll_vcount) */
    MG_COLL_NODATA = 1 << 3,   /* barrier */
    MG_COLL_SEND_P = 1 << 4,   /* the send buffer holds nranks blocks ... */
    MG_COLL_RECV_P = 1 << 5,   /* ... the receive buffer */
    MG_COLL_P_ROOT = 1 << 6,   /* ... only on the root (scatter, gather) */
    MG_COLL_SCATTER = 1 << 7,  /* block j goes to rank j (not the same block to all) */
    MG_COLL_SCAN = 1 << 8,     /* prefix over ranks 0..r (exscan: 0..r-1) */
    MG_COLL_EXCL = 1 << 9,     /* exscan */
    MG_COLL_IN_ALL = 1 << 10,  /* --in-place: MPI_IN_PLACE as the send buffer on all ranks */
    MG_COLL_IN_ROOT = 1 << 11, /* ... on the root: send (reduce, gather) or receive (scatter) */
    MG_COLL_ONEBUF = 1 << 12,  /* bcast: one buffer (rbuf) on every rank */
    MG_COLL_WTYPES = 1 << 13,  /* w-variant (alltoallw): displacements in bytes, a type per rank */
    MG_COLL_NEIGHBOR =
        1 << 14, /* neighbourhood: the blocks are the topology's neighbours (--topo) */
    /* reduce_local: no communication (rbuf = sbuf op rbuf on each rank),
     * blocking only (MPI has no MPI_Ireduce_local) */
    MG_COLL_LOCAL = 1 << 15
};

/* One call, everything resolved (slot, root, in-place, counts). */
typedef struct {
    int form;
    const void *sbuf;
    void *rbuf;
    /* elements per block (v-variants: this rank's count); above INT_MAX
     * (large, MPI-4 libraries) the operations that have them make the
     * large-count calls (MPI_Bcast_c ...), every other call gets an int */
    MPI_Count count;
    int large;
    MPI_Datatype dt;
    MPI_Op op;
    int root;
    MPI_Comm comm;
    const int *scounts, *sdispls, *rcounts, *rdispls; /* v-variants (w: displacements in bytes) */
    const MPI_Datatype *types;                        /* w-variants: every rank's type (dt) */
    const MPI_Aint *adispls; /* neighbor_alltoallw: sdispls as MPI_Aint (kept until the call
                              * completes: the non-blocking and persistent forms read them) */
    MPI_Request *req;
} mg_coll_args;

typedef struct {
    const char *name; /* "allreduce": MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init */
    unsigned flags;
    int (*call)(const mg_coll_args *a); /* returns the MPI error code */
    int bus;                            /* MG_BUS_* */
} mg_coll_op;

/* The table, terminated by an entry with name NULL. */
extern const mg_coll_op mg_coll_ops[];

/* The program: name as installed without "mpigauge_". An unknown name is a
 * usage error (exit 2), a persistent form the library lacks exit 77. */
int mg_coll_main(const char *name, int argc, char **argv);

/* Every name, one per line: each operation blocking, non-blocking ("i"
 * first) and, where the library has them, persistent ("_init" last). */
void mg_coll_list_names(FILE *f);

#endif
