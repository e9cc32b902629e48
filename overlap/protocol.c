/* SPDX-License-Identifier: BSD-3-Clause */
/* Where the library switches protocol (eager to rendezvous), from two kinds
 * of evidence over a size sweep between ranks 0 and 1:
 *  phase=pingpong (the reference): the ping-pong round trip; a step in the
 *    latency curve, against the per-byte trend on either side of it, marks
 *    a protocol change;
 *  phase=send_progress and phase=recv_progress: as the programs of those
 *    names, with a delay of 2 x that round trip: post-delay work near 0 means
 *    the message moved on its own (eager, or a peer that does the copy), near
 *    1 that it waited for MPI to be called (rendezvous).
 * After the sweep rank 0 reports the detected latency steps and the sizes at
 * which send and receive progress are lost, as a summary record (JSON) or
 * "#" lines (table). Extras: latency_us (one-way, pingpong rows) and
 * post_delay_work (progress rows). Environment variables that set the libraries' limits
 * (Open MPI OMPI_MCA_btl_vader_eager_limit, MPICH/UCX ones) move both.
 */
#include "overlap.h"

#include <math.h>

enum { TAG_PING = 1, PINGPONG = 0, SEND = 1, RECV = 2, MAX_SIZES = 512, MAX_STEPS = 8 };

typedef struct {
    uint64_t sink;
    unsigned char marker;
} proto_state;

static const char *const phases[] = {"pingpong", "send_progress", "recv_progress", NULL};

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    proto_state *st = c->state;
    for (long i = 0; i < iters; ++i) {
        if (c->variant == SEND) {
            st->sink += mg_ovl_send_progress(c, size, 2.0 * c->ref_s);
        } else if (c->variant == RECV) {
            (void)mg_ovl_recv_progress(c, size, 2.0 * c->ref_s, &st->marker, &st->sink);
        } else if (c->rank == 0) {
            double t0 = MPI_Wtime();
            mg_xfer_send(&c->xfer, c->sbuf, size, 1, TAG_PING);
            mg_xfer_recv(&c->xfer, c->rbuf, size, 1, TAG_PING);
            c->sample_s += MPI_Wtime() - t0;
        } else {
            mg_xfer_recv(&c->xfer, c->rbuf, size, 0, TAG_PING);
            mg_xfer_send(&c->xfer, c->sbuf, size, 0, TAG_PING);
        }
    }
}

static void begin_size(mg_ctx *c, uint64_t size)
{
    (void)size;
    ((proto_state *)c->state)->marker = 1;
}

static int variants(const mg_ctx *c, long *values, int max)
{
    (void)c, (void)max;
    values[0] = PINGPONG;
    values[1] = SEND;
    values[2] = RECV;
    return 3;
}

static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size, (void)max;
    from[0] = 1 - c->rank;
    return c->variant == PINGPONG || c->rank == 0;
}

static const char *const extra_names[] = {"latency_us", "post_delay_work", NULL};

/* Rank 0, per row: the one-way latency (pingpong) or the post-delay work
 * against the pingpong of the same size (progress phases). */
static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)size, (void)rank_s;
    out[0] = out[1] = NAN;
    if (c->variant == PINGPONG)
        out[0] = st->median / 2.0;
    else if (c->ref)
        out[1] = mg_post_delay_work(c->ref->median, st->median, 2.0 * c->ref->median);
}

/* The curves over sizes from the finished rows: size and one-way latency of
 * each pingpong row, the post-delay work of the progress rows at its size
 * (NaN where a phase has no row). Returns the number of sizes. */
static size_t curves(const mg_result *rows, size_t nrows, double *size, double *lat_us,
                     double (*work)[MAX_SIZES])
{
    size_t n = 0;
    for (size_t i = 0; i < nrows; ++i) {
        const mg_result *r = &rows[i];
        if (r->variant_value == PINGPONG && n < MAX_SIZES) {
            size[n] = (double)r->size_bytes;
            lat_us[n] = r->extra[0];
            work[0][n] = work[1][n] = NAN;
            n++;
        } else if (r->variant_value != PINGPONG && n > 0 && (double)r->size_bytes == size[n - 1]) {
            work[r->variant_value - 1][n - 1] = r->extra[1];
        }
    }
    return n;
}

static void summary(const mg_result *rows, size_t nrows, mg_kvlist *kv)
{
    double size[MAX_SIZES], lat_us[MAX_SIZES], work[2][MAX_SIZES];
    mg_switch steps[MAX_STEPS];
    size_t n = curves(rows, nrows, size, lat_us, work);
    int nsteps = mg_detect_steps(size, lat_us, n, 1.5, steps, MAX_STEPS);

    mg_kv_array(kv, "latency_steps");
    for (int k = 0; k < nsteps; ++k) {
        mg_kv_object(kv, NULL);
        mg_kv_number(kv, "below_bytes", size[steps[k].index - 1]);
        mg_kv_number(kv, "above_bytes", size[steps[k].index]);
        mg_kv_number(kv, "ratio", steps[k].ratio);
        mg_kv_end(kv);
    }
    mg_kv_end(kv);
    for (int p = 0; p < 2; ++p) {
        const char *key = p ? "recv_progress_lost" : "send_progress_lost";
        size_t rise = mg_detect_rise(work[p], n, 0.5);
        if (rise >= n) {
            mg_kv_null(kv, key);
            continue;
        }
        mg_kv_object(kv, key);
        mg_kv_number(kv, "below_bytes", size[rise - 1]);
        mg_kv_number(kv, "above_bytes", size[rise]);
        mg_kv_number(kv, "post_delay_work_below", work[p][rise - 1]);
        mg_kv_number(kv, "post_delay_work_above", work[p][rise]);
        mg_kv_end(kv);
    }
}

static const mg_opt opts[] = {MG_OPT_TEST_INTERVAL, MG_OPT_LAST_OVL};

static const mg_bench bench = {
    .id.name = "protocol",
    .id.family = "overlap",
    .id.facts = MG_FACT_NO_QUEUE_PVARS,
    .report.description = "protocol switch: ping-pong round trip and send progress over sizes, "
                          "in us at rank 0",
    MG_OVL_FIELDS,
    .sizes.default_min_size = 256,
    .sizes.default_max_size = 1048576,
    .params.opts = opts,
    .sweep.variant_name = "phase",
    .sweep.variants = variants,
    .sweep.variant_labels = phases,
    .kernel.state_size = sizeof(proto_state),
    .kernel.begin_size = begin_size,
    .timing.times_itself = 1,
    .kernel.iterate = iterate,
    .valid.recv_slots = recv_slots,
    .report.extra_names = extra_names,
    .report.extras = extras,
    .report.summary = summary,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
