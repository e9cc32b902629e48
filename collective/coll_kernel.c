/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives (coll_int.h): buffers, counts and slots, the arguments of one
 * call, and the timed loop with the overlap phase. */
#include "coll_int.h"

#include "config.h"
#include "mg_pattern.h"
#include "mg_size.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

MPI_Op mg_coll_reduction(int r)
{
    static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
    return ops[r];
}

int mg_coll_root_of(const mg_ctx *c, unsigned long long call)
{
    return prm(c)->root == ROOT_ROTATE ? (int)(call % (unsigned long long)csize(c))
                                       : (int)prm(c)->root;
}

/* --in-place applies to this rank in a call with this root. */
int mg_coll_in_place_here(const mg_ctx *c, int root)
{
    unsigned f = flags(c);
    return prm(c)->in_place &&
           ((f & MG_COLL_IN_ALL) || ((f & MG_COLL_IN_ROOT) && crank(c) == root));
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b != 0 && a > (UINT64_MAX / 4) / b ? UINT64_MAX / 4 : a * b;
}

/* Bytes this rank's send and receive buffers need per slot (may be root). */
static void slot_bytes(const mg_ctx *c, uint64_t size, uint64_t *sb, uint64_t *rb)
{
    const unsigned f = flags(c);
    const int may_root = prm(c)->root == ROOT_ROTATE || crank(c) == prm(c)->root;
    /* all the ranks, not csize: the buffers serve every count of --ranks-sweep */
    const int nb = flags(c) & MG_COLL_NEIGHBOR ? mg_coll_blocks(c) : c->nranks;
    /* -D: a block spans the layout's extent */
    const uint64_t blk = prm(c)->layout ? mg_coll_span(c, size, 1) : size;
    const uint64_t p = mul_sat((uint64_t)nb, blk);
    *sb = (f & (MG_COLL_NODATA | MG_COLL_ONEBUF)) ? 0 : blk;
    *rb = (f & MG_COLL_NODATA) ? 0 : blk;
    if ((f & MG_COLL_SEND_P) && (!(f & MG_COLL_P_ROOT) || may_root))
        *sb = p;
    if ((f & MG_COLL_RECV_P) && (!(f & MG_COLL_P_ROOT) || may_root))
        *rb = p;
    if (prm(c)->in_place && (f & MG_COLL_IN_ALL) && *sb > *rb)
        *rb = *sb;             /* the input lives in the receive buffer */
    if (prm(c)->matrix_spec) { /* this rank's row and column of the matrix */
        *sb = *rb = 0;
        for (int j = 0; j < c->nranks; ++j) {
            *sb += mg_coll_matrix_bytes(prm(c), c->rank, j, size);
            *rb += mg_coll_matrix_bytes(prm(c), j, c->rank, size);
        }
    }
}

static uint64_t page_up(uint64_t x)
{
    return x > UINT64_MAX / 8 ? x : (x + PAGE - 1) / PAGE * PAGE;
}

/* --off-cache: enough slots that one pass over them is twice the last-level
 * cache (IMB's -off_cache), from 2 to MAX_SLOTS. */
static int nslots(const mg_ctx *c, uint64_t sb, uint64_t rb)
{
    long cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
    uint64_t per = page_up(sb) + page_up(rb), k;
    if (!prm(c)->off_cache)
        return 1;
    if (cache <= 0)
        cache = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (cache <= 0)
        cache = 32L << 20;
    k = per ? (2 * (uint64_t)cache + per - 1) / per : 1;
    return k < 2 ? 2 : k > MAX_SLOTS ? MAX_SLOTS : (int)k;
}

size_t mg_coll_buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    coll_state *s = state(c);
    uint64_t sb, rb;
    slot_bytes(c, max_size, &sb, &rb);
    s->slots = nslots(c, sb, rb);
    s->sstride = (size_t)page_up(sb);
    s->rstride = (size_t)page_up(rb);
    return (size_t)mul_sat(s->sstride, (uint64_t)s->slots);
}

size_t mg_coll_rbuf_bytes(const mg_ctx *c, uint64_t max_size)
{
    (void)max_size;
    return (size_t)mul_sat(state(c)->rstride, (uint64_t)state(c)->slots);
}

/* The arguments of call number `call`. */
static void make_args(mg_ctx *c, uint64_t size, unsigned long long call, int form, mg_coll_args *a)
{
    const coll_params *p = prm(c);
    coll_state *s = state(c);
    const unsigned f = p->op->flags;
    const int slot = (int)(call % (unsigned long long)s->slots);
    const uint64_t count = size / esize(c);

    memset(a, 0, sizeof *a);
    a->form = form;
    a->sbuf = (char *)c->sbuf + (size_t)slot * s->sstride;
    a->rbuf = (char *)c->rbuf + (size_t)slot * s->rstride;
    a->count = (MPI_Count)count;
    a->large = count > (uint64_t)INT_MAX;
    a->dt = mg_coll_datatype(p->type);
    a->op = f & MG_COLL_REDUCE ? mg_coll_reduction(p->red) : MPI_OP_NULL;
    a->root = mg_coll_root_of(c, call);
    a->comm = f & MG_COLL_NEIGHBOR  ? s->topo
              : mg_coll_sweeping(c) ? s->subs[c->variant_index]
              : p->multi > 0        ? s->group
                                    : c->comm;
    a->req = form == MG_FORM_PERSISTENT ? &s->preq[slot] : &s->req;
    if (f & MG_COLL_VECTOR) {
        a->count = (MPI_Count)mg_coll_vcount(count, crank(c), 0);
        a->scounts = s->counts;
        a->sdispls = s->displs;
        a->rcounts = s->rcounts ? s->rcounts : s->counts;
        a->rdispls = s->rdispls ? s->rdispls : s->displs;
        a->types = s->types;
        a->adispls = s->adispls;
    }
    mg_coll_dt_args(c, a);
    if (mg_coll_in_place_here(c, a->root)) {
        if ((f & MG_COLL_IN_ROOT) && (f & MG_COLL_SCATTER))
            a->rbuf = MPI_IN_PLACE;
        else
            a->sbuf = MPI_IN_PLACE;
    }
}

/* --matrix: this rank's row (sends) and column (receives), packed. */
static void matrix_counts(mg_ctx *c, uint64_t size, coll_state *s)
{
    const coll_params *p = prm(c);
    const size_t es = esize(c);
    uint64_t ds = 0, dr = 0;
    s->rcounts = malloc((size_t)c->nranks * sizeof *s->rcounts);
    s->rdispls = malloc((size_t)c->nranks * sizeof *s->rdispls);
    if (!s->rcounts || !s->rdispls)
        mg_mpi_die(__FILE__, __LINE__, "out of memory for counts");
    for (int j = 0; j < c->nranks; ++j) {
        s->counts[j] = (int)(mg_coll_matrix_bytes(p, c->rank, j, size) / es);
        s->rcounts[j] = (int)(mg_coll_matrix_bytes(p, j, c->rank, size) / es);
        s->displs[j] = (int)ds;
        s->rdispls[j] = (int)dr;
        ds += (uint64_t)s->counts[j];
        dr += (uint64_t)s->rcounts[j];
    }
}

/* v-variants: counts and packed displacements of every rank's block. */
void mg_coll_make_counts(mg_ctx *c, uint64_t size)
{
    coll_state *s = state(c);
    const uint64_t count = size / esize(c);
    if (flags(c) & MG_COLL_VECTOR) {
        /* alltoallv: block r -> j has mg_coll_vcount(count, r, j) elements,
         * the same both ways, so one array serves sends and receives */
        const int dst = mg_coll_kind(flags(c)) == K_ALLTOALL ? crank(c) : 0;
        uint64_t d = 0;
        const int w = (flags(c) & MG_COLL_WTYPES) != 0, nb = mg_coll_blocks(c);
        s->counts = malloc((size_t)nb * sizeof *s->counts);
        s->displs = malloc((size_t)nb * sizeof *s->displs);
        s->types = w ? malloc((size_t)nb * sizeof *s->types + 1) : NULL;
        s->adispls = w ? malloc((size_t)nb * sizeof *s->adispls + 1) : NULL;
        if (!s->counts || !s->displs || (w && (!s->types || !s->adispls)))
            mg_mpi_die(__FILE__, __LINE__, "out of memory for counts");
        if (prm(c)->matrix_spec) {
            matrix_counts(c, size, s);
            return;
        }
        for (int j = 0; j < nb; ++j) {
            /* block j's rank: j, or neighbour j */
            s->counts[j] = (int)mg_coll_vcount(count, mg_coll_block_rank(c, j), dst);
            /* alltoallw: the same layout, displacements in bytes */
            s->displs[j] = (int)(w ? d * esize(c) : d);
            if (w) {
                s->types[j] = mg_coll_datatype(prm(c)->type);
                s->adispls[j] = (MPI_Aint)s->displs[j];
            }
            d += (uint64_t)s->counts[j];
        }
    }
}

void mg_coll_free_counts(coll_state *s)
{
    free(s->rcounts);
    free(s->rdispls);
    s->rcounts = s->rdispls = NULL;
    free(s->counts);
    free(s->displs);
    free(s->types);
    free(s->adispls);
    s->counts = s->displs = NULL;
    s->types = NULL;
    s->adispls = NULL;
}

void mg_coll_begin_size(mg_ctx *c, uint64_t size)
{
    coll_state *s = state(c);
    s->comp_s = 0.0;
    s->comp_n = 0;
    if (cidle(c))
        return;
    mg_coll_make_counts(c, size);
    mg_coll_dt_begin(c, size);
    if (prm(c)->form == MG_FORM_PERSISTENT) {
        /* one persistent request per buffer slot, all with the one root */
        s->npreq = s->slots;
        for (int k = 0; k < s->npreq; ++k) {
            mg_coll_args a;
            make_args(c, size, (unsigned long long)k, MG_FORM_PERSISTENT, &a);
            MG_MPI_CHECK(prm(c)->op->call(&a));
        }
    }
}

void mg_coll_end_size(mg_ctx *c, uint64_t size)
{
    coll_state *s = state(c);
    (void)size;
    for (int k = 0; k < s->npreq; ++k)
        MG_MPI_CHECK(MPI_Request_free(&s->preq[k]));
    s->npreq = 0;
    mg_coll_free_counts(s);
    mg_coll_dt_end(c);
}

/* phase=overlap: compute for the pure median between start and wait. */
static void overlap(mg_ctx *c, MPI_Request *req)
{
    coll_state *s = state(c);
    const long tests = prm(c)->tests;
    double t0;
    if (c->variant != OVERLAP || c->validating)
        return;
    t0 = MPI_Wtime();
    /* tests + 1 equal chunks with an MPI_Test between two (MPI_Test, not the
     * Testall of mg_ctx_compute: MPICH 4.0.2 fails Testall on persistent
     * collective requests) */
    for (long k = 0; k <= tests; ++k) {
        int flag = 0;
        s->sink += mg_ctx_compute(c, c->ref_s / (double)(tests + 1), 0.0, NULL, 0);
        if (k < tests)
            MG_MPI_CHECK(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
    }
    if (c->timed) {
        s->comp_s += MPI_Wtime() - t0;
        s->comp_n++;
    }
}

void mg_coll_iterate(mg_ctx *c, uint64_t size, long iters)
{
    coll_state *s = state(c);
    const int form = prm(c)->form;
    if (cidle(c)) { /* sitting this rank count out: the call counter still moves */
        s->calls += (unsigned long long)iters;
        return;
    }
    for (long i = 0; i < iters; ++i, ++s->calls) {
        mg_coll_args a;
        if (form == MG_FORM_PERSISTENT) {
            MPI_Request *r = &s->preq[s->calls % (unsigned long long)s->slots];
            MG_MPI_CHECK(MPI_Start(r));
            overlap(c, r);
            MG_MPI_CHECK(MPI_Wait(r, MPI_STATUS_IGNORE));
            continue;
        }
        make_args(c, size, s->calls, form, &a);
        MG_MPI_CHECK(prm(c)->op->call(&a));
        if (form == MG_FORM_NONBLOCKING) {
            overlap(c, a.req);
            MG_MPI_CHECK(MPI_Wait(a.req, MPI_STATUS_IGNORE));
        }
    }
}
