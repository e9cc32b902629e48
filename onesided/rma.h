/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided communication (RMA): one program, mpigauge_rma, installed under
 * every name of its table (put_latency, get_bw, fop_latency, put_all, ...) as
 * links, like the collectives. Method, modes and this machine's tables:
 * doc/onesided.md.
 *
 *   rma_bench.c   the program table, options, checks, the descriptor
 *   rma_win.c     the window (four flavours), its roles and groups, the
 *                 run record's description of it
 *   rma_kernel.c  epochs in each synchronisation mode and the timed loops
 *   rma_verify.c  validation (-c): data, accumulates and atomics
 *
 * The window is made once, over the largest size, before the run record
 * (kernel.setup) and freed after the sweep; every size uses its start.
 */
#ifndef MG_RMA_H
#define MG_RMA_H

#include "mg_bench.h"
#include "mg_coll.h"

#include <stdint.h>
#include <stdio.h>

/* The operation a program times. */
enum { RMA_PUT = 0, RMA_GET, RMA_ACC, RMA_GACC, RMA_FOP, RMA_CAS };

/* Who accesses whom. */
enum {
    PAT_LAT = 0, /* ranks 0 and 1: one operation per epoch (ping-pong in fence and pscw) */
    PAT_BW,      /* rank 0 issues W operations per epoch to rank 1 */
    PAT_BIBW,    /* ranks 0 and 1 both issue W operations per epoch to the other */
    PAT_MR,      /* pairs (--pairing): the lower rank of each issues W per epoch */
    PAT_ALL,     /* one (rank 0) or every rank accesses every other rank */
    PAT_EXCH,    /* every rank accesses both neighbours of a periodic chain */
    PAT_PROGRESS /* rank 0 puts while rank 1 computes outside MPI */
};

/* -w: window flavours; -s: synchronisation modes (OSU's names). */
enum { WIN_CREATE = 0, WIN_ALLOCATE, WIN_DYNAMIC, WIN_SHARED };
enum { SYNC_LOCK = 0, SYNC_LOCK_ALL, SYNC_FLUSH, SYNC_FLUSH_LOCAL, SYNC_FENCE, SYNC_PSCW };
#define SYNC_ALL 0x3fu
#define SYNC_PASSIVE ((1u << SYNC_LOCK) | (1u << SYNC_LOCK_ALL) | (1u << SYNC_FLUSH))

/* --op of the accumulates: the reductions of mg_coll.h, then these two. */
enum { RED_REPLACE = 4, RED_NO_OP = 5 };

extern const char *const mg_rma_win_names[];
extern const char *const mg_rma_sync_names[];

typedef struct {
    const char *name; /* "put_latency": mpigauge_put_latency */
    int op, pattern;
    unsigned modes; /* the -s modes that apply (bits of SYNC_*) */
    const char *what;
} rma_prog;

extern const rma_prog mg_rma_progs[]; /* terminated by a NULL name */

typedef struct {
    const rma_prog *prog;
    int win, sync; /* -w, -s (-1: the program's default) */
    long window;   /* -W: operations per epoch */
    int type, red; /* -T, --op (-1: not given) */
    int pairing;   /* --pairing (put_mr, get_mr) */
    int origins;   /* --origins one|all (put_all, get_all) */
    mg_list delays;
    int relative;
    double test_interval_us; /* not an option: rma_progress's target never calls MPI */
} rma_params;

enum {
    ROLE_MAX = 2,
    RMA_INFO_MAX = 24,
    RMA_INFO_LEN = 64
}; /* phases of an iteration: ping and pong */

/* This rank's part in one phase of an iteration: whom it accesses (with the
 * slot it writes there or reads into here) and who accesses it. */
typedef struct {
    int ntargets, norigins;
    int *targets, *tslot;     /* target rank; slot at the target (puts) or here (gets) */
    int *origins, *oslot;     /* origin rank; its slot in this rank's window */
    MPI_Group tgroup, ogroup; /* pscw: start and post groups (MPI_GROUP_NULL: none) */
} rma_role;

typedef struct {
    MPI_Win win;
    void *base;       /* this rank's window memory */
    size_t win_bytes; /* its size */
    MPI_Aint *disp0;  /* per rank: displacement of that rank's window start */
    int nphases;      /* 1, or 2 for ping-pong */
    rma_role role[ROLE_MAX];
    int model, flavor; /* what the library reports (MPI_WIN_MODEL, MPI_WIN_CREATE_FLAVOR) */
    char info[RMA_INFO_MAX][RMA_INFO_LEN]; /* the window's info keys, "key=value" */
    int ninfo;
    size_t slot_bytes; /* bytes between slots: the largest size */
    int count;         /* this size's elements, datatype and operation (begin_size: */
    MPI_Datatype dt;   /* not looked up again inside the timed loop) */
    MPI_Op op;
    unsigned char cmp[16]; /* cas: the compare value */
    uint64_t sink;
    unsigned char marker; /* rma_progress: last byte of the next put */
    long timed, arrived;  /* rma_progress, rank 1: timed iterations; put seen during the delay */
} rma_state;

static inline const rma_params *rprm(const mg_ctx *c) { return c->params; }
static inline rma_state *rstate(const mg_ctx *c) { return c->state; }

/* Slots of the window (puts land in one slot per origin) and of rbuf (gets
 * read one slot per target) for this pattern. */
int mg_rma_win_slots(const mg_ctx *c);
int mg_rma_res_slots(const mg_ctx *c);
/* Bytes of an element (-T) for the accumulates and atomics; 1 for put, get. */
size_t mg_rma_esize(const mg_ctx *c);
MPI_Datatype mg_rma_datatype(const mg_ctx *c);
MPI_Op mg_rma_op(const mg_ctx *c);
int mg_rma_active(const mg_ctx *c); /* fence or pscw */

/* rma_win.c */
size_t mg_rma_buf_bytes(const mg_ctx *c, uint64_t max_size);
size_t mg_rma_rbuf_bytes(const mg_ctx *c, uint64_t max_size);
size_t mg_rma_other_bytes(const mg_ctx *c, uint64_t max_size);
void mg_rma_setup(mg_ctx *c, uint64_t max_size);
void mg_rma_teardown(mg_ctx *c);
void mg_rma_describe(const mg_ctx *c, mg_kvlist *out);
/* Hold (or release) exclusive access to this rank's own window memory for
 * loads and stores outside the timed epochs (validation, markers). */
void mg_rma_self_lock(const mg_ctx *c);
void mg_rma_self_unlock(const mg_ctx *c);

/* rma_kernel.c */
void mg_rma_begin_size(mg_ctx *c, uint64_t size);
void mg_rma_end_size(mg_ctx *c, uint64_t size);
void mg_rma_iterate(mg_ctx *c, uint64_t size, long iters);
void mg_rma_progress_iterate(mg_ctx *c, uint64_t size, long iters);

/* rma_verify.c */
void mg_rma_fill(mg_ctx *c, uint64_t size, int pass);
int mg_rma_verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen);

/* The program: name as installed without "mpigauge_". */
int mg_rma_main(const char *name, int argc, char **argv);
void mg_rma_list_names(FILE *f);

#endif
