/* SPDX-License-Identifier: BSD-3-Clause */
/* Where the library switches protocol (eager to rendezvous), from two kinds
 * of evidence over a size sweep between ranks 0 and 1:
 *  phase=pingpong (the reference): the ping-pong round trip; a step in the
 *    latency curve above its per-byte trend marks a protocol change;
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
    size_t n; /* rank 0: sizes seen so far */
    double size[MAX_SIZES], lat_us[MAX_SIZES], work[2][MAX_SIZES];
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

/* Rank 0: per row, and the curves for the summary. */
static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    proto_state *s = c->state;
    (void)rank_s;
    out[0] = out[1] = NAN;
    if (c->variant == PINGPONG && s->n < MAX_SIZES) {
        out[0] = st->median / 2.0;
        s->size[s->n] = (double)size;
        s->lat_us[s->n] = out[0];
        s->work[0][s->n] = s->work[1][s->n] = NAN;
        s->n++;
    } else if (c->ref && s->n > 0) {
        out[1] = mg_post_delay_work(c->ref->median, st->median, 2.0 * c->ref->median);
        s->work[c->variant - 1][s->n - 1] = out[1];
    }
}

static const char *const sides[] = {"send", "receive"};

static void summary(mg_ctx *c, mg_json *j, FILE *f)
{
    proto_state *s = c->state;
    mg_switch steps[MAX_STEPS];
    int nsteps = mg_detect_steps(s->size, s->lat_us, s->n, 1.5, steps, MAX_STEPS);
    size_t rise[2] = {mg_detect_rise(s->work[0], s->n, 0.5), mg_detect_rise(s->work[1], s->n, 0.5)};
    if (f) {
        for (int k = 0; k < nsteps; ++k)
            fprintf(f, "# latency step x%.2f between %.0f and %.0f bytes\n", steps[k].ratio,
                    s->size[steps[k].index - 1], s->size[steps[k].index]);
        if (nsteps == 0)
            fprintf(f, "# no latency step of 1.5x above the trend\n");
        for (int p = 0; p < 2; ++p) {
            if (rise[p] < s->n)
                fprintf(f,
                        "# %s progress lost between %.0f and %.0f bytes (post-delay work "
                        "%.2f -> %.2f)\n",
                        sides[p], s->size[rise[p] - 1], s->size[rise[p]], s->work[p][rise[p] - 1],
                        s->work[p][rise[p]]);
            else
                fprintf(f, "# %s progress does not change over these sizes\n", sides[p]);
        }
        return;
    }
    mg_json_array_begin(j, "latency_steps");
    for (int k = 0; k < nsteps; ++k) {
        mg_json_object_begin(j, NULL);
        mg_json_number(j, "below_bytes", s->size[steps[k].index - 1]);
        mg_json_number(j, "above_bytes", s->size[steps[k].index]);
        mg_json_number(j, "ratio", steps[k].ratio);
        mg_json_object_end(j);
    }
    mg_json_array_end(j);
    for (int p = 0; p < 2; ++p) {
        const char *key = p ? "recv_progress_lost" : "send_progress_lost";
        if (rise[p] >= s->n) {
            mg_json_null(j, key);
            continue;
        }
        mg_json_object_begin(j, key);
        mg_json_number(j, "below_bytes", s->size[rise[p] - 1]);
        mg_json_number(j, "above_bytes", s->size[rise[p]]);
        mg_json_number(j, "post_delay_work_below", s->work[p][rise[p] - 1]);
        mg_json_number(j, "post_delay_work_above", s->work[p][rise[p]]);
        mg_json_object_end(j);
    }
}

static const mg_opt opts[] = {MG_OPT_TEST_INTERVAL, MG_OPT_LAST_OVL};

static const mg_bench bench = {
    .name = "protocol",
    .description = "protocol switch: ping-pong round trip and send progress over sizes, "
                   "in us at rank 0",
    MG_OVL_FIELDS,
    .default_min_size = 256,
    .default_max_size = 1048576,
    .opts = opts,
    .variant_name = "phase",
    .variants = variants,
    .variant_labels = phases,
    .state_size = sizeof(proto_state),
    .begin_size = begin_size,
    .times_itself = 1,
    .iterate = iterate,
    .recv_slots = recv_slots,
    .extra_names = extra_names,
    .extras = extras,
    .summary = summary,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
