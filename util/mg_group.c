/* SPDX-License-Identifier: BSD-3-Clause */
/* The four-call group: the one-rank fake and what is built on the calls
 * (mg_group.h). */
#include "mg_group.h"

#include <string.h>

static void solo_barrier(void *impl) { (void)impl; }

static void solo_bcast(void *impl, void *buf, size_t bytes, int root)
{
    (void)impl;
    (void)buf;
    (void)bytes;
    (void)root;
}

static void solo_copy(void *impl, const double *in, double *out, size_t n)
{
    (void)impl;
    if (n > 0 && in != out)
        memmove(out, in, n * sizeof *in);
}

static void solo_gather(void *impl, const double *in, size_t n, double *out)
{
    solo_copy(impl, in, out, n);
}

static const mg_group_ops solo_ops = {solo_barrier, solo_bcast, solo_copy, solo_gather};

void mg_group_solo(mg_group *g)
{
    g->ops = &solo_ops;
    g->impl = NULL;
    g->rank = 0;
    g->size = 1;
}

double mg_group_max(const mg_group *g, double mine)
{
    double all = mine;
    mg_group_reduce_max(g, &mine, &all, 1);
    mg_group_bcast(g, &all, sizeof all);
    return all;
}

int mg_group_all_true(const mg_group *g, int mine)
{
    return mg_group_max(g, mine ? 0.0 : 1.0) == 0.0;
}

int mg_group_agree_message(const mg_group *g, char *msg, size_t len)
{
    /* the lowest failing rank r gives the largest size - r */
    double first = mg_group_max(g, msg[0] ? (double)(g->size - g->rank) : 0.0);
    int root;
    if (first <= 0.0)
        return 0;
    root = g->size - (int)first;
    g->ops->bcast(g->impl, msg, len, root);
    msg[len - 1] = '\0';
    return -1;
}
