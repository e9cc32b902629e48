/* SPDX-License-Identifier: BSD-3-Clause */
/* The rails as a transport (mg_mr.h, mg_mpi.h's mg_xfer_ops): messages
 * posted whole on one rail (bind) or cut into stripes, parts posted by this
 * process or handed to a helper, completed together; the weight probe. */
#include "mg_mr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int window_of(const mg_rails *R, const void *buf, size_t bytes, uint64_t *off)
{
    const char *b = buf;
    for (int w = 0; w < R->nwins; ++w)
        if (b >= R->win_base[w] && b + bytes <= R->win_base[w] + R->win_size[w]) {
            *off = (uint64_t)(b - R->win_base[w]);
            return w;
        }
    return -1;
}

static MPI_Request *extra_slot(mg_rails *R)
{
    if (R->nextra == R->cap_extra) {
        R->cap_extra = R->cap_extra ? 2 * R->cap_extra : 256;
        R->extra = realloc(R->extra, (size_t)R->cap_extra * sizeof *R->extra);
        if (R->extra == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory");
    }
    return &R->extra[R->nextra++];
}

/* Post part [off, off + len) of buf on rail r: this process posts it into
 * **first (then *first = NULL) or a slot of its own, a helper gets it as a
 * command. */
static void post_part(mg_rails *R, int send, const void *buf, uint64_t off, uint64_t len, int peer,
                      int tag, int r, MPI_Request **first)
{
    R->pending = 1;
    if (!R->groups || r == 0) {
        MPI_Request *slot = *first ? *first : extra_slot(R);
        *first = NULL;
        if (R->groups)
            mg_xfer_post_comm(send, R->rail_comm, (char *)buf + off, (size_t)len,
                              R->peer_world[peer * R->k], tag, slot);
        else
            mg_xfer_post_comm(send, R->comm[r], (char *)buf + off, (size_t)len, peer, tag, slot);
    } else {
        rail_cmd c;
        uint64_t woff = 0;
        c.win = window_of(R, (const char *)buf + off, (size_t)len, &woff);
        if (c.win < 0)
            mg_mpi_die(__FILE__, __LINE__, "a rail helper's stripe is outside the shared window");
        c.op = send ? OP_ISEND : OP_IRECV;
        c.peer = R->peer_world[peer * R->k + r];
        c.tag = tag;
        c.off = woff;
        c.len = len;
        mg_mr_push(R, r, &c);
        R->busy[r] = 1;
    }
}

/* Post a whole message on rail r (bind mode, the weight probe). */
static void post_on_rail(mg_rails *R, int send, const void *buf, size_t bytes, int peer, int tag,
                         int r, MPI_Request *req)
{
    uint64_t dummy;
    MPI_Request *first = req;
    if (R->groups && r != 0 && window_of(R, buf, bytes, &dummy) < 0)
        r = 0; /* small control messages (acknowledgements) outside the window */
    post_part(R, send, buf, 0, bytes, peer, tag, r, &first);
    if (first)
        *first = MPI_REQUEST_NULL;
}

static void rails_post(void *impl, int send, const void *buf, size_t bytes, int peer, int tag,
                       MPI_Request *req)
{
    mg_rails *R = impl;
    MPI_Request *first = req;
    uint64_t off[MG_RAILS_MAX], len[MG_RAILS_MAX];
    if (R->mode == MG_RAIL_BIND) {
        int sender = send ? R->bench_rank : peer, receiver = send ? peer : R->bench_rank;
        post_on_rail(R, send, buf, bytes, peer, tag,
                     mg_rail_bound(R->pair, sender > receiver, R->k), req);
        return;
    }
    if (bytes <= R->threshold || (R->groups && window_of(R, buf, bytes, &off[0]) < 0)) {
        /* not striped: on this rank's own rail (also small control messages,
         * e.g. acknowledgements, that live outside the shared window) */
        if (R->groups)
            post_on_rail(R, send, buf, bytes, peer, tag, 0, req);
        else
            mg_xfer_post_comm(send, R->comm[0], (void *)buf, bytes, peer, tag, req);
        return;
    }
    mg_stripe_split(bytes, R->k, R->w, 4096, off, len);
    for (int r = 0; r < R->k; ++r)
        if (len[r] > 0)
            post_part(R, send, buf, off[r], len[r], peer, tag, r, &first);
    if (first)
        *first = MPI_REQUEST_NULL;
}

/* Complete reqs[0..n) and every part posted since the last completion: this
 * process's own, and the helpers' (a WAIT command each, then their count of
 * completed waits). */
static void rails_complete(void *impl, int n, MPI_Request *reqs)
{
    mg_rails *R = impl;
    unsigned long spins = 0;
    rail_cmd c;
    if (!R->pending) {
        if (n > 0)
            mg_mpi_waitall(n, reqs);
        return;
    }
    memset(&c, 0, sizeof c);
    c.op = OP_WAIT;
    for (int r = 1; r < R->k && R->groups; ++r)
        if (R->busy[r]) {
            mg_mr_push(R, r, &c);
            R->waits[r]++;
        }
    if (n > 0)
        mg_mpi_waitall(n, reqs);
    if (R->nextra > 0)
        mg_mpi_waitall(R->nextra, R->extra);
    R->nextra = 0;
    for (int r = 1; r < R->k && R->groups; ++r) {
        if (!R->busy[r])
            continue;
        while (atomic_load_explicit(&R->rings[r - 1].done, memory_order_acquire) < R->waits[r])
            mg_mr_relax(R, &spins);
        R->busy[r] = 0;
    }
    R->pending = 0;
}

/* ---- the rails as the session's transport (mg_mpi.h's mg_xfer_ops) ---- */

static void *rails_alloc(void *impl, size_t bytes) { return mg_multirail_alloc(impl, bytes); }
static void rails_release(void *impl, void *p) { mg_multirail_free(impl, p); }
static void rails_finish(void *impl, int rc) { mg_multirail_finish(impl, rc); }

static void rails_prepare(void *impl, const mg_xfer_peers *w)
{
    mg_multirail_pairs(impl, w->comm, w->partner_of, w->rank, w->sbuf, w->rbuf, w->buf_bytes);
}

static void rails_json(const void *impl, struct mg_json *j) { mg_multirail_write_json(impl, j); }
static void rails_comment(const void *impl, FILE *f) { mg_multirail_write_comment(impl, f); }

#define RAILS_COMMON                                                                               \
    .alloc = rails_alloc, .release = rails_release, .prepare = rails_prepare,                      \
    .finish = rails_finish, .describe_json = rails_json, .describe_comment = rails_comment

/* Messages through the rails (stripes, bound rails), or the plain calls
 * with the rails' buffers and reports (--rail-mode library, hint steering
 * without a transfer of its own). */
static const mg_xfer_ops rails_ops = {RAILS_COMMON, .post = rails_post, .complete = rails_complete};
static const mg_xfer_ops rails_passive_ops = {RAILS_COMMON};

void mg_multirail_attach(mg_rails *R, mg_xfer *x)
{
    if (R == NULL)
        return;
    x->impl = R;
    x->ops = &rails_passive_ops;
    if (!R->active)
        return;
    x->ops = &rails_ops;
    x->fast_max = R->mode == MG_RAIL_BIND ? 0 : (size_t)R->threshold;
}

#define PROBE_MSGS 8   /* messages in flight per round of the weight probe */
#define PROBE_ROUNDS 3 /* timed rounds per rail after one untimed; the best counts */
#define PROBE_TAG 28111

/* The weight probe on rail r, between this rank and peer: rounds of
 * PROBE_MSGS messages of `bytes` posted at once (the window of a bandwidth
 * test, so that per-message handshakes overlap as they do in the run), then
 * an acknowledgement; the sender returns the best round's MB/s. */
static double probe_rail(mg_rails *R, int r, int send, void *buf, size_t bytes, int peer,
                         MPI_Comm comm)
{
    double best = 0;
    for (int round = 0; round <= PROBE_ROUNDS; ++round) {
        MPI_Request q[PROBE_MSGS];
        char ack = 0;
        double t0 = MPI_Wtime();
        for (int m = 0; m < PROBE_MSGS; ++m)
            post_on_rail(R, send, buf, bytes, peer, PROBE_TAG, r, &q[m]);
        rails_complete(R, PROBE_MSGS, q);
        if (send)
            MG_MPI_CHECK(MPI_Recv(&ack, 1, MPI_CHAR, peer, PROBE_TAG, comm, MPI_STATUS_IGNORE));
        else
            MG_MPI_CHECK(MPI_Send(&ack, 1, MPI_CHAR, peer, PROBE_TAG, comm));
        if (round > 0) { /* round 0 warms the rail up */
            double mbs = (double)PROBE_MSGS * (double)bytes / (MPI_Wtime() - t0) / 1e6;
            best = mbs > best ? mbs : best;
        }
    }
    return best;
}

void mg_multirail_pairs(mg_rails *R, MPI_Comm comm, const int *partner_of, int rank, void *sbuf,
                        void *rbuf, size_t buf_bytes)
{
    int peer = partner_of ? partner_of[rank] : -1;
    if (R == NULL || !R->active)
        return;
    R->pair = 0;
    if (peer >= 0) {
        int lo = rank < peer ? rank : peer;
        for (int r = 0; r < lo; ++r)
            R->pair += partner_of[r] > r;
    }
    for (int r = 0; r < R->k; ++r)
        R->probe_mbs[r] = NAN;
    if (R->mode != MG_RAIL_STRIPE || R->wsource != MG_WEIGHTS_AUTO)
        return;
    {
        size_t bytes = buf_bytes < ((size_t)1 << 20) ? buf_bytes : (size_t)1 << 20;
        double w[MG_RAILS_MAX];
        MG_MPI_CHECK(MPI_Barrier(comm));
        if (peer >= 0) {
            int send = rank < peer;
            for (int r = 0; r < R->k; ++r) {
                double mbs = probe_rail(R, r, send, send ? sbuf : rbuf, bytes, peer, comm);
                if (send)
                    R->probe_mbs[r] = mbs;
            }
            if (send) {
                mg_rail_weights_from_bw(R->probe_mbs, R->k, w);
                MG_MPI_CHECK(MPI_Send(w, R->k, MPI_DOUBLE, peer, PROBE_TAG, comm));
                MG_MPI_CHECK(MPI_Send(R->probe_mbs, R->k, MPI_DOUBLE, peer, PROBE_TAG, comm));
            } else {
                MG_MPI_CHECK(
                    MPI_Recv(w, R->k, MPI_DOUBLE, peer, PROBE_TAG, comm, MPI_STATUS_IGNORE));
                MG_MPI_CHECK(MPI_Recv(R->probe_mbs, R->k, MPI_DOUBLE, peer, PROBE_TAG, comm,
                                      MPI_STATUS_IGNORE));
            }
            memcpy(R->w, w, sizeof w);
        }
        MG_MPI_CHECK(MPI_Barrier(comm));
    }
}
