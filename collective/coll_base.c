/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives (coll_int.h): the words every other collective module uses
 * and that use none of them: an op's kind of buffers, the element types,
 * the extras' names of each form, the two variants of a phase or a typed
 * run. The lowest of the modules: coll_bench, coll_dtype, coll_kernel,
 * coll_multi, coll_sweep and coll_verify call each other without a circle
 * above it (tests/code_rules.sh). */
#include "coll_int.h"

int mg_coll_kind(unsigned f)
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

MPI_Datatype mg_coll_datatype(int t)
{
    static const MPI_Datatype types[] = {MPI_SIGNED_CHAR, MPI_INT, MPI_FLOAT, MPI_DOUBLE,
                                         MPI_LONG_LONG};
    return types[t];
}

int mg_coll_two_variants(const mg_ctx *c, long *values, int max)
{
    (void)c;
    (void)max;
    values[0] = 0;
    values[1] = 1;
    return 2;
}

#define EXTRAS_BLOCKING "rank_min_us", "rank_max_us", "late", "alg_bw_GBs", "bus_bw_GBs"
#define EXTRAS_OVERLAP "pure_us", "compute_us", "overlap_pct", "rank_min_us", "rank_max_us", "late"
#define EXTRAS_GROUPS "group_min_us", "group_max_us", "slowest_group"

/* -D's ratio follows the blocking call's, --multi's groups come last. */
int mg_coll_typed_form(const coll_params *p)
{
    return p->layout != NULL && p->form == MG_FORM_BLOCKING;
}

const char *const *mg_coll_extra_names(const coll_params *p)
{
    static const char *const names[6][MG_MAX_EXTRA + 1] = {
        {EXTRAS_BLOCKING, NULL},
        {EXTRAS_BLOCKING, "ratio_to_plain", NULL},
        {EXTRAS_BLOCKING, EXTRAS_GROUPS, NULL},
        {EXTRAS_BLOCKING, "ratio_to_plain", EXTRAS_GROUPS, NULL},
        {EXTRAS_OVERLAP, NULL},
        {EXTRAS_OVERLAP, EXTRAS_GROUPS, NULL}};
    const int multi = p->multi > 0;
    return p->form != MG_FORM_BLOCKING ? names[4 + multi]
                                       : names[mg_coll_typed_form(p) + 2 * multi];
}
