/* SPDX-License-Identifier: BSD-3-Clause */
/* The session: what the plan needs of MPI before anything is measured
 * (mg_run.h): topology, the rails and their groups, pairs, variants, the
 * memory guard, buffers, requests, the computation's calibration. */
#include "mg_run.h"

#include "mg_memlimit.h"

#include "mg_exit.h"
#include "mg_pairing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Which node every rank is on (nodes numbered in order of their lowest
 * rank), from MPI_Comm_split_type; O(nranks) per rank. */
int *mg_topology(mg_ctx *ctx)
{
    MPI_Comm node;
    int leader = ctx->rank, *leaders, *node_of;

    MG_MPI_CHECK(
        MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL, &node));
    MG_MPI_CHECK(MPI_Comm_rank(node, &ctx->local_rank));
    MG_MPI_CHECK(MPI_Comm_size(node, &ctx->local_ranks));
    MG_MPI_CHECK(MPI_Bcast(&leader, 1, MPI_INT, 0, node));
    leaders = malloc((size_t)ctx->nranks * sizeof *leaders);
    node_of = malloc((size_t)ctx->nranks * sizeof *node_of);
    if (!leaders || !node_of)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    MG_MPI_CHECK(MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, ctx->comm));
    /* freed once every rank has left the split (the allgather): see mg_turns_open */
    MG_MPI_CHECK(MPI_Comm_free(&node));
    ctx->nnodes = 0;
    for (int r = 0; r < ctx->nranks; ++r)
        node_of[r] = leaders[r] == r ? ctx->nnodes++ : node_of[leaders[r]];
    free(leaders);
    ctx->node_of = node_of;
    return node_of;
}

int mg_session_rails(mg_run *s, int *served, int *rc)
{
    mg_ctx *ctx = &s->ctx;
    MPI_Comm bc;
    char err[MG_ERRLEN];

    *served = 0;
    if (!s->b->kernel.rails)
        return 0;
    if (mg_multirail_setup(s->mr, &s->plan->rails, s->b->layout.max_ranks, ctx->comm, &bc,
                           &s->rail_helper, err, sizeof err) != 0) {
        *rc = mg_run_usage(s, err);
        return -1;
    }
    if (s->rail_helper) {
        *served = 1;
        *rc = mg_multirail_serve(s->mr);
        return -1;
    }
    if (bc != ctx->comm) {
        /* the benchmark runs on the rail groups' first processes */
        ctx->comm = bc;
        MG_MPI_CHECK(MPI_Comm_rank(bc, &ctx->rank));
        MG_MPI_CHECK(MPI_Comm_size(bc, &ctx->nranks));
        mg_group_mpi(&ctx->drv.group, &ctx->comm);
        free(s->node_of);
        s->node_of = mg_topology(ctx);
        mg_xfer_init(&ctx->xfer, bc);
    }
    mg_multirail_attach(s->mr, &ctx->xfer);
    return 0;
}

int mg_session_layout(mg_run *s)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;

    if (b->layout.pairs) {
        s->partner_of = malloc((size_t)ctx->nranks * sizeof *s->partner_of);
        if (s->partner_of == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
        b->layout.pairs(ctx, s->partner_of);
        if (!mg_pairing_is_valid(ctx->nranks, s->partner_of))
            mg_mpi_die(__FILE__, __LINE__, "the benchmark built an invalid pairing");
        ctx->partner_of = s->partner_of;
        ctx->peer = s->partner_of[ctx->rank];
    }
    s->nvariants = 1;
    if (b->sweep.variants) {
        s->nvariants = b->sweep.variants(ctx, s->variants, MG_MAX_VARIANTS);
        if (s->nvariants < 1)
            return mg_run_usage(s, "nothing to measure: the benchmark's variant list is empty");
    }
    return MG_EXIT_OK;
}

/* The -M guard: every rank's buffers (and the kernel's own memory, such as
 * an RMA window) within the limit (the largest need of any rank is named: a
 * root may need more). */
static int check_memory(mg_run *s, uint64_t max_size, size_t rbytes)
{
    mg_ctx *ctx = &s->ctx;
    const mg_bench *b = s->b;
    uint64_t need = (uint64_t)ctx->buf_bytes + (uint64_t)rbytes +
                    (b->kernel.other_bytes ? (uint64_t)b->kernel.other_bytes(ctx, max_size) : 0);
    const uint64_t node = mg_node_memory();
    int clamped = 0;
    uint64_t limit = mg_memory_guard(s->plan->cfg.max_memory, node, ctx->local_ranks,
                                     MG_MEMORY_SHARE_NUM, MG_MEMORY_SHARE_DEN, &clamped);
    char err[MG_ERRLEN];

    if (clamped) {
        /* a guard above what the node has lets the OOM killer end the run
         * without a word: say so, and record the guard used */
        if (ctx->rank == 0)
            fprintf(s->io.err,
                    "mpigauge_%s: note: -M %llu is more than this node can give each of its %d "
                    "rank%s (%llu bytes of %llu: physical memory or the cgroup's limit); the "
                    "guard is %llu\n",
                    s->b->id.name, (unsigned long long)s->plan->cfg.max_memory, ctx->local_ranks,
                    ctx->local_ranks == 1 ? "" : "s", (unsigned long long)limit,
                    (unsigned long long)node, (unsigned long long)limit);
        s->rec_cfg.max_memory = limit;
    }

    if (mg_group_all_true(&ctx->drv.group, need <= limit))
        return MG_EXIT_OK;
    need = (uint64_t)mg_group_max(&ctx->drv.group, (double)need);
    snprintf(err, sizeof err,
             "messages of %llu bytes need %llu bytes of buffers per rank, above the "
             "memory limit of %llu bytes (-M)",
             (unsigned long long)max_size, (unsigned long long)need, (unsigned long long)limit);
    return mg_run_usage(s, err);
}

static void alloc_requests(const mg_bench *b, mg_ctx *ctx)
{
    size_t nreq;
    if (!b->kernel.requests && !b->kernel.nrequests)
        return;
    nreq = b->kernel.requests ? b->kernel.requests(ctx) : 0;
    if (nreq < b->kernel.nrequests)
        nreq = b->kernel.nrequests;
    ctx->reqs = malloc((nreq ? nreq : 1) * sizeof *ctx->reqs);
    if (ctx->reqs == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory for requests");
}

int mg_session_resources(mg_run *s)
{
    const mg_bench *b = s->b;
    mg_ctx *ctx = &s->ctx;
    uint64_t max_size = mg_sweep_max(&s->plan->sweep);
    size_t rbytes;
    char err[MG_ERRLEN];
    int rc;

    ctx->buf_bytes = b->kernel.buf_bytes ? b->kernel.buf_bytes(ctx, max_size) : (size_t)max_size;
    rbytes = b->kernel.rbuf_bytes ? b->kernel.rbuf_bytes(ctx, max_size) : ctx->buf_bytes;
    if ((rc = check_memory(s, max_size, rbytes)) != MG_EXIT_OK)
        return rc;
    s->out.log = s->io.err;
    if (s->plan->cfg.output && !mg_out_open(&s->out, s->plan->cfg.output, &ctx->drv.group, err))
        return mg_run_usage(s, err);
    ctx->sbuf = mg_xfer_alloc(&ctx->xfer, ctx->buf_bytes);
    ctx->rbuf = mg_xfer_alloc(&ctx->xfer, rbytes);
    if (!mg_group_all_true(&ctx->drv.group, ctx->sbuf != NULL && ctx->rbuf != NULL)) {
        snprintf(err, sizeof err, "cannot allocate 2 x %zu bytes of buffers", ctx->buf_bytes);
        return mg_run_usage(s, err);
    }
    alloc_requests(b, ctx);
    if (b->kernel.compute)
        mg_calibrate_compute(ctx);
    if (b->kernel.setup)
        b->kernel.setup(ctx, max_size);
    {
        const mg_xfer_peers peers = {.comm = ctx->comm,
                                     .partner_of = ctx->partner_of,
                                     .rank = ctx->rank,
                                     .sbuf = ctx->sbuf,
                                     .rbuf = ctx->rbuf,
                                     .buf_bytes = ctx->buf_bytes};
        mg_xfer_prepare(&ctx->xfer, &peers);
    }
    return MG_EXIT_OK;
}
