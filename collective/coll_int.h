/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal to the collective programs (mg_collective.h): the parameters
 * and per-size state of the one descriptor, and what its files share.
 *
 *   coll_kernel.c  buffers, counts, arguments of one call, the timed loop
 *   coll_verify.c  validation: data movement and reductions, value by value
 *   coll_bench.c   options, checks, variants, extras; the descriptor
 */
#ifndef MG_COLL_INT_H
#define MG_COLL_INT_H

#include "mg_collective.h"
#include "mg_graph.h"
#include "mg_driver.h"

#include <stdint.h>

enum { ROOT_ROTATE = -1, MAX_SLOTS = 64, PAGE = 4096, MAX_DIMS = 8, MG_COLL_MAX_SWEEP = 256 };
enum { K_NONE, K_BCAST, K_SCATTER, K_GATHER, K_ALLGATHER, K_ALLTOALL, K_REDUCE };
enum { PURE = 0, OVERLAP = 1 };

typedef struct {
    const mg_coll_op *op; /* from the program's name */
    int form;
    const char *root_spec; /* --root */
    int type, red;         /* -T, --op (-1: not given) */
    int in_place, off_cache;
    long tests; /* -t */
    long root;  /* resolved by check: rank, or ROOT_ROTATE */
    const char *topo_spec; /* --topo (neighbourhood collectives) */
    int ndims;             /* resolved by check: the Cartesian grid's dimensions ... */
    int dims[MAX_DIMS];    /* ... and their sizes (0: MPI_Dims_create chooses) */
    int is_graph;          /* --topo graph:FILE, read into graph by check */
    mg_graph graph;
    const char *ranks_spec; /* --ranks-sweep */
    int nsweep;             /* resolved by check: the rank counts, in order */
    long sweep[MG_COLL_MAX_SWEEP];
} coll_params;

typedef struct {
    unsigned long long calls; /* calls so far: picks the slot and the rotating root */
    int slots;
    size_t sstride, rstride; /* bytes between slots */
    int *counts, *displs;    /* v-variants, in elements (w-variants: displs in bytes) */
    MPI_Datatype *types;     /* w-variants: dt for every rank */
    MPI_Aint *adispls;       /* w-variants: displs as MPI_Aint (neighbor_alltoallw) */
    MPI_Request req, preq[MAX_SLOTS];
    int npreq;
    MPI_Comm topo;          /* neighbourhood: the periodic Cartesian communicator */
    MPI_Comm subs[MG_COLL_MAX_SWEEP]; /* --ranks-sweep: ranks 0..n-1 of each count n
                                       * (MPI_COMM_NULL on the ranks left out) */
    int nbr[2 * MAX_DIMS];  /* its neighbours in MPI's order (per dimension: -1, +1) */
    double comp_s; /* timed computation (overlap phase) */
    long comp_n;
    uint64_t sink;
} coll_state;

static inline const coll_params *prm(const mg_ctx *c) { return c->params; }
static inline coll_state *state(const mg_ctx *c) { return c->state; }
static inline unsigned flags(const mg_ctx *c) { return prm(c)->op->flags; }
/* --ranks-sweep: the variant is the rank count n, and the collective runs
 * on ranks 0..n-1 (their ranks unchanged); the others sit the call out. */
static inline int mg_coll_sweeping(const mg_ctx *c) { return prm(c)->nsweep > 0; }
static inline int csize(const mg_ctx *c)
{
    return mg_coll_sweeping(c) ? (int)c->variant : c->nranks;
}
static inline int cidle(const mg_ctx *c) { return mg_coll_sweeping(c) && c->rank >= c->variant; }
static inline size_t esize(const mg_ctx *c) { return mg_elem_size((mg_elem_type)prm(c)->type); }

int mg_coll_kind(unsigned f);
MPI_Datatype mg_coll_datatype(int t);
MPI_Op mg_coll_reduction(int r);
int mg_coll_root_of(const mg_ctx *c, unsigned long long call);
int mg_coll_in_place_here(const mg_ctx *c, int root);
size_t mg_coll_buf_bytes(const mg_ctx *c, uint64_t max_size);
size_t mg_coll_rbuf_bytes(const mg_ctx *c, uint64_t max_size);
void mg_coll_make_counts(mg_ctx *c, uint64_t size);
void mg_coll_free_counts(coll_state *s);
void mg_coll_begin_size(mg_ctx *c, uint64_t size);
void mg_coll_end_size(mg_ctx *c, uint64_t size);
void mg_coll_iterate(mg_ctx *c, uint64_t size, long iters);
void mg_coll_fill(mg_ctx *c, uint64_t size, int pass);
int mg_coll_verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen);

/* Neighbourhood collectives (coll_neighbor.c): blocks per call (the
 * neighbours, or the ranks), --topo parsed, the grid made and freed. */
int mg_coll_blocks(const mg_ctx *c);
int mg_coll_block_rank(const mg_ctx *c, int k);
/* Neighbourhood: the index of this rank's block j at its neighbour (the
 * block that neighbour sent it), and the other block of the same
 * neighbour on the opposite side of a Cartesian dimension (-1: none). */
int mg_coll_sender_block(const mg_ctx *c, int j);
int mg_coll_twin_block(const mg_ctx *c, int j);
int mg_coll_topo_check(const mg_ctx *c, coll_params *p, char *err, size_t errlen);
void mg_coll_topo_setup(mg_ctx *c, uint64_t max_size);
void mg_coll_topo_teardown(mg_ctx *c);
void mg_coll_describe(const mg_ctx *c, mg_kvlist *out);

/* --ranks-sweep (coll_sweep.c): the counts parsed and checked, the
 * sub-communicators made and freed, the form that sweeps. */
int mg_coll_sweep_check(const mg_ctx *c, coll_params *p, char *err, size_t errlen);
const struct mg_bench *mg_coll_sweep_form(const struct mg_bench *b);

#endif
