/* SPDX-License-Identifier: BSD-3-Clause */
/* What the point-to-point descriptors share: their options (window, buffers,
 * pairing), buffer slots, pairs and the common descriptor fields. */
#ifndef MG_PT2PT_H
#define MG_PT2PT_H

#include "mg_bench.h"
#include "mg_pairing.h"

#include <math.h>
#include <stddef.h>

typedef struct {
    long window;        /* -W (qbw: -Q) messages in flight */
    int multiple;       /* -b: 0 one buffer, 1 one buffer per window slot */
    int pairing;        /* --pairing: mg_pairing_mode */
    int persistent;     /* --persistent: also persistent requests (latency, bw, bibw) */
    int elem;           /* -T: element type (pt2pt/dtype.h) */
    const char *layout; /* -D: derived layout, or NULL */
} mg_pt2pt_params;

static const char *const mg_buffer_modes[] = {"single", "multiple", NULL};
static const char *const mg_pairing_modes[] = {"block", "cyclic", "internode", NULL};

#define MG_OPT_WINDOW                                                                              \
    {                                                                                              \
        .short_name = 'W', .long_name = "window", .type = MG_OPT_LONG,                             \
        .offset = offsetof(mg_pt2pt_params, window), .arg_name = "N",                              \
        .help = "messages posted back to back per iteration", .min = 1, .max = 65536, .def = "64"  \
    }
#define MG_OPT_BUFFERS                                                                             \
    {                                                                                              \
        .short_name = 'b', .long_name = "buffers", .type = MG_OPT_CHOICE,                          \
        .offset = offsetof(mg_pt2pt_params, multiple), .arg_name = "single|multiple",              \
        .help = "one buffer for all messages, or one per window slot", .choices = mg_buffer_modes, \
        .def = "single"                                                                            \
    }
#define MG_OPT_PAIRING                                                                             \
    {                                                                                              \
        .long_name = "pairing", .type = MG_OPT_CHOICE,                                             \
        .offset = offsetof(mg_pt2pt_params, pairing), .arg_name = "block|cyclic|internode",        \
        .help = "pairs: i with i+P/2, 2i with 2i+1, or across nodes when possible",                \
        .choices = mg_pairing_modes, .def = "block"                                                \
    }
#define MG_OPT_PERSISTENT                                                                          \
    {                                                                                              \
        .long_name = "persistent", .type = MG_OPT_FLAG,                                            \
        .offset = offsetof(mg_pt2pt_params, persistent),                                           \
        .help = "also measure persistent requests (MPI_Send_init, MPI_Recv_init, MPI_Start): the " \
                "variant calls=plain|persistent, the plain calls the reference"                    \
    }
#define MG_OPT_LAST                                                                                \
    {                                                                                              \
        .type = MG_OPT_END                                                                         \
    }

static inline const mg_pt2pt_params *mg_p2p(const mg_ctx *c)
{
    return (const mg_pt2pt_params *)c->params;
}

static inline long mg_window(const mg_ctx *c) { return mg_p2p(c)->window; }

/* Buffer slot k of base for messages of `size` bytes (slot 0 with -b single). */
static inline char *mg_slot(const mg_ctx *c, void *base, uint64_t size, long k)
{
    return (char *)base + (mg_p2p(c)->multiple ? (size_t)k * size : 0);
}

/* Slots per buffer: the window with -b multiple, else 1. */
static inline int mg_nslots(const mg_ctx *c) { return mg_p2p(c)->multiple ? (int)mg_window(c) : 1; }

static inline size_t mg_window_buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    return (size_t)mg_nslots(c) * (size_t)max_size;
}

static inline int mg_window_send_slots(const mg_ctx *c, uint64_t size)
{
    (void)size;
    return mg_nslots(c);
}

/* Every receive slot holds a message from rank `from_rank`. */
static inline int mg_slots_from(const mg_ctx *c, int from_rank, int *from, int max)
{
    int n = mg_nslots(c) < max ? mg_nslots(c) : max;
    for (int i = 0; i < n; ++i)
        from[i] = from_rank;
    return n;
}

/* Requests for W messages in each direction. */
static inline size_t mg_window_requests(const mg_ctx *c) { return 2 * (size_t)mg_window(c); }

/* Ranks 0 and 1 form the one pair. */
static inline void mg_pair_01(const mg_ctx *c, int *partner_of)
{
    (void)c;
    partner_of[0] = 1;
    partner_of[1] = 0;
}

/* Pairs chosen by --pairing. */
static inline void mg_pairs_by_option(const mg_ctx *c, int *partner_of)
{
    mg_pairing((mg_pairing_mode)mg_p2p(c)->pairing, c->nranks, c->node_of, partner_of);
}

/* This rank starts each exchange of its pair (the lower rank). */
static inline int mg_initiator(const mg_ctx *c) { return c->peer >= 0 && c->rank < c->peer; }

/* Validation: this rank receives one message from its peer (any params). */
static inline int mg_recv_from_peer(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size;
    (void)max;
    if (c->peer < 0)
        return 0;
    from[0] = c->peer;
    return 1;
}

/* Validation, windowed benchmarks (params are mg_pt2pt_params): this rank
 * receives from its peer into every window slot. */
static inline int mg_recv_window_from_peer(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size;
    return c->peer < 0 ? 0 : mg_slots_from(c, c->peer, from, max);
}

/* ... and only the receiving side of each pair gets payload. */
static inline int mg_recv_if_receiver(const mg_ctx *c, uint64_t size, int *from, int max)
{
    return c->peer < 0 || mg_initiator(c) ? 0 : mg_recv_window_from_peer(c, size, from, max);
}

/* Windowed streaming (bw, mbw_mr): per iteration the pair's initiator posts
 * W non-blocking sends of `size` bytes from its window slots, the other rank
 * the W receives; then the receiver returns a 4-byte acknowledgement, so an
 * iteration ends when the data has arrived. Idle ranks return at once. */
static inline void mg_window_stream(mg_ctx *c, uint64_t size, long iters)
{
    enum { TAG_DATA = 1, TAG_ACK = 2, ACK_BYTES = 4 };
    const mg_xfer *x = &c->xfer;
    const int w = (int)mg_window(c), send = mg_initiator(c);
    char ack[ACK_BYTES] = {0};
    if (c->peer < 0)
        return;
    for (long i = 0; i < iters; ++i) {
        for (int k = 0; k < w; ++k) {
            if (send)
                mg_xfer_isend(x, mg_slot(c, c->sbuf, size, k), size, c->peer, TAG_DATA,
                              &c->reqs[k]);
            else
                mg_xfer_irecv(x, mg_slot(c, c->rbuf, size, k), size, c->peer, TAG_DATA,
                              &c->reqs[k]);
        }
        mg_xfer_waitall(&c->xfer, w, c->reqs);
        if (send)
            mg_xfer_recv(x, ack, ACK_BYTES, c->peer, TAG_ACK);
        else
            mg_xfer_send(x, ack, ACK_BYTES, c->peer, TAG_ACK);
    }
}

/* Descriptor fields of a 2-rank benchmark timed on rank 0. */
#define MG_PT2PT_PAIR_FIELDS                                                                       \
    .layout.min_ranks = 2, .layout.max_ranks = 2, .timing.time_mode = MG_TIME_ROOT,                \
    .layout.pairs = mg_pair_01

/* ... and of a windowed bandwidth benchmark (sizes 1 B to 4 MiB, -W, -b);
 * the options' defaults are in their rows (MG_OPT_WINDOW, MG_OPT_BUFFERS). */
#define MG_PT2PT_WINDOW_FIELDS                                                                     \
    MG_PT2PT_BW_SWEEP,                                                                             \
        .params.params_size = sizeof(mg_pt2pt_params), .kernel.requests = mg_window_requests,      \
        .kernel.buf_bytes = mg_window_buf_bytes, .valid.send_slots = mg_window_send_slots
/* The bandwidth metric and its sweep, 1 B to 4 MiB. */
#define MG_PT2PT_BW_SWEEP                                                                          \
    .timing.metric = MG_METRIC_BANDWIDTH, .timing.time_scale = 1.0, .sizes.min_size = 1,           \
    .sizes.default_min_size = 1, .sizes.default_max_size = 4194304,                                \
    .report.headline = "Bandwidth (MB/s)"

/* Fields of a latency benchmark: us per iteration x scale, sizes 0 to 4 MiB. */
#define MG_PT2PT_LATENCY_FIELDS(scale) MG_PT2PT_LATENCY_SWEEP(scale, 0, 4194304)
/* The same with the default sweep from dmin to dmax bytes. */
#define MG_PT2PT_LATENCY_SWEEP(scale, dmin, dmax)                                                  \
    .report.headline = "Latency (us)", .timing.metric = MG_METRIC_LATENCY,                         \
    .timing.time_scale = (scale), .sizes.min_size = 0, .sizes.default_min_size = (dmin),           \
    .sizes.default_max_size = (dmax)

/* Extras of a pattern of `msgs` messages of `size` bytes per iteration over
 * all ranks (stencil, random): the messages, and from the median time in us
 * their aggregate bandwidth (MB/s) and message rate (IMB-P2P's Mbytes/sec
 * and Msg/sec); names in MG_MSG_EXTRA_NAMES' order. */
#define MG_MSG_EXTRA_NAMES                                                                         \
    {                                                                                              \
        "messages", "MB/s", "msg_rate_per_s", NULL                                                 \
    }
static inline void mg_msg_extras(double msgs, uint64_t size, const mg_stats *st, double *out)
{
    out[0] = msgs;
    out[1] = st->median > 0 ? msgs * (double)size / st->median : NAN;
    out[2] = st->median > 0 ? msgs * 1e6 / st->median : NAN;
}

/* Neighbours in a periodic chain. */
static inline int mg_left(const mg_ctx *c) { return (c->rank + c->nranks - 1) % c->nranks; }
static inline int mg_right(const mg_ctx *c) { return (c->rank + 1) % c->nranks; }

/* Fields of benchmarks over many ranks: ranks 2 and up, slowest rank per sample. */
#define MG_PT2PT_MANY_FIELDS                                                                       \
    .layout.min_ranks = 2, .layout.max_ranks = 1 << 24, .timing.time_mode = MG_TIME_MAX

/* Fields of the chain benchmarks: any number of ranks, neighbours r and r+1. */
#define MG_PT2PT_RING_FIELDS                                                                       \
    .layout.min_ranks = 1, .layout.max_ranks = 1 << 24, .timing.time_mode = MG_TIME_MAX,           \
    .layout.links = MG_LINKS_RING

#endif
