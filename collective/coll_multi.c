/* SPDX-License-Identifier: BSD-3-Clause */
/* --multi P (IMB's -multi): the launch split into floor(N/P) disjoint
 * groups of P consecutive ranks, each running the collective on its own
 * communicator at the same time, as jobs share a machine and its network.
 * The driver starts every call on all ranks together (its barrier or start
 * window is over the whole launch) and takes the slowest rank of each
 * call, so a sample is the slowest group's call (IMB's -multi 0); the
 * extras add each group's median (the slowest of its ranks' medians): the
 * fastest and slowest group's and which group was slowest (IMB's -multi 1
 * prints them all; --per-rank gives every rank's). Rank r is rank r mod P
 * of group r / P: roots, buffers and validation use the rank in the group
 * (coll_int.h: crank, csize), and the ranks after the last whole group sit
 * the calls out. The communicators are made with MPI_Comm_split before the
 * run record and freed after the sweep. */
#include "coll_int.h"

#include <math.h>
#include <stdio.h>

int mg_coll_multi_check(const mg_ctx *c, const coll_params *p, char *err, size_t errlen)
{
    const char *with = p->ranks_spec    ? "--ranks-sweep"
                       : p->matrix_spec ? "--matrix"
                       : p->topo_spec   ? "--topo"
                                        : NULL;
    if (p->multi == 0)
        return 0;
    if (p->multi > c->nranks) {
        snprintf(err, errlen, "--multi %ld: more ranks per group than the launch's %d", p->multi,
                 c->nranks);
        return -1;
    }
    if (with) {
        snprintf(err, errlen, "--multi: does not combine with %s", with);
        return -1;
    }
    if (p->op->flags & (MG_COLL_NEIGHBOR | MG_COLL_LOCAL)) {
        snprintf(err, errlen, "--multi: %s has no groups (%s)", p->op->name,
                 p->op->flags & MG_COLL_LOCAL ? "it does not communicate"
                                              : "its topology spans the launch");
        return -1;
    }
    if (p->root != ROOT_ROTATE && p->root >= p->multi) {
        snprintf(err, errlen, "--root %ld: a group of --multi %ld has no such rank", p->root,
                 p->multi);
        return -1;
    }
    return 0;
}

static void setup(mg_ctx *c, uint64_t max_size)
{
    coll_state *s = state(c);
    const int P = (int)prm(c)->multi;
    (void)max_size;
    MG_MPI_CHECK(
        MPI_Comm_split(c->comm, cidle(c) ? MPI_UNDEFINED : c->rank / P, c->rank, &s->group));
    if (s->group != MPI_COMM_NULL)
        MG_MPI_CHECK(MPI_Comm_set_errhandler(s->group, MPI_ERRORS_RETURN));
}

static void teardown(mg_ctx *c)
{
    coll_state *s = state(c);
    if (s->group != MPI_COMM_NULL)
        MG_MPI_CHECK(MPI_Comm_free(&s->group));
}

void mg_coll_multi_extras(const mg_ctx *c, const double *rank_s, double *out)
{
    const int P = (int)prm(c)->multi;
    double lo = INFINITY, hi = -1.0;
    int slowest = 0;
    for (int g = 0; g < mg_coll_groups(c); ++g) {
        double t = 0.0;
        for (int r = g * P; r < (g + 1) * P; ++r)
            t = fmax(t, rank_s[r]);
        lo = fmin(lo, t);
        if (t > hi)
            hi = t, slowest = g;
    }
    out[0] = lo * 1e6;
    out[1] = hi * 1e6;
    out[2] = slowest;
}

mg_bench mg_coll_multi_form(mg_bench b, const coll_params *p)
{
    b.report.extra_names = mg_coll_extra_names(p);
    b.kernel.setup = setup;
    b.kernel.teardown = teardown;
    return b;
}
