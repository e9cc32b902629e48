/* SPDX-License-Identifier: BSD-3-Clause */
/* -T/-D for latency, bw and bibw: see dtype.h. */
#include "dtype.h"
#include "mg_dtype.h"
#include "mg_pattern.h"
#include "mg_size.h"
#include "persistent.h"

#include <stdlib.h>
#include <string.h>

const char *const mg_dt_elem_names[] = {"char", "int", "float", "double", NULL};
static const size_t elem_size[] = {1, sizeof(int), sizeof(float), sizeof(double)};

#define MG_DT_MAX_BYTES (1ull << 30)

/* ------------------------------------------------------------------ */
/* The typed variant's state and datatype                             */
/* ------------------------------------------------------------------ */

typedef struct {
    mg_dt_layout l;
    size_t e;
    MPI_Datatype elem, dt;
    int count, have_dt, installed;
    uint64_t size;
    MPI_Comm comm;
    const char *lo[2], *hi[2]; /* sbuf and rbuf: the typed messages' buffers */
    mg_xfer saved;
} dt_state;

/* -T's element types (mg_dt_elem_names' order); handles are not constant
 * expressions under every MPI, so a switch rather than a table */
static MPI_Datatype elem_type(int elem)
{
    switch (elem) {
    case 1: return MPI_INT;
    case 2: return MPI_FLOAT;
    case 3: return MPI_DOUBLE;
    default: return MPI_CHAR;
    }
}

/* The derived datatype of n > 0 elements (count 1), or the element itself. */
static void build(dt_state *s, uint64_t n)
{
    s->have_dt = mg_dt_type(&s->l, s->elem, s->e, n, &s->dt, &s->count);
}

/* ------------------------------------------------------------------ */
/* The transfer layer's ops for the typed variant                     */
/* ------------------------------------------------------------------ */

/* A message of the typed variant: the size, in sbuf or rbuf (not an
 * acknowledgement on the stack). */
/* The count and datatype of a message: the typed variant's for a message
 * of the size in sbuf or rbuf, bytes for anything else (an acknowledgement
 * on the stack). One test per message, inside the timed loop. */
static int message(const dt_state *s, const void *buf, size_t bytes, MPI_Datatype *dt)
{
    const char *p = buf;
    if (bytes == s->size && ((p >= s->lo[0] && p < s->hi[0]) || (p >= s->lo[1] && p < s->hi[1]))) {
        *dt = s->dt;
        return s->count;
    }
    *dt = MPI_BYTE;
    return (int)bytes;
}

static void post(void *impl, int send, const void *buf, size_t bytes, int peer, int tag,
                 MPI_Request *req)
{
    dt_state *s = impl;
    MPI_Datatype dt;
    int count = message(s, buf, bytes, &dt);
    if (send)
        MG_MPI_CHECK(MPI_Isend(buf, count, dt, peer, tag, s->comm, req));
    else
        MG_MPI_CHECK(MPI_Irecv((void *)buf, count, dt, peer, tag, s->comm, req));
}

static void complete(void *impl, int n, MPI_Request *reqs)
{
    (void)impl;
    mg_mpi_waitall(n, reqs);
}

static void blocking(void *impl, int send, const void *buf, size_t bytes, int peer, int tag)
{
    dt_state *s = impl;
    MPI_Datatype dt;
    int count = message(s, buf, bytes, &dt);
    if (send)
        MG_MPI_CHECK(MPI_Send(buf, count, dt, peer, tag, s->comm));
    else
        MG_MPI_CHECK(MPI_Recv((void *)buf, count, dt, peer, tag, s->comm, MPI_STATUS_IGNORE));
}

static const mg_xfer_ops typed_ops = {.post = post, .complete = complete, .blocking = blocking};

static const mg_pt2pt_params *prm(const mg_ctx *c) { return mg_p2p(c); }

static void layout_of(const mg_ctx *c, mg_dt_layout *l)
{
    char err[128];
    if (prm(c)->layout == NULL || mg_dt_parse(prm(c)->layout, l, err, sizeof err) != 0) {
        memset(l, 0, sizeof *l);
        l->kind = MG_DT_BASIC;
    }
}

static uint64_t extent(const mg_ctx *c, uint64_t size)
{
    mg_dt_layout l;
    layout_of(c, &l);
    return mg_dt_extent(&l, elem_size[prm(c)->elem], size);
}

static void dt_begin_size(mg_ctx *c, uint64_t size)
{
    dt_state *s = c->state;
    if (c->variant != MG_DT_VARIANT_TYPED)
        return;
    layout_of(c, &s->l);
    s->e = elem_size[prm(c)->elem];
    s->elem = elem_type(prm(c)->elem);
    s->size = size;
    s->comm = c->comm;
    s->lo[0] = c->sbuf, s->hi[0] = (const char *)c->sbuf + c->buf_bytes;
    s->lo[1] = c->rbuf, s->hi[1] = (const char *)c->rbuf + c->buf_bytes;
    if (size / s->e == 0) {
        s->count = 0, s->dt = s->elem, s->have_dt = 0;
    } else {
        build(s, size / s->e);
    }
    s->saved = c->xfer;
    c->xfer.ops = &typed_ops;
    c->xfer.impl = s;
    c->xfer.fast_max = 0;
    s->installed = 1;
}

static void dt_end_size(mg_ctx *c, uint64_t size)
{
    dt_state *s = c->state;
    (void)size;
    if (!s->installed)
        return;
    c->xfer = s->saved;
    if (s->have_dt)
        MG_MPI_CHECK(MPI_Type_free(&s->dt));
    s->have_dt = 0;
    s->installed = 0;
}

/* ------------------------------------------------------------------ */
/* Buffers and validation                                             */
/* ------------------------------------------------------------------ */

/* The program's own descriptor (c->base) gives the plain buffers and who
 * sends to whom; the datatype form widens the buffers to the extent. */
static size_t dt_buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    size_t base =
        c->base->kernel.buf_bytes ? c->base->kernel.buf_bytes(c, max_size) : (size_t)max_size;
    size_t ext = (size_t)extent(c, max_size);
    return ext > base ? ext : base;
}

/* The layout of the current variant: bytes are one block of char. */
static void current(const mg_ctx *c, mg_dt_layout *l, size_t *e)
{
    if (c->variant == MG_DT_VARIANT_TYPED) {
        layout_of(c, l);
        *e = elem_size[prm(c)->elem];
    } else {
        memset(l, 0, sizeof *l);
        *e = 1;
    }
}

static int sender_of_mine(const mg_ctx *c, uint64_t size)
{
    int from[MG_LIST_MAX];
    return c->base->valid.recv_slots(c, size, from, MG_LIST_MAX) > 0 ? from[0] : -1;
}

static void dt_fill(mg_ctx *c, uint64_t size, int pass)
{
    mg_dt_layout l;
    size_t e;
    int from = sender_of_mine(c, size);
    current(c, &l, &e);
    uint64_t ext = mg_dt_extent(&l, e, size);
    mg_pattern_fill(c->sbuf, (size_t)ext, mg_pattern_seed(c->rank, size, (uint64_t)pass));
    if (from >= 0)
        mg_pattern_poison(c->rbuf, (size_t)ext, mg_pattern_seed(from, size, (uint64_t)pass));
}

static int dt_verify(mg_ctx *c, uint64_t size, int pass, char *err, size_t errlen)
{
    mg_dt_layout l;
    size_t e;
    int from = sender_of_mine(c, size);
    const unsigned char *buf = c->rbuf;
    uint64_t seed, bad = 0;
    int gap = 0;
    if (from < 0)
        return 0;
    current(c, &l, &e);
    seed = mg_pattern_seed(from, size, (uint64_t)pass);
    if (mg_dt_check(&l, e, size, buf, seed, seed, &bad, &gap) == 0)
        return 0;
    snprintf(err, errlen,
             "rank %d, size %llu, pass %d, datatype variant %ld: message from rank %d: %s byte "
             "at offset %llu is 0x%02x",
             c->rank, (unsigned long long)size, pass, c->variant, from,
             gap ? "gap (must stay untouched)" : "payload", (unsigned long long)bad, buf[bad]);
    return -1;
}

/* ------------------------------------------------------------------ */
/* The form                                                           */
/* ------------------------------------------------------------------ */

static const char *const extra_names[] = {"ratio_to_bytes", NULL};

static int wants_types(const mg_ctx *c)
{
    return mg_ctx_given(c, "type") || mg_ctx_given(c, "layout");
}

mg_bench mg_dt_form(mg_bench b, const char *const *labels, size_t elem_bytes)
{
    b.sweep.variant_name = "datatype";
    b.sweep.variants = mg_persist_variants;
    b.sweep.variant_labels = labels;
    b.kernel.begin_size = dt_begin_size;
    b.kernel.end_size = dt_end_size;
    b.kernel.state_size = sizeof(dt_state);
    b.kernel.buf_bytes = dt_buf_bytes;
    b.kernel.plain_calls = 1;
    b.valid.fill = dt_fill;
    b.valid.verify = dt_verify;
    b.report.extra_names = extra_names;
    b.report.extras = mg_persist_extras;
    if (b.sizes.default_min_size < elem_bytes)
        b.sizes.default_min_size = elem_bytes;
    return b;
}

int mg_p2p_choose(const mg_ctx *c, const mg_bench *b, mg_form *out,
                  void (*iterate_persistent)(mg_ctx *, uint64_t, long),
                  void (*begin_persistent)(mg_ctx *, uint64_t))
{
    char *label = out->text;
    const size_t nlabel = sizeof out->text;
    mg_dt_layout l;
    if (!wants_types(c) || prm(c)->persistent)
        return mg_persist_choose(c, b, out, iterate_persistent, begin_persistent);
    out->labels[0] = "bytes";
    out->labels[1] = label;
    out->labels[2] = NULL;
    layout_of(c, &l);
    mg_dt_label(&l, mg_dt_elem_names[prm(c)->elem], label, nlabel);
    const mg_bench form = mg_dt_form(*b, out->labels, elem_size[prm(c)->elem]);
    mg_form_take(out, &form);
    return 1;
}

/* Every size of -m a whole number of elements, at most 1 GiB. */
static int check_sizes(const mg_ctx *c, size_t e, char *err, size_t errlen)
{
    const mg_sweep *sw = c->sizes; /* the plan's parse of -m */
    int rc = 0;
    if (c->cfg->sizes_spec == NULL || sw == NULL)
        return 0;
    for (size_t i = 0; i < sw->n && rc == 0; ++i) {
        if (sw->sizes_bytes[i] % e != 0) {
            snprintf(err, errlen, "-m: size %llu is not a whole number of %s elements (%zu bytes)",
                     (unsigned long long)sw->sizes_bytes[i], mg_dt_elem_names[prm(c)->elem], e);
            rc = -1;
        } else if (sw->sizes_bytes[i] > MG_DT_MAX_BYTES) {
            snprintf(err, errlen, "-m: size %llu: typed messages go up to 1 GiB",
                     (unsigned long long)sw->sizes_bytes[i]);
            rc = -1;
        }
    }
    return rc;
}

int mg_p2p_check(const mg_ctx *c, char *err, size_t errlen)
{
    mg_dt_layout l;
    if (!wants_types(c))
        return 0;
    if (prm(c)->persistent) {
        snprintf(err, errlen, "--persistent and -T/-D are two comparisons: choose one");
        return -1;
    }
    if (prm(c)->multiple) {
        snprintf(err, errlen, "-T/-D take -b single (derived layouts span more than N bytes)");
        return -1;
    }
    if (prm(c)->layout && mg_dt_parse(prm(c)->layout, &l, err, errlen) != 0)
        return -1;
    return check_sizes(c, elem_size[prm(c)->elem], err, errlen);
}
