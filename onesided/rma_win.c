/* SPDX-License-Identifier: BSD-3-Clause */
/* The window of the RMA programs (rma.h): its memory in each flavour, the
 * roles of every rank (whom it accesses, who accesses it, in which slot), the
 * post/start groups of pscw, and what the library reports of it.
 *
 * Layout: puts and accumulates land in this rank's window, one slot of
 * max_size bytes per origin that writes here (put_all: the origin's rank;
 * exchange: 0 from the left neighbour, 1 from the right); gets read the
 * target's slot 0 into rbuf, one slot per target. The origin's data is sbuf.
 */
#include "rma.h"

#include "mg_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_rma_win_names[] = {"create", "allocate", "dynamic", "shared", NULL};
const char *const mg_rma_sync_names[] = {"lock",  "lock_all", "flush", "flush_local",
                                         "fence", "pscw",     NULL};

int mg_rma_active(const mg_ctx *c)
{
    return rprm(c)->sync == SYNC_FENCE || rprm(c)->sync == SYNC_PSCW;
}

static int is_get(const mg_ctx *c) { return rprm(c)->prog->op == RMA_GET; }

/* One slot per rank (put_all, get_all), per neighbour (exchange), or one. */
static int pattern_slots(const mg_ctx *c)
{
    const int pat = rprm(c)->prog->pattern;
    return pat == PAT_ALL ? c->nranks : pat == PAT_EXCH ? 2 : 1;
}

int mg_rma_win_slots(const mg_ctx *c) { return is_get(c) ? 1 : pattern_slots(c); }

int mg_rma_res_slots(const mg_ctx *c)
{
    const int op = rprm(c)->prog->op;
    if (op == RMA_PUT || op == RMA_ACC)
        return 0;
    return op == RMA_GET ? pattern_slots(c) : 1;
}

size_t mg_rma_esize(const mg_ctx *c)
{
    const int op = rprm(c)->prog->op;
    return op == RMA_PUT || op == RMA_GET ? 1 : mg_elem_size((mg_elem_type)rprm(c)->type);
}

MPI_Datatype mg_rma_datatype(const mg_ctx *c)
{
    static const MPI_Datatype types[] = {MPI_SIGNED_CHAR, MPI_INT, MPI_FLOAT, MPI_DOUBLE,
                                         MPI_LONG_LONG};
    const int op = rprm(c)->prog->op;
    return op == RMA_PUT || op == RMA_GET ? MPI_BYTE : types[rprm(c)->type];
}

MPI_Op mg_rma_op(const mg_ctx *c)
{
    static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_REPLACE, MPI_NO_OP};
    return rprm(c)->red >= 0 ? ops[rprm(c)->red] : MPI_SUM;
}

/* sbuf: the origin's data (cas: and room for its compare value). */
size_t mg_rma_buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    (void)c;
    return (size_t)max_size + 64;
}

size_t mg_rma_rbuf_bytes(const mg_ctx *c, uint64_t max_size)
{
    return (size_t)mg_rma_res_slots(c) * (size_t)max_size + 64;
}

/* The window's memory: MPI's (allocate, shared) or ours (create, dynamic),
 * in whole pages. MPICH 4.0.2 (ch4) puts the atomics of an MPI_Win_allocate
 * window whose size is not a multiple of 16 bytes at the wrong address (a
 * 68-byte window: MPI_Fetch_and_op reads and writes elsewhere; -c of
 * fop_latency found it; doc/onesided.md). */
size_t mg_rma_other_bytes(const mg_ctx *c, uint64_t max_size)
{
    const size_t page = 4096, bytes = (size_t)mg_rma_win_slots(c) * (size_t)max_size + 64;
    return (bytes + page - 1) / page * page;
}

/* ---- roles ---- */

static void add_target(rma_role *r, int rank, int slot)
{
    r->targets[r->ntargets] = rank;
    r->tslot[r->ntargets++] = slot;
}

static void add_origin(rma_role *r, int rank, int slot)
{
    r->origins[r->norigins] = rank;
    r->oslot[r->norigins++] = slot;
}

/* Phase p of a 2-rank pattern: `from` accesses `to`. */
static void one_way(const mg_ctx *c, rma_role *r, int from, int to)
{
    if (c->rank == from)
        add_target(r, to, 0);
    if (c->rank == to)
        add_origin(r, from, 0);
}

static void roles_all(const mg_ctx *c, rma_role *r)
{
    const int every = rprm(c)->origins, get = is_get(c);
    for (int q = 0; q < c->nranks; ++q) {
        if (q == c->rank)
            continue;
        if (every || c->rank == 0)
            add_target(r, q, get ? q : c->rank);
        if (every || q == 0)
            add_origin(r, q, q);
    }
}

static void roles_exchange(const mg_ctx *c, rma_role *r)
{
    const int left = (c->rank + c->nranks - 1) % c->nranks, right = (c->rank + 1) % c->nranks;
    /* at the right neighbour this rank is the left one (slot 0), and the
     * other way round; a get reads the right neighbour into slot 0 here */
    add_target(r, right, 0);
    add_target(r, left, 1);
    add_origin(r, left, 0);
    add_origin(r, right, 1);
}

static MPI_Group group_of(const mg_ctx *c, const int *ranks, int n)
{
    MPI_Group all, g;
    int *uniq = malloc((size_t)(n ? n : 1) * sizeof *uniq), k = 0;
    if (uniq == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    for (int i = 0; i < n; ++i) {
        int seen = 0;
        for (int j = 0; j < k; ++j)
            seen |= uniq[j] == ranks[i];
        if (!seen)
            uniq[k++] = ranks[i];
    }
    MG_MPI_CHECK(MPI_Comm_group(c->comm, &all));
    MG_MPI_CHECK(MPI_Group_incl(all, k, uniq, &g));
    MG_MPI_CHECK(MPI_Group_free(&all));
    free(uniq);
    return g;
}

static void make_roles(mg_ctx *c)
{
    rma_state *s = rstate(c);
    const int pat = rprm(c)->prog->pattern;
    s->nphases = pat == PAT_LAT && mg_rma_active(c) ? 2 : 1;
    for (int p = 0; p < s->nphases; ++p) {
        rma_role *r = &s->role[p];
        size_t n = (size_t)c->nranks + 2;
        r->targets = calloc(n, sizeof *r->targets);
        r->tslot = calloc(n, sizeof *r->tslot);
        r->origins = calloc(n, sizeof *r->origins);
        r->oslot = calloc(n, sizeof *r->oslot);
        if (!r->targets || !r->tslot || !r->origins || !r->oslot)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
        if (pat == PAT_ALL)
            roles_all(c, r);
        else if (pat == PAT_EXCH)
            roles_exchange(c, r);
        else if (pat == PAT_MR && c->peer >= 0)
            one_way(c, r, c->rank < c->peer ? c->rank : c->peer,
                    c->rank < c->peer ? c->peer : c->rank);
        else if (pat == PAT_BIBW) {
            one_way(c, r, 0, 1);
            one_way(c, r, 1, 0);
        } else if (pat != PAT_MR)
            one_way(c, r, p == 0 ? 0 : 1, p == 0 ? 1 : 0);
        r->tgroup = r->ntargets ? group_of(c, r->targets, r->ntargets) : MPI_GROUP_NULL;
        r->ogroup = r->norigins ? group_of(c, r->origins, r->norigins) : MPI_GROUP_NULL;
    }
}

/* ---- the window ---- */

static void make_window(mg_ctx *c, size_t bytes)
{
    rma_state *s = rstate(c);
    const int flavour = rprm(c)->win;
    MPI_Aint mine = 0;

    s->win_bytes = bytes;
    switch (flavour) {
    case WIN_ALLOCATE:
        MG_MPI_CHECK(
            MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, c->comm, &s->base, &s->win));
        break;
    case WIN_SHARED:
        MG_MPI_CHECK(
            MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, c->comm, &s->base, &s->win));
        break;
    case WIN_DYNAMIC:
        s->base = mg_buf_alloc(bytes);
        MG_MPI_CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, c->comm, &s->win));
        MG_MPI_CHECK(MPI_Win_attach(s->win, s->base, (MPI_Aint)bytes));
        MG_MPI_CHECK(MPI_Get_address(s->base, &mine));
        break;
    default:
        s->base = mg_buf_alloc(bytes);
        MG_MPI_CHECK(MPI_Win_create(s->base, (MPI_Aint)bytes, 1, MPI_INFO_NULL, c->comm, &s->win));
    }
    if (s->base == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory for the window");
    MG_MPI_CHECK(MPI_Win_set_errhandler(s->win, MPI_ERRORS_RETURN));
    s->disp0 = calloc((size_t)c->nranks, sizeof *s->disp0);
    if (s->disp0 == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    MG_MPI_CHECK(MPI_Allgather(&mine, 1, MPI_AINT, s->disp0, 1, MPI_AINT, c->comm));
    memset(s->base, 0, bytes);
}

/* What the library says: memory model, flavour, info keys. */
static void query_window(rma_state *s)
{
    int *val, flag = 0, nkeys = 0;
    MPI_Info info;

    MG_MPI_CHECK(MPI_Win_get_attr(s->win, MPI_WIN_MODEL, &val, &flag));
    s->model = flag ? *val : -1;
    MG_MPI_CHECK(MPI_Win_get_attr(s->win, MPI_WIN_CREATE_FLAVOR, &val, &flag));
    s->flavor = flag ? *val : -1;
    MG_MPI_CHECK(MPI_Win_get_info(s->win, &info));
    MG_MPI_CHECK(MPI_Info_get_nkeys(info, &nkeys));
    s->ninfo = 0;
    for (int k = 0; k < nkeys && s->ninfo < RMA_INFO_MAX; ++k) {
        char key[MPI_MAX_INFO_KEY + 1], value[RMA_INFO_LEN];
        int vlen = 0, has = 0;
        MG_MPI_CHECK(MPI_Info_get_nthkey(info, k, key));
        MG_MPI_CHECK(MPI_Info_get_valuelen(info, key, &vlen, &has));
        if (!has || vlen >= (int)sizeof value)
            continue;
        MG_MPI_CHECK(MPI_Info_get(info, key, (int)sizeof value - 1, value, &has));
        snprintf(s->info[s->ninfo++], RMA_INFO_LEN, "%.31s=%.31s", key, value);
    }
    MG_MPI_CHECK(MPI_Info_free(&info));
}

void mg_rma_setup(mg_ctx *c, uint64_t max_size)
{
    rma_state *s = rstate(c);
    s->slot_bytes = (size_t)max_size;
    make_window(c, mg_rma_other_bytes(c, max_size));
    make_roles(c);
    query_window(s);
    s->marker = 1;
}

void mg_rma_teardown(mg_ctx *c)
{
    rma_state *s = rstate(c);
    if (s->win == MPI_WIN_NULL || s->disp0 == NULL)
        return;
    for (int p = 0; p < s->nphases; ++p) {
        rma_role *r = &s->role[p];
        if (r->tgroup != MPI_GROUP_NULL)
            MG_MPI_CHECK(MPI_Group_free(&r->tgroup));
        if (r->ogroup != MPI_GROUP_NULL)
            MG_MPI_CHECK(MPI_Group_free(&r->ogroup));
        free(r->targets);
        free(r->tslot);
        free(r->origins);
        free(r->oslot);
    }
    if (rprm(c)->win == WIN_DYNAMIC)
        MG_MPI_CHECK(MPI_Win_detach(s->win, s->base));
    MG_MPI_CHECK(MPI_Win_free(&s->win));
    if (rprm(c)->win == WIN_CREATE || rprm(c)->win == WIN_DYNAMIC)
        mg_buf_free(s->base);
    free(s->disp0);
    s->disp0 = NULL;
}

void mg_rma_self_lock(const mg_ctx *c)
{
    MG_MPI_CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c->rank, 0, rstate(c)->win));
}

void mg_rma_self_unlock(const mg_ctx *c)
{
    MG_MPI_CHECK(MPI_Win_sync(rstate(c)->win));
    MG_MPI_CHECK(MPI_Win_unlock(c->rank, rstate(c)->win));
}

static const char *flavor_name(int f)
{
    return f == MPI_WIN_FLAVOR_CREATE     ? "create"
           : f == MPI_WIN_FLAVOR_ALLOCATE ? "allocate"
           : f == MPI_WIN_FLAVOR_DYNAMIC  ? "dynamic"
           : f == MPI_WIN_FLAVOR_SHARED   ? "shared"
                                          : "unknown";
}

void mg_rma_describe(const mg_ctx *c, mg_kvlist *out)
{
    static const char *const calls[] = {"MPI_Put",          "MPI_Get",
                                        "MPI_Accumulate",   "MPI_Get_accumulate",
                                        "MPI_Fetch_and_op", "MPI_Compare_and_swap"};
    const rma_state *s = rstate(c);
    mg_kv_object(out, "window");
    mg_kv_string(out, "call", calls[rprm(c)->prog->op]);
    mg_kv_string(out, "flavor", mg_rma_win_names[rprm(c)->win]);
    mg_kv_string(out, "sync", mg_rma_sync_names[rprm(c)->sync]);
    mg_kv_string(out, "win_create_flavor", flavor_name(s->flavor));
    mg_kv_string(out, "win_model",
                 s->model == MPI_WIN_UNIFIED    ? "unified"
                 : s->model == MPI_WIN_SEPARATE ? "separate"
                                                : "unknown");
    mg_kv_number(out, "bytes_per_rank", (double)s->win_bytes);
    mg_kv_array(out, "info");
    for (int i = 0; i < s->ninfo; ++i)
        mg_kv_string(out, NULL, s->info[i]);
    mg_kv_end(out);
    mg_kv_end(out);
}
