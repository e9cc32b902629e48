/* SPDX-License-Identifier: BSD-3-Clause */
/* -D LAYOUT for the collectives that move blocks of data (bcast, scatter,
 * gather, allgather, alltoall, neighbor_allgather, neighbor_alltoall; OSU's
 * --ddt): the blocking call measured, size by size, with two datatypes,
 * variant datatype=ELEM|LAYOUT/ELEM. The reference is the run without -D
 * (the block's elements of -T, contiguous); the other describes each block
 * of N payload bytes as one derived datatype (mpi/transport/mg_dtype.h: contiguous,
 * vector:B:S, indexed, resized) whose extent is the layout's, so block j
 * of a gather or an alltoall starts at j times that extent. Every rank
 * sends and receives with the same type, so a payload byte lands at its
 * own offset in the receiver's block: validation checks every payload
 * byte and that every gap byte is untouched (coll_verify.c). The extra
 * ratio_to_plain is the median over the reference's at that size. */
#include "coll_int.h"

#include "mg_dtype.h"

#include <stdio.h>

enum { DT_PLAIN = 0, DT_TYPED = 1 };
#define MG_COLL_DT_MAX_BYTES (1ull << 30)

int mg_coll_typed(const mg_ctx *c)
{
    return prm(c)->layout != NULL && prm(c)->form == MG_FORM_BLOCKING && c->variant == DT_TYPED;
}

uint64_t mg_coll_span(const mg_ctx *c, uint64_t size, int any)
{
    const coll_params *p = prm(c);
    const size_t es = esize(c);
    if (p->layout != NULL && (any || mg_coll_typed(c)))
        return mg_dt_extent(&p->dl, es, size);
    return size / es * es;
}

int mg_coll_dt_resolve(const mg_ctx *c, coll_params *p, char *err, size_t errlen)
{
    (void)c;
    if (p->layout == NULL)
        return 0;
    return mg_dt_parse(p->layout, &p->dl, err, errlen);
}

/* The collectives -D applies to: one equal block per rank or neighbour. */
static const char *refusal(const coll_params *p)
{
    const int k = mg_coll_kind(p->op->flags);
    if (k == K_NONE || k == K_REDUCE || (p->op->flags & (MG_COLL_VECTOR | MG_COLL_LOCAL)))
        return "-D: %s is not one of the collectives of equal blocks (bcast, scatter, gather, "
               "allgather, alltoall, neighbor_allgather, neighbor_alltoall)";
    if (p->form != MG_FORM_BLOCKING)
        return "-D: %s is not blocking (the datatype variant takes the blocking call; the "
               "non-blocking and persistent forms' variants are the phases)";
    if (p->dl.kind == MG_DT_BASIC)
        return "-D basic: that is %s's reference already (the elements of -T, contiguous); give "
               "contiguous, vector:B:S, indexed or resized";
    if (p->in_place)
        return "-D: %s with --in-place is not measured (the layouts move blocks between two "
               "buffers)";
    if (p->ranks_spec)
        return "-D: %s with --ranks-sweep: the two are variants of their own; choose one";
    return NULL;
}

int mg_coll_dt_check(const mg_ctx *c, const coll_params *p, char *err, size_t errlen)
{
    const char *bad;
    const mg_sweep *sw = c->sizes;
    if (p->layout == NULL)
        return 0;
    bad = refusal(p);
    if (bad) {
        char name[80];
        snprintf(name, sizeof name, "%s%s%s", p->form == MG_FORM_NONBLOCKING ? "i" : "",
                 p->op->name, p->form == MG_FORM_PERSISTENT ? "_init" : "");
        snprintf(err, errlen, bad, name);
        return -1;
    }
    for (size_t i = 0; sw != NULL && c->cfg->sizes_spec && i < sw->n; ++i)
        if (sw->sizes_bytes[i] > MG_COLL_DT_MAX_BYTES) {
            snprintf(err, errlen, "-m: %llu bytes: the -D variant's blocks go up to 1 GiB",
                     (unsigned long long)sw->sizes_bytes[i]);
            return -1;
        }
    return 0;
}

/* The typed variant's block datatype for this size (none for 0 elements). */
void mg_coll_dt_begin(mg_ctx *c, uint64_t size)
{
    coll_state *s = state(c);
    const uint64_t n = size / esize(c);
    if (!mg_coll_typed(c) || n == 0)
        return;
    mg_dt_block_type(&prm(c)->dl, mg_coll_datatype(prm(c)->type), esize(c), n, &s->bdt);
    s->have_bdt = 1;
}

void mg_coll_dt_end(mg_ctx *c)
{
    coll_state *s = state(c);
    if (s->have_bdt)
        MG_MPI_CHECK(MPI_Type_free(&s->bdt));
    s->have_bdt = 0;
}

void mg_coll_dt_args(const mg_ctx *c, mg_coll_args *a)
{
    const coll_state *s = state(c);
    if (!mg_coll_typed(c))
        return;
    a->count = s->have_bdt ? 1 : 0;
    a->large = 0;
    if (s->have_bdt)
        a->dt = s->bdt;
}

mg_bench mg_coll_dt_form(mg_bench b, const coll_params *p, const char *const *labels)
{
    b.sweep.variant_name = "datatype";
    b.sweep.variants = mg_coll_two_variants; /* DT_PLAIN, DT_TYPED */
    b.sweep.variant_labels = labels;
    b.report.extra_names = mg_coll_extra_names(p);
    return b;
}

/* The labels: ELEM for the reference, LAYOUT/ELEM (vector:B:S/ELEM).
 * From the options as parsed (choose comes before resolve): a layout that
 * does not parse is refused by check. */
void mg_coll_dt_labels(const coll_params *p, mg_form *out)
{
    char err[128];
    mg_dt_layout l;
    /* -D's collectives move data: char by default */
    const char *elem = mg_elem_type_names[p->type < 0 ? MG_ELEM_CHAR : p->type];
    char *const typed = out->text + sizeof out->text / 2;
    if (mg_dt_parse(p->layout, &l, err, sizeof err) != 0)
        l.kind = MG_DT_CONTIGUOUS;
    snprintf(out->text, sizeof out->text / 2, "%s", elem);
    mg_dt_label(&l, elem, typed, sizeof out->text / 2);
    out->labels[0] = out->text;
    out->labels[1] = typed;
    out->labels[2] = NULL;
}
