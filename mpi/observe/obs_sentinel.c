/* SPDX-License-Identifier: BSD-3-Clause */
/* The observer "sentinel" (--sentinel): a short fixed probe and the state
 * of every node before and after the sweep (mpi/observe/mg_sentinel.h), handed to
 * the run's sinks as records of their own:
 *   {"type":"sentinel","phase":"before"|"after", ...}   (doc/output.md)
 * It adds nothing to the rows. */
#include "mg_observe.h"

#include "mg_run.h"
#include "mg_sentinel.h"

#include <stddef.h>

extern const mg_observer mg_obs_sentinel;

typedef struct {
    int on; /* --sentinel */
} sentinel_params;

static const mg_opt sentinel_opts[] = {
    {.long_name = "sentinel",
     .type = MG_OPT_FLAG,
     .offset = offsetof(sentinel_params, on),
     .help =
         "before and after the sweep: an 8-byte ping-pong probe, the computation rate and every "
         "node's load (JSON records of type sentinel)",
     .key = ""},
    {.type = MG_OPT_END}};

static int sentinel_open(void *st, mg_ctx *ctx, char *err, size_t errlen)
{
    const sentinel_params *p = mg_observe_params(ctx, &mg_obs_sentinel);
    (void)st, (void)err, (void)errlen;
    return p != NULL && p->on;
}

static void sentinel_sweep(void *st, mg_ctx *ctx, int end, struct mg_sink *const *sink, int nsinks)
{
    (void)st;
    mg_sentinel_take(ctx, end ? "after" : "before", sink, nsinks);
}

const mg_observer mg_obs_sentinel = {.name = "sentinel",
                                     .opts = sentinel_opts,
                                     .params_size = sizeof(sentinel_params),
                                     .open = sentinel_open,
                                     .sweep = sentinel_sweep};
