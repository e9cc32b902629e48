/* SPDX-License-Identifier: BSD-3-Clause */
/* mpigauge_screen's measurement: the units meet in the rounds of a
 * round-robin tournament (mg_screen_round), every pair of a round at once;
 * in its round a pair measures the latency (ping-pong, the lower unit's
 * median half round trip) and the bandwidth in both directions (a window
 * of messages and a one-byte reply, the sender's rate). One repetition is
 * every round once; the first is a warm-up (connections), not kept. */
#include "screen.h"

#include "mg_exit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_LAT = 71, TAG_BW = 72, TAG_ACK = 73, LAT_WARMUP = 5 };

int sc_wants(const sc_opts *o, int m)
{
    if (o->metrics.n == 0)
        return 1;
    for (int k = 0; k < o->metrics.n; ++k)
        if (o->metrics.v[k] == m)
            return 1;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Ping-pong with peer: the lower unit's median half round trip in us (the
 * other returns NaN). */
static double ping_pong(const sc_run *s, int peer, int first, double *t)
{
    const int n = (int)s->o.lat_iters, bytes = (int)s->o.lat_bytes;
    for (int i = -LAT_WARMUP; i < n; ++i) {
        const double t0 = MPI_Wtime();
        if (first) {
            MG_MPI_CHECK(MPI_Send(s->sbuf, bytes, MPI_BYTE, peer, TAG_LAT, s->ucomm));
            MG_MPI_CHECK(
                MPI_Recv(s->rbuf, bytes, MPI_BYTE, peer, TAG_LAT, s->ucomm, MPI_STATUS_IGNORE));
        } else {
            MG_MPI_CHECK(
                MPI_Recv(s->rbuf, bytes, MPI_BYTE, peer, TAG_LAT, s->ucomm, MPI_STATUS_IGNORE));
            MG_MPI_CHECK(MPI_Send(s->sbuf, bytes, MPI_BYTE, peer, TAG_LAT, s->ucomm));
        }
        if (i >= 0)
            t[i] = (MPI_Wtime() - t0) / 2 * 1e6;
    }
    if (!first)
        return NAN;
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* One direction: `sending` sends bw_iters windows to peer, each answered
 * by one byte; the sender's rate in MB/s (the receiver returns NaN). */
static double stream(const sc_run *s, int peer, int sending)
{
    const int w = (int)s->o.window, bytes = (int)s->o.bw_bytes;
    MPI_Request req[w > 0 ? w : 1];
    char *sb = s->sbuf, *rb = s->rbuf;
    const double t0 = MPI_Wtime();
    for (long it = 0; it < s->o.bw_iters; ++it) {
        for (int k = 0; k < w; ++k) {
            if (sending)
                MG_MPI_CHECK(MPI_Isend(sb + (size_t)k * (size_t)bytes, bytes, MPI_BYTE, peer,
                                       TAG_BW, s->ucomm, &req[k]));
            else
                MG_MPI_CHECK(MPI_Irecv(rb + (size_t)k * (size_t)bytes, bytes, MPI_BYTE, peer,
                                       TAG_BW, s->ucomm, &req[k]));
        }
        mg_mpi_waitall(w, req);
        if (sending)
            MG_MPI_CHECK(MPI_Recv(rb, 1, MPI_BYTE, peer, TAG_ACK, s->ucomm, MPI_STATUS_IGNORE));
        else
            MG_MPI_CHECK(MPI_Send(sb, 1, MPI_BYTE, peer, TAG_ACK, s->ucomm));
    }
    const double dt = MPI_Wtime() - t0;
    return sending ? (double)s->o.bw_iters * w * (double)bytes / dt / 1e6 : NAN;
}

/* One repetition: every round once, in an order turned by rep; keep != 0
 * records the figures as repetition rep. */
static void repetition(sc_run *s, int rep, int keep, int *partner, double *t)
{
    const int rounds = mg_screen_rounds(s->nunits), me = s->unit;
    for (int k = 0; k < rounds; ++k) {
        mg_screen_round(s->nunits, (k + rep) % rounds, partner);
        MG_MPI_CHECK(MPI_Barrier(s->ucomm));
        const int peer = partner[me], first = me < peer;
        if (peer < 0)
            continue;
        double lat = NAN, out = NAN;
        if (sc_wants(&s->o, SC_LAT))
            lat = ping_pong(s, peer, first, t);
        if (sc_wants(&s->o, SC_BW)) {
            const double a = stream(s, peer, first), b = stream(s, peer, !first);
            out = first ? a : b;
        }
        if (keep) {
            s->lat[(size_t)peer * (size_t)s->reps_planned + (size_t)rep] = lat;
            s->bw_out[(size_t)peer * (size_t)s->reps_planned + (size_t)rep] = out;
        }
    }
}

/* Rank 0 decides whether one more repetition fits the budget, the time a
 * repetition takes being est_s; every unit learns it. */
static int one_more(const sc_run *s, double start, double est_s)
{
    int more = s->o.budget_s <= 0 || MPI_Wtime() - start + est_s <= s->o.budget_s;
    MG_MPI_CHECK(MPI_Bcast(&more, 1, MPI_INT, 0, s->ucomm));
    return more;
}

void sc_measure(sc_run *s)
{
    int *partner = malloc((size_t)s->nunits * sizeof *partner);
    double *t = malloc((size_t)(s->o.lat_iters > 0 ? s->o.lat_iters : 1) * sizeof *t);
    if (partner == NULL || t == NULL)
        MG_MPI_CHECK(MPI_ERR_NO_MEM);
    const double start = MPI_Wtime();
    repetition(s, 0, 0, partner, t);
    MG_MPI_CHECK(MPI_Barrier(s->ucomm));
    /* the warm-up (which opens the connections) estimates the first
     * repetition; then the slowest repetition so far */
    s->rep_s = MPI_Wtime() - start;
    s->reps = 0;
    s->stopped_by_budget = 0;
    double slowest = 0;
    for (int r = 0; r < s->reps_planned; ++r) {
        if (!one_more(s, start, r == 0 ? s->rep_s : slowest)) {
            s->stopped_by_budget = 1;
            break;
        }
        const double t0 = MPI_Wtime();
        repetition(s, r, 1, partner, t);
        slowest = fmax(slowest, MPI_Wtime() - t0);
        s->reps = r + 1;
    }
    if (s->reps > 0)
        s->rep_s = slowest;
    s->seconds = MPI_Wtime() - start;
    free(partner);
    free(t);
}

/* x[p][r] of pair-major arrays from the gathered [unit][2][other][rep]. */
static void assemble(sc_run *s, const double *all)
{
    const int n = s->nunits, R = s->reps_planned, reps = s->reps;
    const size_t per = 2 * (size_t)n * (size_t)R;
    for (int a = 0; a < n; ++a)
        for (int b = a + 1; b < n; ++b) {
            const long p = mg_screen_pair_index(n, a, b);
            for (int r = 0; r < reps; ++r) {
                const double lat = all[a * per + (size_t)b * R + r];
                const double ab = all[a * per + (size_t)n * R + (size_t)b * R + r];
                const double ba = all[b * per + (size_t)n * R + (size_t)a * R + r];
                s->x[SC_LAT][p * reps + r] = lat;
                s->x[SC_BW][p * reps + r] = isnan(ab) || isnan(ba) ? NAN : fmin(ab, ba);
                s->bw_dir[((size_t)a * n + b) * reps + r] = ab;
                s->bw_dir[((size_t)b * n + a) * reps + r] = ba;
            }
        }
}

int sc_gather(sc_run *s)
{
    const int n = s->nunits, R = s->reps_planned;
    const size_t per = 2 * (size_t)n * (size_t)R;
    double *mine = malloc(per * sizeof *mine), *all = NULL;
    int ok = mine != NULL;
    if (s->unit == 0) {
        all = malloc(per * (size_t)n * sizeof *all);
        s->x[SC_LAT] = malloc((size_t)mg_screen_npairs(n) * (size_t)R * sizeof(double));
        s->x[SC_BW] = malloc((size_t)mg_screen_npairs(n) * (size_t)R * sizeof(double));
        s->bw_dir = malloc((size_t)n * (size_t)n * (size_t)R * sizeof(double));
        ok = ok && all && s->x[SC_LAT] && s->x[SC_BW] && s->bw_dir;
    }
    MG_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, s->ucomm));
    if (ok) {
        memcpy(mine, s->lat, (size_t)n * (size_t)R * sizeof *mine);
        memcpy(mine + (size_t)n * R, s->bw_out, (size_t)n * (size_t)R * sizeof *mine);
        MG_MPI_CHECK(
            MPI_Gather(mine, (int)per, MPI_DOUBLE, all, (int)per, MPI_DOUBLE, 0, s->ucomm));
        if (s->unit == 0) {
            for (size_t k = 0; k < (size_t)n * n * R; ++k)
                s->bw_dir[k] = NAN;
            assemble(s, all);
        }
    }
    free(mine);
    free(all);
    return ok ? 0 : -1;
}
