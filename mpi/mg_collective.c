/* The one descriptor of every collective program (see mg_collective.h): an op of the
 * table in one form, timed per call by the driver (MG_TIME_CALL: a barrier or
 * a start window before each call, the slowest rank per call).
 *
 * -m is the block size in bytes: the whole buffer of bcast, reduce,
 * allreduce, scan; the block per rank of scatter, gather, allgather,
 * alltoall, reduce_scatter(_block) (OSU's convention). Blocks hold whole
 * elements of -T. v-variants use unequal blocks (mg_coll_vcount). Non-blocking
 * and persistent forms have two variants: phase=pure (start + wait) and
 * phase=overlap (start, a calibrated computation as long as the pure median,
 * with -t N MPI_Test calls spread through it, wait); extras give the overlap.
 * Validation checks values: reductions against mg_red_expected, data
 * movement block by block against patterns of (source, destination).
 */
#include "mg_collective.h"

#include "config.h"
#include "mg_driver.h"
#include "mg_pattern.h"
#include "mg_size.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { ROOT_ROTATE = -1, MAX_SLOTS = 64, PAGE = 4096 };
enum { K_NONE, K_BCAST, K_SCATTER, K_GATHER, K_ALLGATHER, K_ALLTOALL, K_REDUCE };
enum { PURE = 0, OVERLAP = 1 };

typedef struct {
    const mg_coll_op *op; /* from the program's name */
    int form;
    const char *root_spec; /* --root */
    int type, red;         /* -T, --op (-1: not given) */
    int in_place, off_cache;
    long tests;            /* -t */
    long root;             /* resolved by check: rank, or ROOT_ROTATE */
} coll_params;

typedef struct {
    unsigned long long calls; /* calls so far: picks the slot and the rotating root */
    int slots;
    size_t sstride, rstride;  /* bytes between slots */
    int *counts, *displs;     /* v-variants, in elements */
    MPI_Request req, preq[MAX_SLOTS];
    int npreq;
    double comp_s;            /* timed computation (overlap phase) */
    long comp_n;
    uint64_t sink;
} coll_state;

static const coll_params *prm(const mg_ctx *c) { return c->params; }
static coll_state *state(const mg_ctx *c) { return c->state; }
static unsigned flags(const mg_ctx *c) { return prm(c)->op->flags; }
static size_t esize(const mg_ctx *c) { return mg_elem_size((mg_elem_type)prm(c)->type); }

static int kind(unsigned f)
{
    if (f & MG_COLL_NODATA)
        return K_NONE;
    if (f & MG_COLL_REDUCE)
        return K_REDUCE;
    if (f & MG_COLL_ONEBUF)
        return K_BCAST;
    if (f & MG_COLL_SCATTER)
        return f & MG_COLL_P_ROOT ? K_SCATTER : K_ALLTOALL;
    return f & MG_COLL_P_ROOT ? K_GATHER : K_ALLGATHER;
}

static MPI_Datatype datatype(int t)
{
    static const MPI_Datatype types[] = {MPI_SIGNED_CHAR, MPI_INT, MPI_FLOAT, MPI_DOUBLE};
    return types[t];
}

static MPI_Op reduction(int r)
{
    static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
    return ops[r];
}

static int root_of(const mg_ctx *c, unsigned long long call)
{
    return prm(c)->root == ROOT_ROTATE ? (int)(call % (unsigned long long)c->nranks)
                                       : (int)prm(c)->root;
}

/* --in-place applies to this rank in a call with this root. */
static int in_place_here(const mg_ctx *c, int root)
{
    unsigned f = flags(c);
    return prm(c)->in_place &&
           ((f & MG_COLL_IN_ALL) || ((f & MG_COLL_IN_ROOT) && c->rank == root));
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b != 0 && a > (UINT64_MAX / 4) / b ? UINT64_MAX / 4 : a * b;
}

/* Bytes this rank's send and receive buffers need per slot (may be root). */
static void slot_bytes(const mg_ctx *c, uint64_t size, uint64_t *sb, uint64_t *rb)
{
    const unsigned f = flags(c);
    const int may_root = prm(c)->root == ROOT_ROTATE || c->rank == prm(c)->root;
    const uint64_t p = mul_sat((uint64_t)c->nranks, size);
    *sb = (f & (MG_COLL_NODATA | MG_COLL_ONEBUF)) ? 0 : size;
    *rb = (f & MG_COLL_NODATA) ? 0 : size;
    if ((f & MG_COLL_SEND_P) && (!(f & MG_COLL_P_ROOT) || may_root))
        *sb = p;
    if ((f & MG_COLL_RECV_P) && (!(f & MG_COLL_P_ROOT) || may_root))
        *rb = p;
    if (prm(c)->in_place && (f & MG_COLL_IN_ALL) && *sb > *rb)
        *rb = *sb; /* the input lives in the receive buffer */
}

static uint64_t page_up(uint64_t x) { return x > UINT64_MAX / 8 ? x : (x + PAGE - 1) / PAGE * PAGE; }

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

static size_t buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    coll_state *s = state(c);
    uint64_t sb, rb;
    slot_bytes(c, max_size, &sb, &rb);
    s->slots = nslots(c, sb, rb);
    s->sstride = (size_t)page_up(sb);
    s->rstride = (size_t)page_up(rb);
    return (size_t)mul_sat(s->sstride, (uint64_t)s->slots);
}

static size_t rbuf_bytes(const mg_ctx *c, uint64_t max_size)
{
    (void)max_size;
    return (size_t)mul_sat(state(c)->rstride, (uint64_t)state(c)->slots);
}

/* The arguments of call number `call`. */
static void make_args(mg_ctx *c, uint64_t size, unsigned long long call, int form,
                      mg_coll_args *a)
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
    a->count = (int)count;
    a->dt = datatype(p->type);
    a->op = f & MG_COLL_REDUCE ? reduction(p->red) : MPI_OP_NULL;
    a->root = root_of(c, call);
    a->comm = c->comm;
    a->req = form == MG_FORM_PERSISTENT ? &s->preq[slot] : &s->req;
    if (f & MG_COLL_VECTOR) {
        a->count = (int)mg_coll_vcount(count, c->rank, 0);
        a->scounts = a->rcounts = s->counts;
        a->sdispls = a->rdispls = s->displs;
    }
    if (in_place_here(c, a->root)) {
        if ((f & MG_COLL_IN_ROOT) && (f & MG_COLL_SCATTER))
            a->rbuf = MPI_IN_PLACE;
        else
            a->sbuf = MPI_IN_PLACE;
    }
}

/* v-variants: counts and packed displacements of every rank's block. */
static void make_counts(mg_ctx *c, uint64_t size)
{
    coll_state *s = state(c);
    const uint64_t count = size / esize(c);
    if (flags(c) & MG_COLL_VECTOR) {
        /* alltoallv: block r -> j has mg_coll_vcount(count, r, j) elements,
         * the same both ways, so one array serves sends and receives */
        const int dst = kind(flags(c)) == K_ALLTOALL ? c->rank : 0;
        uint64_t d = 0;
        s->counts = malloc((size_t)c->nranks * sizeof *s->counts);
        s->displs = malloc((size_t)c->nranks * sizeof *s->displs);
        if (!s->counts || !s->displs)
            mg_mpi_die(__FILE__, __LINE__, "out of memory for counts");
        for (int j = 0; j < c->nranks; ++j) {
            s->counts[j] = (int)mg_coll_vcount(count, j, dst);
            s->displs[j] = (int)d;
            d += (uint64_t)s->counts[j];
        }
    }
}

static void free_counts(coll_state *s)
{
    free(s->counts);
    free(s->displs);
    s->counts = s->displs = NULL;
}

static void begin_size(mg_ctx *c, uint64_t size)
{
    coll_state *s = state(c);
    s->comp_s = 0.0;
    s->comp_n = 0;
    make_counts(c, size);
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

static void end_size(mg_ctx *c, uint64_t size)
{
    coll_state *s = state(c);
    (void)size;
    for (int k = 0; k < s->npreq; ++k)
        MG_MPI_CHECK(MPI_Request_free(&s->preq[k]));
    s->npreq = 0;
    free_counts(s);
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

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    coll_state *s = state(c);
    const int form = prm(c)->form;
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

/* ---- validation ---------------------------------------------------------- */

#define TO_ALL 0xffffffffu

static uint64_t seed(int src, unsigned dst, uint64_t size, int pass)
{
    return mg_pattern_seed(src, size, ((uint64_t)pass << 32) | dst);
}

static void poison(unsigned char *p, size_t len, uint64_t sd)
{
    mg_pattern_fill(p, len, sd);
    for (size_t i = 0; i < len; ++i)
        p[i] = (unsigned char)~p[i];
}

typedef struct {
    mg_ctx *c;
    uint64_t size;
    int pass, check, ok;
    char *err;
    size_t errlen;
} walk_ctx;

/* A received block: poison it (fill) or check it. */
static void recv_block(walk_ctx *w, unsigned char *p, size_t len, int src, unsigned dst)
{
    size_t bad = 0;
    const uint64_t sd = seed(src, dst, w->size, w->pass);
    if (!w->check) {
        poison(p, len, sd);
    } else if (w->ok && mg_pattern_check(p, len, sd, &bad) != 0) {
        snprintf(w->err, w->errlen,
                 "rank %d, size %llu, pass %d: block from rank %d, first bad byte at offset "
                 "%zu (expected 0x%02x, got 0x%02x)",
                 w->c->rank, (unsigned long long)w->size, w->pass, src, bad,
                 mg_pattern_byte(sd, bad), p[bad]);
        w->ok = 0;
    }
}

/* Data movement: fill the blocks this rank sends and poison those it
 * receives, or check the received ones. */
static void walk_data(walk_ctx *w, int root)
{
    mg_ctx *c = w->c;
    const int k = kind(flags(c)), me = c->rank, inpl = in_place_here(c, root);
    const size_t es = esize(c), blk = (size_t)(w->size / es) * es;
    const int vec = (flags(c) & MG_COLL_VECTOR) != 0;
    const size_t mine = vec ? (size_t)mg_coll_vcount(w->size / es, me, 0) * es : blk;
    const coll_state *s = state(c);
    const int slot = (int)(s->calls % (unsigned long long)s->slots);
    unsigned char *sb = (unsigned char *)c->sbuf + (size_t)slot * s->sstride;
    unsigned char *rb = (unsigned char *)c->rbuf + (size_t)slot * s->rstride;

    for (int j = 0; j < c->nranks && k != K_BCAST; ++j) {
        const size_t off = vec ? (size_t)s->displs[j] * es : (size_t)j * blk;
        const size_t len = vec ? (size_t)s->counts[j] * es : blk;
        int src = -1;
        unsigned dst = TO_ALL;
        if (!w->check && k == K_SCATTER && me == root)
            mg_pattern_fill(sb + off, len, seed(root, (unsigned)j, w->size, w->pass));
        if (!w->check && k == K_ALLTOALL)
            mg_pattern_fill((inpl ? rb : sb) + off, len, seed(me, (unsigned)j, w->size, w->pass));
        if ((k == K_GATHER && me == root) || k == K_ALLGATHER)
            src = j;
        if (k == K_ALLTOALL) {
            src = j;
            dst = (unsigned)me;
        }
        if (src < 0 || (inpl && !w->check && k == K_ALLTOALL))
            continue;
        if (inpl && j == me && k != K_ALLTOALL) {
            if (!w->check) /* the own block of an in-place gather */
                mg_pattern_fill(rb + off, len, seed(me, TO_ALL, w->size, w->pass));
            continue;
        }
        recv_block(w, rb + off, len, src, dst);
    }
    if (k == K_BCAST && me == root && !w->check)
        mg_pattern_fill(rb, blk, seed(root, TO_ALL, w->size, w->pass));
    else if (k == K_BCAST && me != root)
        recv_block(w, rb, blk, root, TO_ALL);
    if (k == K_SCATTER && !inpl)
        recv_block(w, rb, mine, root, (unsigned)me);
    if ((k == K_GATHER || k == K_ALLGATHER) && !inpl && !w->check)
        mg_pattern_fill(sb, mine, seed(me, TO_ALL, w->size, w->pass));
}

static void put(int t, void *b, size_t i, double v)
{
    switch (t) {
    case MG_ELEM_CHAR: ((signed char *)b)[i] = (signed char)(int)fmod(v, 256.0); break;
    case MG_ELEM_INT: ((int *)b)[i] = (int)v; break;
    case MG_ELEM_FLOAT: ((float *)b)[i] = (float)v; break;
    default: ((double *)b)[i] = v;
    }
}

static double get(int t, const void *b, size_t i)
{
    switch (t) {
    case MG_ELEM_CHAR: return ((const signed char *)b)[i];
    case MG_ELEM_INT: return ((const int *)b)[i];
    case MG_ELEM_FLOAT: return ((const float *)b)[i];
    default: return ((const double *)b)[i];
    }
}

/* Reductions: known inputs; the result must be mg_red_expected. */
static void walk_reduce(walk_ctx *w, int root)
{
    mg_ctx *c = w->c;
    const coll_params *p = prm(c);
    const coll_state *s = state(c);
    const unsigned f = flags(c);
    const int me = c->rank, P = c->nranks, t = p->type, inpl = in_place_here(c, root);
    const uint64_t count = w->size / esize(c);
    const int slot = (int)(s->calls % (unsigned long long)s->slots);
    unsigned char *sb = (unsigned char *)c->sbuf + (size_t)slot * s->sstride;
    unsigned char *rb = (unsigned char *)c->rbuf + (size_t)slot * s->rstride;
    uint64_t nin = count, nout = count, base = 0;
    int n = P;
    if (f & MG_COLL_SEND_P) { /* reduce_scatter(_block): rank r gets its block */
        const int vec = (f & MG_COLL_VECTOR) != 0;
        nin = vec ? mg_coll_vdispl(count, P) : (uint64_t)P * count;
        nout = vec ? mg_coll_vcount(count, me, 0) : count;
        base = vec ? mg_coll_vdispl(count, me) : (uint64_t)me * count;
    }
    if (f & MG_COLL_SCAN)
        n = f & MG_COLL_EXCL ? me : me + 1;
    if (!w->check) {
        for (uint64_t i = 0; i < nin; ++i)
            put(t, inpl ? rb : sb, i, mg_red_input((mg_red_op)p->red, P, me, i));
        for (uint64_t j = 0; j < nout && !inpl; ++j)
            put(t, rb, j, mg_red_expected((mg_red_op)p->red, (mg_elem_type)t, P, n ? n : 1,
                                          base + j) + 1.0);
        return;
    }
    if (n == 0 || ((f & MG_COLL_ROOTED) && me != root))
        return; /* exscan's rank 0 and a reduce's non-roots get nothing */
    for (uint64_t j = 0; j < nout && w->ok; ++j) {
        double want = mg_red_expected((mg_red_op)p->red, (mg_elem_type)t, P, n, base + j);
        double got = get(t, rb, j);
        if (got != want) {
            snprintf(w->err, w->errlen,
                     "rank %d, size %llu, pass %d: element %llu of the result is %g, "
                     "expected %g (%s over %d ranks)",
                     me, (unsigned long long)w->size, w->pass, (unsigned long long)(base + j),
                     got, want, mg_red_op_names[p->red], n);
            w->ok = 0;
        }
    }
}

static int walk(mg_ctx *c, uint64_t size, int pass, int check, char *err, size_t errlen)
{
    walk_ctx w = {c, size, pass, check, 1, err, errlen};
    const int root = root_of(c, state(c)->calls);
    if (kind(flags(c)) == K_REDUCE)
        walk_reduce(&w, root);
    else if (kind(flags(c)) != K_NONE)
        walk_data(&w, root);
    return w.ok ? 0 : -1;
}

static void fill(mg_ctx *c, uint64_t size, int pass)
{
    make_counts(c, size);
    walk(c, size, pass, 0, NULL, 0);
    free_counts(state(c));
}

static int verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen)
{
    int rc;
    make_counts(c, size);
    /* the call just made advanced the counter: look at its slot and root */
    state(c)->calls--;
    rc = walk(c, size, pass, 1, err, errlen);
    state(c)->calls++;
    free_counts(state(c));
    return rc;
}

/* ---- options, checks, results -------------------------------------------- */

static const char *const phases[] = {"pure", "overlap", NULL};
static const char *const blocking_extras[] = {"rank_min_us", "rank_max_us", "late", NULL};
static const char *const overlap_extras[] = {"pure_us",     "compute_us",  "overlap_pct",
                                             "rank_min_us", "rank_max_us", "late", NULL};

static const mg_opt opts[] = {
    {0, "root", MG_OPT_STRING, offsetof(coll_params, root_spec), "R|rotate",
     "rooted operations: the root rank, or rotate (call i has root i mod P, IMB's root shift; "
     "default 0)", 0, 0, NULL},
    {'T', "type", MG_OPT_CHOICE, offsetof(coll_params, type), "char|int|float|double",
     "element type (default char; reductions float)", 0, 0, mg_elem_type_names},
    {0, "op", MG_OPT_CHOICE, offsetof(coll_params, red), "sum|prod|max|min",
     "reductions: the operation (default sum)", 0, 0, mg_red_op_names},
    {0, "in-place", MG_OPT_FLAG, offsetof(coll_params, in_place), NULL,
     "use MPI_IN_PLACE where the operation allows it", 0, 0, NULL},
    {0, "off-cache", MG_OPT_FLAG, offsetof(coll_params, off_cache), NULL,
     "rotate through buffers covering twice the last-level cache (IMB's -off_cache)", 0, 0,
     NULL},
    {'t', "tests", MG_OPT_LONG, offsetof(coll_params, tests), "N",
     "non-blocking, persistent: N MPI_Test calls spread through the computation (default 0)",
     0, 1000000, NULL},
    {0, NULL, MG_OPT_END, 0, NULL, NULL, 0, 0, NULL}};

/* Every size of the sweep holds whole elements and int counts. */
static int check_sizes(const mg_ctx *c, const coll_params *p, char *err, size_t errlen)
{
    const size_t es = mg_elem_size((mg_elem_type)p->type);
    const uint64_t per = (p->op->flags & MG_COLL_VECTOR) ? (uint64_t)c->nranks : 1;
    mg_sweep sw;
    char msg[256];
    int rc = 0;
    if (mg_sweep_parse(c->cfg->sizes_spec, 0, 8, 1048576, &sw, msg, sizeof msg) != 0)
        return 0; /* the driver reports a malformed -m itself */
    for (size_t i = 0; i < sw.n && rc == 0; ++i) {
        const uint64_t size = sw.sizes_bytes[i], count = size / es;
        if (size % es != 0) {
            snprintf(err, errlen, "-m: %llu bytes is not a whole number of %s elements (%zu bytes)",
                     (unsigned long long)size, mg_elem_type_names[p->type], es);
            rc = -1;
        } else if (count > (uint64_t)INT_MAX / per) {
            snprintf(err, errlen,
                     "-m: %llu bytes is %llu %s elements%s, above INT_MAX: collectives take "
                     "int counts and displacements here (no large-count calls); use a smaller "
                     "-m or a larger -T",
                     (unsigned long long)size, (unsigned long long)count,
                     mg_elem_type_names[p->type], per > 1 ? " per rank, times the ranks" : "");
            rc = -1;
        }
    }
    mg_sweep_free(&sw);
    return rc;
}

static int check(const mg_ctx *c, char *err, size_t errlen)
{
    coll_params *p = c->params;
    const unsigned f = p->op->flags;
    const char *name = p->op->name;
    if (p->root_spec && !(f & MG_COLL_ROOTED)) {
        snprintf(err, errlen, "--root: %s has no root", name);
        return -1;
    }
    p->root = 0;
    if (p->root_spec && strcmp(p->root_spec, "rotate") == 0) {
        p->root = ROOT_ROTATE;
    } else if (p->root_spec) {
        char *end;
        long r = strtol(p->root_spec, &end, 10);
        if (end == p->root_spec || *end || r < 0 || r >= c->nranks) {
            snprintf(err, errlen, "--root: '%s' is not 'rotate' or a rank from 0 to %d",
                     p->root_spec, c->nranks - 1);
            return -1;
        }
        p->root = r;
    }
    if (p->root == ROOT_ROTATE && p->form == MG_FORM_PERSISTENT) {
        snprintf(err, errlen, "--root rotate: a persistent request has one root");
        return -1;
    }
    if (p->type >= 0 && (f & MG_COLL_NODATA)) {
        snprintf(err, errlen, "-T: %s moves no data", name);
        return -1;
    }
    if (p->red >= 0 && !(f & MG_COLL_REDUCE)) {
        snprintf(err, errlen, "--op: %s is not a reduction", name);
        return -1;
    }
    if (p->in_place && !(f & (MG_COLL_IN_ALL | MG_COLL_IN_ROOT))) {
        snprintf(err, errlen, "--in-place: %s has no in-place form", name);
        return -1;
    }
    if (p->tests > 0 && p->form == MG_FORM_BLOCKING) {
        snprintf(err, errlen, "-t: %s is blocking (the tests go into the computation of the "
                              "non-blocking forms)", name);
        return -1;
    }
    if (p->type < 0)
        p->type = f & MG_COLL_REDUCE ? MG_ELEM_FLOAT : MG_ELEM_CHAR;
    if (p->red < 0)
        p->red = MG_RED_SUM;
    return c->cfg->sizes_spec ? check_sizes(c, p, err, errlen) : 0;
}

static int variants(const mg_ctx *c, long *values, int max)
{
    (void)c;
    (void)max;
    values[0] = PURE;
    values[1] = OVERLAP;
    return 2;
}

static void figures(const mg_ctx *c, double *out)
{
    const coll_state *s = state(c);
    out[0] = s->comp_n ? s->comp_s / (double)s->comp_n : 0.0;
}

/* Per-rank spread (fastest and slowest rank's median call), late starts and,
 * for the non-blocking forms, the overlap. O(nranks) on rank 0. */
static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    double lo = INFINITY, hi = 0.0;
    int k = 0;
    (void)size;
    for (int r = 0; r < c->nranks; ++r) {
        lo = fmin(lo, rank_s[r]);
        hi = fmax(hi, rank_s[r]);
    }
    if (prm(c)->form != MG_FORM_BLOCKING) {
        out[0] = c->variant_index == 0 ? st->median : c->ref->median;
        if (c->variant == OVERLAP) {
            double comp = 0.0;
            for (int r = 0; r < c->nranks; ++r)
                comp = fmax(comp, c->rank_figures[r]);
            out[1] = comp * 1e6;
            out[2] = mg_coll_overlap_pct(out[0], out[1], st->median);
        }
        k = 3;
    }
    out[k] = lo * 1e6;
    out[k + 1] = hi * 1e6;
    if (c->cfg->sync == MG_SYNC_WINDOW)
        out[k + 2] = (double)c->late;
}

int mg_coll_main(const char *name, int argc, char **argv)
{
    static const char *const forms[] = {"", " (non-blocking: start, wait)",
                                        " (persistent: MPI_Start, wait)"};
    const char *base = name;
    char opname[64], desc[320];
    size_t n = strlen(name);
    coll_params dflt = {NULL, MG_FORM_BLOCKING, NULL, -1, -1, 0, 0, 0, 0};
    mg_bench b = {
        .headline = "Latency (us)",
        .min_ranks = 1,
        .max_ranks = 1 << 24,
        .metric = MG_METRIC_LATENCY,
        .time_mode = MG_TIME_CALL,
        .time_scale = 1.0,
        .min_size = 1,
        .default_min_size = 8,
        .default_max_size = 1048576,
        .opts = opts,
        .params_size = sizeof(coll_params),
        .check = check,
        .state_size = sizeof(coll_state),
        .begin_size = begin_size,
        .end_size = end_size,
        .buf_bytes = buf_bytes,
        .rbuf_bytes = rbuf_bytes,
        .iterate = iterate,
        .fill = fill,
        .verify = verify,
        .extra_names = blocking_extras,
        .extras = extras,
    };

    if (n > 5 && strcmp(name + n - 5, "_init") == 0) {
        dflt.form = MG_FORM_PERSISTENT;
        snprintf(opname, sizeof opname, "%.*s", (int)(n - 5), name);
        base = opname;
    }
    for (const mg_coll_op *op = mg_coll_ops; op->name && !dflt.op; ++op) {
        if (strcmp(op->name, base) == 0)
            dflt.op = op;
        else if (base[0] == 'i' && strcmp(op->name, base + 1) == 0 && !dflt.form) {
            dflt.op = op;
            dflt.form = MG_FORM_NONBLOCKING;
        }
    }
    if (!dflt.op) {
        fprintf(stderr, "mpigauge: unknown collective '%s'\n", name);
        return 99;
    }
    snprintf(desc, sizeof desc,
             "MPI_%c%s%s: time per call in us, the slowest rank of each call; ranks "
             "synchronised before every call (--sync), not timed",
             (char)(dflt.op->name[0] - 'a' + 'A'), dflt.op->name + 1, forms[dflt.form]);
    b.name = name;
    b.description = desc;
    b.params_default = &dflt;
    if (dflt.op->flags & MG_COLL_NODATA) {
        b.min_size = b.default_min_size = b.default_max_size = 0;
    }
    if (dflt.form != MG_FORM_BLOCKING) {
        b.variant_name = "phase";
        b.variants = variants;
        b.variant_labels = phases;
        b.compute = 1;
        b.nfigures = 1;
        b.figures = figures;
        b.extra_names = overlap_extras;
    }
    return mg_main(&b, argc, argv);
}
