/* SPDX-License-Identifier: BSD-3-Clause */
/* Validation of the RMA programs (-c; rma.h). Before one untimed iteration
 * every rank fills its origin data and window with known values and poisons
 * what the iteration must overwrite; after it (every epoch ended: the
 * kernel's end_size waits for all ranks) each rank checks its own window and
 * result buffer, holding an exclusive lock on its own window so the check
 * reads the public copy in either memory model.
 *
 *   put, get          byte patterns of (source rank, size, pass), slot by slot
 *   accumulate        each element = op(the target's input, the origin's input)
 *                     (mg_red_expected over 2 ranks; replace: the origin's)
 *   get_accumulate,   the same in the window, and the result buffer holds
 *   fetch_and_op      the target's input (the value before the operation)
 *   compare_and_swap  the compare value is the target's input, so the
 *                     target ends with the origin's value; the result holds
 *                     the target's input
 */
#include "rma.h"

#include "mg_mpi.h"
#include "mg_pattern.h"

#include <stdio.h>
#include <string.h>

static uint64_t seed(int src, uint64_t size, int pass)
{
    return mg_pattern_seed(src, size, (uint64_t)pass + 7);
}

static void poison(unsigned char *p, size_t len, uint64_t sd)
{
    mg_pattern_fill(p, len, sd);
    for (size_t i = 0; i < len; ++i)
        p[i] = (unsigned char)~p[i];
}

static int is_data(const mg_ctx *c)
{
    return rprm(c)->prog->op == RMA_PUT || rprm(c)->prog->op == RMA_GET;
}

static uint64_t nelems(const mg_ctx *c, uint64_t size)
{
    const int op = rprm(c)->prog->op;
    return op == RMA_FOP || op == RMA_CAS ? 1 : size / mg_rma_esize(c);
}

/* The known input of element i on `rank` (replace, no_op: sum's inputs). */
static double input(const mg_ctx *c, int rank, uint64_t i)
{
    const int red = rprm(c)->red;
    return mg_red_input(red >= RED_REPLACE ? MG_RED_SUM : (mg_red_op)red, 2, rank, i);
}

/* This rank's element i after one operation from `origin` (the inputs are
 * small whole numbers: exact in every type). */
static double after(const mg_ctx *c, int origin, uint64_t i)
{
    const int red = rprm(c)->red, t = rprm(c)->type;
    if (rprm(c)->prog->op == RMA_CAS || red == RED_REPLACE)
        return input(c, origin, i);
    if (red == RED_NO_OP)
        return input(c, c->rank, i);
    return mg_red_expected((mg_red_op)red, (mg_elem_type)t, 2, 2, i);
}

/* Every origin that accesses this rank, and every target it accesses, over
 * the phases of an iteration. */
#define FOR_ORIGINS(s, r, k)                                                                       \
    for (int r = 0; r < (s)->nphases; ++r)                                                         \
        for (int k = 0; k < (s)->role[r].norigins; ++k)
#define FOR_TARGETS(s, r, k)                                                                       \
    for (int r = 0; r < (s)->nphases; ++r)                                                         \
        for (int k = 0; k < (s)->role[r].ntargets; ++k)

static void fill_values(mg_ctx *c, uint64_t size)
{
    rma_state *s = rstate(c);
    const int t = rprm(c)->type;
    const uint64_t n = nelems(c, size);
    for (uint64_t i = 0; i < n; ++i) {
        mg_elem_store(t, c->sbuf, i, input(c, c->rank, i));
        mg_elem_store(t, s->base, i, input(c, c->rank, i));
        /* a result no correct operation leaves: the target's input + 1 */
        if (rprm(c)->prog->op != RMA_ACC)
            mg_elem_store(t, c->rbuf, i, input(c, 1 - c->rank, i) + 1);
    }
    mg_elem_store(t, s->cmp, 0, input(c, 1 - c->rank, 0));
}

void mg_rma_fill(mg_ctx *c, uint64_t size, int pass)
{
    rma_state *s = rstate(c);
    unsigned char *win = s->base, *res = c->rbuf;
    mg_rma_self_lock(c);
    if (!is_data(c)) {
        fill_values(c, size);
    } else if (rprm(c)->prog->op == RMA_PUT) {
        mg_pattern_fill(c->sbuf, size, seed(c->rank, size, pass));
        FOR_ORIGINS(s, r, k)
        poison(win + (size_t)s->role[r].oslot[k] * s->slot_bytes, size,
               seed(s->role[r].origins[k], size, pass));
    } else {
        mg_pattern_fill(win, size, seed(c->rank, size, pass));
        FOR_TARGETS(s, r, k)
        poison(res + (size_t)s->role[r].tslot[k] * s->slot_bytes, size,
               seed(s->role[r].targets[k], size, pass));
    }
    mg_rma_self_unlock(c);
}

static int check_bytes(const mg_ctx *c, const unsigned char *p, uint64_t size, int src, int pass,
                       const char *where, char *err, size_t errlen)
{
    size_t bad = 0;
    const uint64_t sd = seed(src, size, pass);
    if (mg_pattern_check(p, size, sd, &bad) == 0)
        return 0;
    snprintf(err, errlen,
             "rank %d, size %llu, pass %d: %s of rank %d, first bad byte at offset %zu "
             "(expected 0x%02x, got 0x%02x)",
             c->rank, (unsigned long long)size, pass, where, src, bad, mg_pattern_byte(sd, bad),
             p[bad]);
    return -1;
}

static int check_value(const mg_ctx *c, const void *buf, uint64_t i, double want, uint64_t size,
                       int pass, const char *where, char *err, size_t errlen)
{
    const double got = mg_elem_load(rprm(c)->type, buf, i);
    if (got == want)
        return 0;
    snprintf(err, errlen, "rank %d, size %llu, pass %d: %s element %llu is %.17g, expected %.17g",
             c->rank, (unsigned long long)size, pass, where, (unsigned long long)i, got, want);
    return -1;
}

/* Accumulates and atomics (2 ranks): the window after the origin's one
 * operation, the result buffer of a fetching one. */
static int verify_values(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen)
{
    const rma_state *s = rstate(c);
    const int op = rprm(c)->prog->op, fetch = op != RMA_ACC;
    int origin = -1, target = -1;
    FOR_ORIGINS(s, r, k)
    origin = s->role[r].origins[k];
    FOR_TARGETS(s, r, k)
    target = s->role[r].targets[k];
    for (uint64_t i = 0; i < nelems(c, size); ++i) {
        double want = origin >= 0 ? after(c, origin, i) : input(c, c->rank, i);
        if (check_value(c, s->base, i, want, size, pass, "window", err, errlen) != 0)
            return -1;
        if (fetch && target >= 0 &&
            check_value(c, c->rbuf, i, input(c, target, i), size, pass, "result", err, errlen) != 0)
            return -1;
    }
    return 0;
}

int mg_rma_verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen)
{
    rma_state *s = rstate(c);
    const unsigned char *win = s->base, *res = c->rbuf;
    int rc = 0;
    mg_rma_self_lock(c);
    if (!is_data(c)) {
        rc = verify_values(c, size, pass, err, errlen);
    } else if (rprm(c)->prog->op == RMA_PUT) {
        FOR_ORIGINS(s, r, k)
        if (rc == 0)
            rc = check_bytes(c, win + (size_t)s->role[r].oslot[k] * s->slot_bytes, size,
                             s->role[r].origins[k], pass, "window slot written by the put", err,
                             errlen);
    } else {
        FOR_TARGETS(s, r, k)
        if (rc == 0)
            rc = check_bytes(c, res + (size_t)s->role[r].tslot[k] * s->slot_bytes, size,
                             s->role[r].targets[k], pass, "data got from the window", err, errlen);
    }
    mg_rma_self_unlock(c);
    return rc;
}
