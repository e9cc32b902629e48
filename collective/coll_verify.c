/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives (coll_int.h): validation. Data movement is checked block by
 * block against patterns of (source, destination), reductions value by value
 * against mg_red_expected. */
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

#define TO_ALL 0xffffffffu

static uint64_t seed(int src, unsigned dst, uint64_t size, int pass)
{
    return mg_pattern_seed(src, size, ((uint64_t)pass << 32) | dst);
}

typedef struct {
    mg_ctx *c;
    uint64_t size;
    int pass, check, ok;
    char *err;
    size_t errlen;
} walk_ctx;

/* A received block holds pay's pattern (the -D variant: in the layout's
 * payload, its gaps still poison's poison): 0, or 1 with the first bad
 * offset. */
static int block_bad(const walk_ctx *w, const unsigned char *p, size_t len, uint64_t pay,
                     uint64_t poison, size_t *bad, int *gap)
{
    uint64_t at = 0;
    *gap = 0;
    if (!mg_coll_typed(w->c))
        return mg_pattern_check(p, len, pay, bad) != 0;
    if (mg_dt_check(&prm(w->c)->dl, esize(w->c), w->size, p, pay, poison, &at, gap) == 0)
        return 0;
    *bad = (size_t)at;
    return 1;
}

/* A received block: poison it (fill) or check it. */
static void recv_block(walk_ctx *w, unsigned char *p, size_t len, int src, unsigned dst)
{
    size_t bad = 0;
    int gap = 0;
    const uint64_t sd = seed(src, dst, w->size, w->pass);
    if (!w->check) {
        mg_pattern_poison(p, len, sd);
    } else if (w->ok && block_bad(w, p, len, sd, sd, &bad, &gap)) {
        snprintf(w->err, w->errlen,
                 "rank %d, size %llu, pass %d: block from rank %d%s, first bad byte at offset "
                 "%zu%s (expected 0x%02x, got 0x%02x)",
                 w->c->rank, (unsigned long long)w->size, w->pass, src,
                 prm(w->c)->multi > 0 ? " of its --multi group" : "", bad,
                 gap ? ", a gap of the -D layout (must stay untouched)" : "",
                 gap ? (unsigned char)~mg_pattern_byte(sd, bad) : mg_pattern_byte(sd, bad), p[bad]);
        w->ok = 0;
    }
}

/* Data movement: fill the blocks this rank sends and poison those it
 * receives, or check the received ones. */
static void walk_data(walk_ctx *w, int root)
{
    mg_ctx *c = w->c;
    const int k = mg_coll_kind(flags(c)), me = crank(c), inpl = mg_coll_in_place_here(c, root);
    /* -D: the typed variant's blocks span the layout's extent */
    const size_t es = esize(c), blk = (size_t)mg_coll_span(c, w->size, 0);
    const int vec = (flags(c) & MG_COLL_VECTOR) != 0;
    const size_t mine = vec ? (size_t)mg_coll_vcount(w->size / es, me, 0) * es : blk;
    const coll_state *s = state(c);
    const int slot = (int)(s->calls % (unsigned long long)s->slots);
    unsigned char *sb = (unsigned char *)c->sbuf + (size_t)slot * s->sstride;
    unsigned char *rb = (unsigned char *)c->rbuf + (size_t)slot * s->rstride;

    const int nb = mg_coll_blocks(c), nbr = (flags(c) & MG_COLL_NEIGHBOR) != 0;
    for (int j = 0; j < nb && k != K_BCAST; ++j) {
        /* w-variants keep their displacements in bytes */
        const size_t off = vec ? (size_t)s->displs[j] * (s->types ? 1 : es) : (size_t)j * blk;
        const size_t len = vec ? (size_t)s->counts[j] * es : blk;
        /* --matrix: what arrives from rank j differs from what goes to it */
        const size_t roff = s->rcounts ? (size_t)s->rdispls[j] * es : off;
        const size_t rlen = s->rcounts ? (size_t)s->rcounts[j] * es : len;
        int src = -1;
        unsigned dst = TO_ALL;
        if (!w->check && k == K_SCATTER && me == root)
            mg_pattern_fill(sb + off, len, seed(root, (unsigned)j, w->size, w->pass));
        if (!w->check && k == K_ALLTOALL)
            mg_pattern_fill((inpl ? rb : sb) + off, len, seed(me, (unsigned)j, w->size, w->pass));
        if ((k == K_GATHER && me == root) || k == K_ALLGATHER)
            src = mg_coll_block_rank(c, j);
        if (k == K_ALLTOALL) {
            src = mg_coll_block_rank(c, j);
            /* a neighbour's block j came from its side j ^ 1 (sent as that
             * neighbour's block j ^ 1); otherwise rank src's block for me */
            dst = nbr ? (unsigned)mg_coll_sender_block(c, j) : (unsigned)me;
        }
        if (src < 0 || (inpl && !w->check && k == K_ALLTOALL))
            continue;
        if (nbr && k == K_ALLTOALL && w->check && mg_coll_twin_block(c, j) >= 0) {
            /* the same neighbour on both sides of a dimension (of size 1 or
             * 2): the two blocks may be matched in message order instead
             * (block j arrives as j: MPICH 4.0.2's neighbor_alltoallv and
             * Open MPI 4.1's non-blocking forms), which MPI allows */
            size_t bad = 0;
            int gap;
            if (!block_bad(w, rb + off, len, seed(src, (unsigned)j, w->size, w->pass),
                           seed(src, dst, w->size, w->pass), &bad, &gap))
                continue;
        }
        if (inpl && j == me && k != K_ALLTOALL) {
            if (!w->check) /* the own block of an in-place gather */
                mg_pattern_fill(rb + off, len, seed(me, TO_ALL, w->size, w->pass));
            continue;
        }
        recv_block(w, rb + roff, rlen, src, dst);
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

/* Reductions: known inputs; the result must be mg_red_expected. */
static void walk_reduce(walk_ctx *w, int root)
{
    mg_ctx *c = w->c;
    const coll_params *p = prm(c);
    const coll_state *s = state(c);
    const unsigned f = flags(c);
    /* reduce_local: rbuf = sbuf op rbuf, as if sbuf were rank 1's input and
     * rbuf rank 0's of two */
    const int local = (f & MG_COLL_LOCAL) != 0;
    const int me = crank(c), P = local ? 2 : csize(c), t = p->type;
    const int inpl = mg_coll_in_place_here(c, root), me_in = local ? 1 : me;
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
            mg_elem_store(t, inpl ? rb : sb, i, mg_red_input((mg_red_op)p->red, P, me_in, i));
        for (uint64_t j = 0; j < nout && !inpl; ++j)
            mg_elem_store(t, rb, j,
                          local ? mg_red_input((mg_red_op)p->red, P, 0, j)
                                : mg_red_expected((mg_red_op)p->red, (mg_elem_type)t, P, n ? n : 1,
                                                  base + j) +
                                      1.0);
        return;
    }
    if (n == 0 || ((f & MG_COLL_ROOTED) && me != root))
        return; /* exscan's rank 0 and a reduce's non-roots get nothing */
    for (uint64_t j = 0; j < nout && w->ok; ++j) {
        double want = mg_red_expected((mg_red_op)p->red, (mg_elem_type)t, P, n, base + j);
        double got = mg_elem_load(t, rb, j);
        if (got != want) {
            snprintf(w->err, w->errlen,
                     "rank %d, size %llu, pass %d: element %llu of the result is %g, "
                     "expected %g (%s over %d ranks)",
                     me, (unsigned long long)w->size, w->pass, (unsigned long long)(base + j), got,
                     want, mg_red_op_names[p->red], n);
            w->ok = 0;
        }
    }
}

static int walk(mg_ctx *c, uint64_t size, int pass, int check, char *err, size_t errlen)
{
    walk_ctx w = {c, size, pass, check, 1, err, errlen};
    const int root = mg_coll_root_of(c, state(c)->calls);
    if (mg_coll_kind(flags(c)) == K_REDUCE)
        walk_reduce(&w, root);
    else if (mg_coll_kind(flags(c)) != K_NONE)
        walk_data(&w, root);
    return w.ok ? 0 : -1;
}

void mg_coll_fill(mg_ctx *c, uint64_t size, int pass)
{
    if (cidle(c))
        return;
    mg_coll_make_counts(c, size);
    walk(c, size, pass, 0, NULL, 0);
    mg_coll_free_counts(state(c));
}

int mg_coll_verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen)
{
    int rc;
    if (cidle(c))
        return 0;
    mg_coll_make_counts(c, size);
    /* the call just made advanced the counter: look at its slot and root */
    state(c)->calls--;
    rc = walk(c, size, pass, 1, err, errlen);
    state(c)->calls++;
    mg_coll_free_counts(state(c));
    return rc;
}
