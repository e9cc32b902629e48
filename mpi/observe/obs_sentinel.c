/* SPDX-License-Identifier: BSD-3-Clause */
/* The observer "sentinel" (--sentinel): a short fixed probe and the state
 * of every node before and after the sweep (mpi/observe/mg_sentinel.h), handed to
 * the run's sinks as records of their own:
 *   {"type":"sentinel","phase":"before"|"after", ...}   (doc/output.md)
 * It adds nothing to the rows. */
#include "mg_observe.h"

#include "mg_run.h"
#include "mg_sentinel.h"

static int sentinel_open(void *st, mg_ctx *ctx, char *err, size_t errlen)
{
    (void)st, (void)err, (void)errlen;
    return ctx->cfg->sentinel != 0;
}

static void sentinel_sweep(void *st, mg_ctx *ctx, int end, struct mg_sink *const *sink, int nsinks)
{
    (void)st;
    mg_sentinel_take(ctx, end ? "after" : "before", sink, nsinks);
}

const mg_observer mg_obs_sentinel = {
    .name = "sentinel", .open = sentinel_open, .sweep = sentinel_sweep};
