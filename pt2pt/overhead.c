/* SPDX-License-Identifier: BSD-3-Clause */
/* Host overhead (seed 004, "Host communication overhead"): the CPU time an
 * MPI library spends on communication, in two parts (--part).
 *
 * latency: variant phase=pingpong is a plain ping-pong (the reference);
 *   phase=calls repeats it with rank 1 computing for 2 x the reference round
 *   trip before each receive, so the message has arrived when MPI_Recv is
 *   called. During timed samples rank 0 times its MPI_Send calls and rank 1
 *   its MPI_Recv calls: extras send_call_us and recv_call_us (mean per
 *   message). The latency column of phase=calls includes the delay.
 * bandwidth: windows of W messages from rank 0 to rank 1 as in bw, with both
 *   ranks computing for c = f x (the reference iteration time) between
 *   posting the window and waiting for it; variant f (compute_pct) from
 *   --shares, f = 0 first (the reference). The sweep of f stops once the
 *   bandwidth falls below (1 - --drop) x the reference. Extras: the compute
 *   time, its share of the iteration (cpu_share_pct), the bandwidth relative
 *   to the reference and available_pct, the largest share so far without
 *   that drop: the CPU time available to computation (seed: >= 99% at
 *   256 KiB).
 * The computation is the driver's calibrated busy loop (mg_ctx_compute; its
 * calibration is in the run record); --test-interval US calls MPI_Testall on
 * the window every US microseconds of it (manual progress).
 * Built twice: mpigauge_overhead (default --part latency) and, with
 * MG_OVERHEAD_CPU_AVAIL, mpigauge_cpu_avail (the bandwidth part: issue 5's
 * host-availability test).
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>

enum { TAG_DATA = 1, TAG_ACK = 2, ACK_BYTES = 4, PART_LAT = 0, PART_BW = 1 };
enum { PINGPONG = 0, CALLS = 1 };

#ifdef MG_OVERHEAD_CPU_AVAIL
#define NAME "cpu_avail"
#define FAMILY "overlap"
#define DEFAULT_PART PART_BW
#define DEFAULT_PART_NAME "bandwidth"
#else
#define NAME "overhead"
#define FAMILY "pt2pt"
#define DEFAULT_PART PART_LAT
#define DEFAULT_PART_NAME "latency"
#endif

typedef struct {
    mg_pt2pt_params p2p; /* window (first member: pt2pt.h's helpers read it) */
    int part;
    mg_list shares;
    double drop;
    double test_interval_us;
} overhead_params;

typedef struct {
    uint64_t sink;
    double send_s, recv_s; /* time inside the timed calls */
    long sends, recvs;
    double available; /* rank 0, bandwidth: available_pct so far */
} overhead_state;

static const char *const parts[] = {"latency", "bandwidth", NULL};
static const char *const phases[] = {"pingpong", "calls", NULL};
#define DEFAULT_SHARES 0, 50, 75, 90, 95, 97, 99
static const long default_shares[] = {DEFAULT_SHARES};

static const overhead_params *prm(const mg_ctx *c) { return c->params; }

static void begin_size(mg_ctx *c, uint64_t size)
{
    overhead_state *st = c->state;
    (void)size;
    st->send_s = st->recv_s = 0.0;
    st->sends = st->recvs = 0;
}

static void compute(mg_ctx *c, double seconds, MPI_Request *reqs, int n)
{
    overhead_state *st = c->state;
    st->sink += mg_ctx_compute(c, seconds, prm(c)->test_interval_us * 1e-6, reqs, n);
}

/* A blocking call, timed when the driver is timing and `count` is set. */
#define TIMED(c, count, acc, n, call)                                                              \
    do {                                                                                           \
        double t0_ = MPI_Wtime();                                                                  \
        call;                                                                                      \
        if ((c)->timed && (count)) {                                                               \
            (acc) += MPI_Wtime() - t0_;                                                            \
            (n)++;                                                                                 \
        }                                                                                          \
    } while (0)

static void iterate_lat(mg_ctx *c, uint64_t size, long iters)
{
    overhead_state *st = c->state;
    const int calls = c->variant == CALLS;
    for (long i = 0; i < iters; ++i) {
        if (c->rank == 0) {
            TIMED(c, calls, st->send_s, st->sends,
                  mg_xfer_send(&c->xfer, c->sbuf, size, c->peer, TAG_DATA));
            mg_xfer_recv(&c->xfer, c->rbuf, size, c->peer, TAG_DATA);
        } else {
            if (calls)
                compute(c, 2.0 * c->ref_s, NULL, 0);
            TIMED(c, calls, st->recv_s, st->recvs,
                  mg_xfer_recv(&c->xfer, c->rbuf, size, c->peer, TAG_DATA));
            mg_xfer_send(&c->xfer, c->sbuf, size, c->peer, TAG_DATA);
        }
    }
}

static void iterate_bw(mg_ctx *c, uint64_t size, long iters)
{
    const int w = (int)mg_window(c);
    const double work = (double)c->variant / 100.0 * c->ref_s;
    char ack[ACK_BYTES] = {0};
    for (long i = 0; i < iters; ++i) {
        for (int k = 0; k < w; ++k) {
            if (c->rank == 0)
                mg_xfer_isend(&c->xfer, c->sbuf, size, c->peer, TAG_DATA, &c->reqs[k]);
            else
                mg_xfer_irecv(&c->xfer, c->rbuf, size, c->peer, TAG_DATA, &c->reqs[k]);
        }
        if (c->variant_index > 0)
            compute(c, work, c->reqs, w);
        mg_xfer_waitall(&c->xfer, w, c->reqs);
        if (c->rank == 0)
            mg_xfer_recv(&c->xfer, ack, ACK_BYTES, c->peer, TAG_ACK);
        else
            mg_xfer_send(&c->xfer, ack, ACK_BYTES, c->peer, TAG_ACK);
    }
}

static int variants(const mg_ctx *c, long *values, int max)
{
    if (prm(c)->part == PART_LAT) {
        values[0] = PINGPONG;
        values[1] = CALLS;
        return 2;
    }
    return mg_variants_ref_first(0, &prm(c)->shares, default_shares,
                                 sizeof default_shares / sizeof *default_shares, values, max);
}

static void figures(const mg_ctx *c, double *out)
{
    const overhead_state *st = c->state;
    out[0] = st->sends ? st->send_s / (double)st->sends : 0.0;
    out[1] = st->recvs ? st->recv_s / (double)st->recvs : 0.0;
}

static const char *const lat_extras[] = {"send_call_us", "recv_call_us", NULL};
static const char *const bw_extras[] = {"compute_us", "cpu_share_pct", "bw_ratio", "available_pct",
                                        NULL};

static void extras_lat(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                       double *out)
{
    const double *f = c->rank_figures;
    (void)size, (void)st, (void)rank_s;
    out[0] = c->variant == CALLS ? f[0 * 2 + 0] * 1e6 : NAN;
    out[1] = c->variant == CALLS ? f[1 * 2 + 1] * 1e6 : NAN;
}

static void extras_bw(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                      double *out)
{
    overhead_state *s = c->state;
    const double ref = c->ref ? c->ref->median : st->median;
    const double iter_s = (double)size * (double)mg_window(c) / (st->median * 1e6);
    const double work_s = c->ref ? (double)c->variant / 100.0 * c->ref_s : 0.0;
    (void)rank_s;
    out[0] = work_s * 1e6;
    out[1] = 100.0 * work_s / iter_s;
    out[2] = st->median / ref;
    if (c->variant_index == 0)
        s->available = 0.0;
    if (out[2] >= 1.0 - prm(c)->drop)
        s->available = fmax(s->available, out[1]);
    out[3] = s->available;
}

/* Stop growing the computation once the bandwidth has dropped. */
static int bw_dropped(const mg_ctx *c, const mg_stats *st)
{
    return c->ref && st->median < (1.0 - prm(c)->drop) * c->ref->median;
}

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)size * (double)mg_window(c);
}

static const mg_opt opts[] = {
    {.long_name = "part",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(overhead_params, part),
     .arg_name = "latency|bandwidth",
     .help = "time inside the calls of a ping-pong, or CPU share free during a bandwidth test",
     .choices = parts,
     .def = DEFAULT_PART_NAME},
    MG_OPT_WINDOW,
    {.long_name = "shares",
     .type = MG_OPT_LIST,
     .offset = offsetof(overhead_params, shares),
     .arg_name = "LIST",
     .help = "bandwidth: computation as % of the reference iteration (default " MG_STR(
         DEFAULT_SHARES) ")",
     .max = 10000},
    {.long_name = "drop",
     .type = MG_OPT_PERCENT,
     .offset = offsetof(overhead_params, drop),
     .arg_name = "P%",
     .help = "bandwidth: stop when the bandwidth falls by P%",
     .min = 0.001,
     .max = 0.9,
     .def = "5%"},
    {.long_name = "test-interval",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(overhead_params, test_interval_us),
     .arg_name = "US",
     .help = "bandwidth: call MPI_Testall every US microseconds of computation; 0: never",
     .max = 1e9,
     .def = "0"},
    MG_OPT_LAST};

#define COMMON                                                                                     \
    .id.name = NAME, .id.family = FAMILY, .id.facts = MG_FACT_NO_QUEUE_PVARS,                      \
    MG_PT2PT_PAIR_FIELDS, .params.opts = opts, .kernel.compute = 1,                                \
    .params.params_size = sizeof(overhead_params), .params.choose = choose, .params.check = check, \
    .sweep.variants = variants, .kernel.state_size = sizeof(overhead_state),                       \
    .kernel.begin_size = begin_size, .report.nfigures = 2, .report.figures = figures

static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out);
static int check(const mg_ctx *c, char *err, size_t errlen);

static const mg_bench forms[2] = {
    {COMMON,
     .report.description = "host overhead: time inside MPI_Send / MPI_Recv of a ping-pong "
                           "(extras), ranks 0 and 1",
     .report.headline = "Latency (us)", .timing.metric = MG_METRIC_LATENCY,
     .timing.time_scale = 0.5, .sizes.min_size = 0, .sizes.default_min_size = 0,
     .sizes.default_max_size = 65536, .sweep.variant_name = "phase", .sweep.variant_labels = phases,
     .kernel.iterate = iterate_lat, .valid.recv_slots = mg_recv_from_peer,
     .report.extra_names = lat_extras, .report.extras = extras_lat},
    {COMMON,
     .report.description = "host overhead: CPU share free for computation during a "
                           "bandwidth test, ranks 0 and 1",
     .report.headline = "Bandwidth (MB/s)", .timing.metric = MG_METRIC_BANDWIDTH,
     .timing.time_scale = 1.0, .sizes.min_size = 1, .sizes.default_min_size = 262144,
     .sizes.default_max_size = 262144, .sweep.variant_name = "compute_pct",
     .sweep.variant_stop = bw_dropped, .kernel.iterate = iterate_bw,
     .valid.recv_slots = mg_recv_if_receiver, .timing.bytes_per_iter = bytes_per_iter,
     .kernel.requests = mg_window_requests, .report.extra_names = bw_extras,
     .report.extras = extras_bw}};

static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out)
{
    (void)base;
    mg_form_take(out, &forms[prm(c)->part]);
    return 1;
}

/* The bandwidth part's options do nothing in the latency part. */
static int check(const mg_ctx *c, char *err, size_t errlen)
{
    static const char *const bw_only[] = {"shares", "drop", "test-interval", "window"};
    if (prm(c)->part != PART_LAT)
        return 0;
    for (size_t i = 0; i < sizeof bw_only / sizeof *bw_only; ++i) {
        if (mg_ctx_given(c, bw_only[i])) {
            snprintf(err, errlen, "--%s applies to --part bandwidth only", bw_only[i]);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv) { return mg_main(&forms[DEFAULT_PART], argc, argv); }
