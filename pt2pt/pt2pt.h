/* What the point-to-point descriptors share: the fields of a benchmark
 * between ranks 0 and 1, and the window option of the windowed bandwidth
 * benchmarks. */
#ifndef MG_PT2PT_H
#define MG_PT2PT_H

#include "mg_driver.h"

#include <stddef.h>

typedef struct {
    long window; /* messages in flight per iteration (-W) */
} mg_window_params;

static const mg_window_params mg_window_default = {64};

static const mg_opt mg_window_opts[] = {
    {'W', "window", MG_OPT_LONG, offsetof(mg_window_params, window), "N",
     "messages posted back to back per iteration (default 64)", 1, 65536, NULL},
    {0, NULL, MG_OPT_END, 0, NULL, NULL, 0, 0, NULL}};

/* Ranks 0 and 1 form the one pair. */
static inline void mg_pair_01(const mg_ctx *c, int *partner_of)
{
    (void)c;
    partner_of[0] = 1;
    partner_of[1] = 0;
}

/* Validation: this rank receives one message from its peer into slot 0. */
static inline int mg_recv_from_peer(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size;
    (void)max;
    if (c->peer < 0)
        return 0;
    from[0] = c->peer;
    return 1;
}

/* Descriptor fields of a 2-rank benchmark timed on rank 0. */
#define MG_PT2PT_PAIR_FIELDS                                                                 \
    .min_ranks = 2, .max_ranks = 2, .time_mode = MG_TIME_ROOT, .pairs = mg_pair_01

/* ... and of a windowed bandwidth benchmark (sizes 1 B to 4 MiB, -W). */
#define MG_PT2PT_WINDOW_BW_FIELDS                                                            \
    MG_PT2PT_PAIR_FIELDS, .metric = MG_METRIC_BANDWIDTH, .time_scale = 1.0, .min_size = 1,   \
        .default_min_size = 1, .default_max_size = 4194304, .headline = "Bandwidth (MB/s)",  \
        .opts = mg_window_opts, .params_size = sizeof(mg_window_params),                     \
        .params_default = &mg_window_default, .requests = window_requests

static inline long mg_window(const mg_ctx *c)
{
    return ((const mg_window_params *)c->params)->window;
}

/* Requests for W messages in each direction. */
static inline size_t window_requests(const mg_ctx *c) { return 2 * (size_t)mg_window(c); }

#endif
