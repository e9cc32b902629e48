/* SPDX-License-Identifier: BSD-3-Clause */
/* Buffer reuse (seed 004, "Impact of buffer reuse").
 *
 * Messages go through a pool of buffer regions instead of one buffer, in
 * the same order on both ranks, to expose address-translation and
 * registration costs that a one-buffer test hides. Regions start a
 * page-rounded size apart, so no two share a page.
 *  --pattern fifo: message m of a size uses region m mod N; variant N
 *    (--buffers, default 1,2,5,10,15,20,25; seed: 512 KiB, up to 25).
 *  --pattern percent: variant R% (--reuse, default 0,25,50,75,100). Message
 *    m reuses region 0 when (m x R) mod 100 < R (Bresenham: R of every 100
 *    consecutive messages, evenly spread, message 0 included when R > 0);
 *    every other message takes the next never-used region. The pool covers
 *    warm-up + timed messages, so this form runs fixed counts by default
 *    (-x/-i below) and the memory guard refuses (exit 2) what does not fit.
 * --metric latency: ping-pong (round trip / 2, us). --metric bw: windows of
 * W messages from rank 0 to rank 1, then a 4-byte ack (MB/s).
 */
#include "mg_bench.h"
#include "mg_policy.h"
#include "pt2pt.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

enum { TAG_DATA = 1, TAG_ACK = 2, ACK_BYTES = 4 };
enum { FIFO, PERCENT };
enum { LAT, BW };

typedef struct {
    int pattern, metric;
    mg_list buffers, reuse; /* variant lists; empty: the defaults */
    long window;            /* 0: not given */
} reuse_params;

typedef struct {
    long phase;         /* (m x R) mod 100 of the next message */
    size_t next, fresh; /* next fifo message; fresh regions taken */
    size_t regions;     /* regions in the buffers at this size */
    size_t stride;      /* bytes from one region to the next */
} reuse_state;

/* the seed's sweeps, and the windows of --metric bw */
#define FIFO_DEFAULT 1, 2, 5, 10, 15, 20, 25
#define PERCENT_DEFAULT 0, 25, 50, 75, 100
#define WINDOW_FIFO 64
#define WINDOW_PERCENT 16
static const long fifo_default[] = {FIFO_DEFAULT};
static const long percent_default[] = {PERCENT_DEFAULT};
static const char *const patterns[] = {"fifo", "percent", NULL};
static const char *const metrics[] = {"latency", "bw", NULL};

static const mg_opt opts[] = {
    {.long_name = "pattern",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(reuse_params, pattern),
     .arg_name = "fifo|percent",
     .help = "N buffers in FIFO order, or a reuse percentage",
     .choices = patterns,
     .def = "fifo"},
    {.long_name = "metric",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(reuse_params, metric),
     .arg_name = "latency|bw",
     .help = "ping-pong latency or windowed bandwidth",
     .choices = metrics,
     .def = "latency"},
    {.long_name = "buffers",
     .type = MG_OPT_LIST,
     .offset = offsetof(reuse_params, buffers),
     .arg_name = "MIN:MAX|LIST",
     .help = "fifo: buffer counts, 1:32 (doubling) or 1,5,10,25 (default " MG_STR(FIFO_DEFAULT) ")",
     .min = 1,
     .max = 65536},
    {.long_name = "reuse",
     .type = MG_OPT_LIST,
     .offset = offsetof(reuse_params, reuse),
     .arg_name = "LIST",
     .help = "percent: reuse percentages 0..100 (default " MG_STR(PERCENT_DEFAULT) ")",
     .max = 100},
    {.short_name = 'W',
     .long_name = "window",
     .type = MG_OPT_LONG,
     .offset = offsetof(reuse_params, window),
     .arg_name = "N",
     .help = "bw: messages per window (default " MG_STR(WINDOW_FIFO) "; " MG_STR(
         WINDOW_PERCENT) " with --pattern percent)",
     .min = 1,
     .max = 65536},
    {.type = MG_OPT_END}};

static const reuse_params *prm(const mg_ctx *c) { return c->params; }

static long window(const mg_ctx *c)
{
    const reuse_params *p = prm(c);
    return p->metric == LAT     ? 1
           : p->window          ? p->window
           : p->pattern == FIFO ? WINDOW_FIFO
                                : WINDOW_PERCENT;
}

static int check(const mg_ctx *c, char *err, size_t len)
{
    const reuse_params *p = prm(c);
    const char *bad = p->metric == LAT && p->window      ? "-W/--window applies to --metric bw"
                      : p->pattern == FIFO && p->reuse.n ? "--reuse applies to --pattern percent"
                      : p->pattern == PERCENT && p->buffers.n
                          ? "--buffers applies to --pattern fifo"
                          : NULL;
    if (bad) {
        snprintf(err, len, "%s", bad);
        return -EINVAL;
    }
    return 0;
}

/* --buffers (fifo) or --reuse (percent), or the seed's defaults. */
static int variants(const mg_ctx *c, long *values, int max)
{
    if (prm(c)->pattern == FIFO)
        return mg_variants_from_list(&prm(c)->buffers, fifo_default,
                                     sizeof fifo_default / sizeof *fifo_default, values, max);
    return mg_variants_from_list(&prm(c)->reuse, percent_default,
                                 sizeof percent_default / sizeof *percent_default, values, max);
}

/* Messages among the first n that reuse region 0 at R percent. */
static uint64_t reused(uint64_t n, long r) { return n && r ? (n - 1) * (uint64_t)r / 100 + 1 : 0; }

/* Regions the first n messages touch (region 0 up), for variant v. */
static uint64_t regions_for(const mg_ctx *c, long v, uint64_t n)
{
    if (prm(c)->pattern == FIFO)
        return n < (uint64_t)v ? n : (uint64_t)v;
    return (v > 0) + n - reused(n, v);
}

static uint64_t stride(const mg_ctx *c, uint64_t size)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    (void)c;
    return size ? (size + page - 1) / page * page : page;
}

/* Pool for the largest variant need: every message of warm-up and timing. */
static size_t buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    long v[MG_LIST_MAX];
    mg_policy_cfg pc;
    int n = variants(c, v, MG_LIST_MAX);
    uint64_t need = 0, msgs = UINT64_MAX, s = stride(c, max_size);
    mg_policy_cfg_default(&pc);
    if (c->cfg->policy.iterations > 0) {
        long warm = c->cfg->policy.warmup_iters >= 0 ? c->cfg->policy.warmup_iters : pc.warmup_max;
        msgs = (uint64_t)(c->cfg->policy.iterations + warm) * (uint64_t)window(c);
    }
    for (int i = 0; i < n; ++i) {
        uint64_t r = regions_for(c, v[i], msgs);
        need = r > need ? r : need;
    }
    return need > (SIZE_MAX / 4) / s ? SIZE_MAX / 4 : (size_t)(need * s);
}

static void begin_size(mg_ctx *c, uint64_t size)
{
    reuse_state *st = c->state;
    st->phase = 0;
    st->next = st->fresh = 0;
    st->stride = (size_t)stride(c, size);
    st->regions = c->buf_bytes / st->stride;
}

/* Byte offset of the region the next message uses. */
static size_t next_region(mg_ctx *c)
{
    reuse_state *st = c->state;
    size_t r;
    if (prm(c)->pattern == FIFO) {
        r = st->next++ % (size_t)c->variant;
    } else {
        r = st->phase < c->variant ? 0 : (c->variant > 0) + st->fresh++;
        st->phase = (st->phase + c->variant) % 100;
    }
    if (r >= st->regions) {
        /* more messages than the pool was sized for: carry on in region 0,
         * and the driver stops the sweep after this size */
        mg_ctx_fail(c, "the fresh-buffer pool is exhausted: give -i and -x (the pool is "
                       "sized from them)");
        r = 0;
    }
    return r * st->stride;
}

static void iterate_lat(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    char *sb = c->sbuf, *rb = c->rbuf;
    for (long i = 0; i < iters; ++i) {
        size_t o = next_region(c);
        if (c->rank == 0) {
            mg_xfer_send(x, sb + o, size, c->peer, TAG_DATA);
            mg_xfer_recv(x, rb + o, size, c->peer, TAG_DATA);
        } else {
            mg_xfer_recv(x, rb + o, size, c->peer, TAG_DATA);
            mg_xfer_send(x, sb + o, size, c->peer, TAG_DATA);
        }
    }
}

static void iterate_bw(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    const int w = (int)window(c);
    char ack[ACK_BYTES] = {0}, *sb = c->sbuf, *rb = c->rbuf;
    for (long i = 0; i < iters; ++i) {
        for (int k = 0; k < w; ++k) {
            size_t o = next_region(c);
            if (c->rank == 0)
                mg_xfer_isend(x, sb + o, size, c->peer, TAG_DATA, &c->reqs[k]);
            else
                mg_xfer_irecv(x, rb + o, size, c->peer, TAG_DATA, &c->reqs[k]);
        }
        mg_xfer_waitall(&c->xfer, w, c->reqs);
        if (c->rank == 0)
            mg_xfer_recv(x, ack, ACK_BYTES, c->peer, TAG_ACK);
        else
            mg_xfer_send(x, ack, ACK_BYTES, c->peer, TAG_ACK);
    }
}

static double bytes_per_iter(const mg_ctx *c, uint64_t size) { return (double)size * window(c); }
static size_t requests(const mg_ctx *c) { return (size_t)window(c); }

/* Validation runs one iteration: the regions it touches are slots 0..n-1. */
static int send_slots(const mg_ctx *c, uint64_t size)
{
    (void)size;
    return prm(c)->metric == BW && c->rank == 1 ? 0 : (int)regions_for(c, c->variant, window(c));
}

static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    int n = prm(c)->metric == BW && c->rank == 0 ? 0 : (int)regions_for(c, c->variant, window(c));
    (void)size;
    n = n < max ? n : max;
    for (int i = 0; i < n; ++i)
        from[i] = c->peer;
    return n;
}

#define COMMON                                                                                     \
    .id.name = "reuse",                                                                            \
    .report.description = "buffer reuse: latency (us) or bandwidth (MB/s) with N buffers in FIFO " \
                          "order or a reuse percentage, ranks 0 and 1",                            \
    MG_PT2PT_PAIR_FIELDS, .sizes.min_size = 1, .params.opts = opts,                                \
    .params.params_size = sizeof(reuse_params), .params.check = check, .params.choose = choose,    \
    .sweep.variants = variants, .kernel.state_size = sizeof(reuse_state),                          \
    .kernel.begin_size = begin_size, .kernel.buf_bytes = buf_bytes, .valid.slot_stride = stride,   \
    .valid.send_slots = send_slots, .valid.recv_slots = recv_slots
#define LATENCY                                                                                    \
    .timing.metric = MG_METRIC_LATENCY, .timing.time_scale = 0.5,                                  \
    .report.headline = "Latency (us)", .kernel.iterate = iterate_lat
#define BANDWIDTH                                                                                  \
    .timing.metric = MG_METRIC_BANDWIDTH, .timing.time_scale = 1.0,                                \
    .report.headline = "Bandwidth (MB/s)", .kernel.iterate = iterate_bw,                           \
    .timing.bytes_per_iter = bytes_per_iter, .kernel.requests = requests
/* Seed sizes: 512 KiB (fifo; percent bw); -m MAX below that needs a MIN. */
#define KIB512                                                                                     \
    .sizes.default_min_size = 524288, .sizes.default_max_size = 524288,                            \
    .sizes.default_min_why = "the seed's messages: each buffer region of the pool holds 512 KiB"

#define FIFO_FORM .sweep.variant_name = "buffers", KIB512
#define PCT_FORM .sweep.variant_name = "reuse_pct"

static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out);

static const mg_bench forms[2][2] = {
    {{COMMON, LATENCY, FIFO_FORM}, {COMMON, BANDWIDTH, FIFO_FORM}},
    {{COMMON, LATENCY, PCT_FORM, .sizes.default_min_size = 1, .sizes.default_max_size = 65536,
      .timing.default_iterations = 1000, .timing.default_warmup = 100},
     {COMMON, BANDWIDTH, PCT_FORM, KIB512, .timing.default_iterations = 30,
      .timing.default_warmup = 2}}};

static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out)
{
    (void)base;
    mg_form_take(out, &forms[prm(c)->pattern][prm(c)->metric]);
    return 1;
}

int main(int argc, char **argv) { return mg_main(&forms[FIFO][LAT], argc, argv); }
