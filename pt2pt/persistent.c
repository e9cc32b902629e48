/* SPDX-License-Identifier: BSD-3-Clause */
/* --persistent: see persistent.h. */
#include "persistent.h"

#include <math.h>

typedef struct {
    int n;            /* requests made */
    int have_msg;     /* msg was made for this size */
    mg_bytes_msg msg; /* the size as a count and a datatype */
} persist_state;

static persist_state *ps(const mg_ctx *c) { return c->state; }

void mg_persist_init(mg_ctx *c, int k, int send, void *buf, uint64_t size, int tag)
{
    persist_state *s = ps(c);
    if (!s->have_msg)
        mg_bytes_msg_make(&s->msg, size);
    s->have_msg = 1;
    if (send)
        MG_MPI_CHECK(
            MPI_Send_init(buf, s->msg.count, s->msg.dt, c->peer, tag, c->comm, &c->reqs[k]));
    else
        MG_MPI_CHECK(
            MPI_Recv_init(buf, s->msg.count, s->msg.dt, c->peer, tag, c->comm, &c->reqs[k]));
    if (k + 1 > s->n)
        s->n = k + 1;
}

void mg_persist_free(mg_ctx *c, uint64_t size)
{
    persist_state *s = ps(c);
    (void)size;
    for (int k = 0; k < s->n; ++k)
        MG_MPI_CHECK(MPI_Request_free(&c->reqs[k]));
    if (s->have_msg)
        mg_bytes_msg_free(&s->msg);
    s->n = 0;
    s->have_msg = 0;
}

const char *const mg_persist_labels[] = {"plain", "persistent", NULL};
const char *const mg_persist_extra_names[] = {"ratio_to_plain", NULL};

int mg_persist_variants(const mg_ctx *c, long *values, int max)
{
    (void)c;
    (void)max;
    values[0] = MG_CALLS_PLAIN;
    values[1] = MG_CALLS_PERSISTENT;
    return 2;
}

void mg_persist_extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                       double *out)
{
    (void)size, (void)rank_s;
    out[0] = c->ref && c->ref->median > 0 ? st->median / c->ref->median : 1.0;
}

void mg_persist_end_size(mg_ctx *c, uint64_t size)
{
    if (c->variant == MG_CALLS_PERSISTENT)
        mg_persist_free(c, size);
}

mg_bench mg_persist_form(mg_bench b, void (*iterate)(mg_ctx *, uint64_t, long),
                         void (*begin_size)(mg_ctx *, uint64_t))
{
    b.sweep.variant_name = "calls";
    b.sweep.variants = mg_persist_variants;
    b.sweep.variant_labels = mg_persist_labels;
    b.kernel.iterate = iterate;
    b.kernel.begin_size = begin_size;
    b.kernel.end_size = mg_persist_end_size;
    b.kernel.state_size = sizeof(persist_state);
    b.kernel.plain_calls = 1;
    b.report.extra_names = mg_persist_extra_names;
    b.report.extras = mg_persist_extras;
    return b;
}

int mg_persist_choose(const mg_ctx *c, const mg_bench *b, mg_form *out,
                      void (*iterate)(mg_ctx *, uint64_t, long),
                      void (*begin_size)(mg_ctx *, uint64_t))
{
    if (!mg_p2p(c)->persistent)
        return 0;
    const mg_bench form = mg_persist_form(*b, iterate, begin_size);
    mg_form_take(out, &form);
    return 1;
}
