/* SPDX-License-Identifier: BSD-3-Clause */
/* What the overlap and progress descriptors share: their options and the
 * computation with optional manual progress. */
#ifndef MG_OVERLAP_BENCH_H
#define MG_OVERLAP_BENCH_H

#include "mg_bench.h"
#include "mg_overlap.h"

#include <stddef.h>

typedef struct {
    double test_interval_us; /* --test-interval: MPI_Test every US of computation */
    long max_steps;          /* overlap: most computation steps */
    mg_list delays;          /* progress: delays (us, or % of l0 with --relative) */
    int relative;            /* progress: delays are percentages of the latency */
} mg_ovl_params;

#define MG_OPT_LAST_OVL                                                                            \
    {                                                                                              \
        .type = MG_OPT_END                                                                         \
    }

#define MG_OPT_TEST_INTERVAL                                                                       \
    {                                                                                              \
        .long_name = "test-interval", .type = MG_OPT_DOUBLE,                                       \
        .offset = offsetof(mg_ovl_params, test_interval_us), .arg_name = "US",                     \
        .help =                                                                                    \
            "call MPI_Test on the pending request every US microseconds of computation; 0: never", \
        .max = 1e9, .def = "0"                                                                     \
    }

static inline const mg_ovl_params *mg_ovl(const mg_ctx *c) { return c->params; }

/* Compute for `seconds`, testing *req every --test-interval. */
static inline uint64_t mg_ovl_compute(const mg_ctx *c, double seconds, MPI_Request *req)
{
    return mg_ctx_compute(c, seconds, mg_ovl(c)->test_interval_us * 1e-6, req, req ? 1 : 0);
}

enum { MG_OVL_TAG_GO = 11, MG_OVL_TAG_DATA = 12, MG_OVL_TAG_DONE = 13 };

/* One send-progress iteration (seed 003): rank 0 sends a 0-byte "go", rank 1
 * posts MPI_Isend of `size` bytes, computes for d, waits, and sends "done";
 * rank 0 adds the time from the go to the data's arrival to ctx->sample_s
 * (the done message, untimed, keeps iterations apart). */
static inline uint64_t mg_ovl_send_progress(mg_ctx *c, uint64_t size, double d)
{
    char token = 0;
    uint64_t sink = 0;
    if (c->rank == 0) {
        double t0 = MPI_Wtime();
        mg_xfer_send(&c->xfer, &token, 0, 1, MG_OVL_TAG_GO);
        mg_xfer_recv(&c->xfer, c->rbuf, size, 1, MG_OVL_TAG_DATA);
        c->sample_s += MPI_Wtime() - t0;
        mg_xfer_recv(&c->xfer, &token, 0, 1, MG_OVL_TAG_DONE);
    } else {
        mg_xfer_recv(&c->xfer, &token, 0, 0, MG_OVL_TAG_GO);
        mg_xfer_isend(&c->xfer, c->sbuf, size, 0, MG_OVL_TAG_DATA, c->reqs);
        sink = mg_ovl_compute(c, d, c->reqs);
        mg_xfer_waitall(&c->xfer, 1, c->reqs);
        mg_xfer_send(&c->xfer, &token, 0, 0, MG_OVL_TAG_DONE);
    }
    return sink;
}

/* One receive-progress iteration (seed 003): rank 0 posts MPI_Irecv, sends
 * "go", computes for d while looking every microsecond at the last byte of
 * its buffer, then waits; rank 1 blocks in MPI_Send and then sends "done".
 * Rank 1 writes a new marker into its last byte every iteration, rank 0 its
 * complement first (not while the driver validates). Rank 0 adds the time
 * from the go to the completed wait to ctx->sample_s; returns whether the
 * data was seen during the delay. */
static inline int mg_ovl_recv_progress(mg_ctx *c, uint64_t size, double d, unsigned char *marker,
                                       uint64_t *sink)
{
    const unsigned char want = *marker;
    volatile unsigned char *last =
        (unsigned char *)(c->rank == 0 ? c->rbuf : c->sbuf) + (size ? size - 1 : 0);
    char token = 0;
    int seen = 0;
    *marker = (unsigned char)(*marker * 5 + 3);
    if (c->rank == 0) {
        double t0;
        if (size && !c->validating)
            *last = (unsigned char)~want;
        mg_xfer_irecv(&c->xfer, c->rbuf, size, 1, MG_OVL_TAG_DATA, c->reqs);
        t0 = MPI_Wtime();
        mg_xfer_send(&c->xfer, &token, 0, 1, MG_OVL_TAG_GO);
        for (double done = 0.0; done < d; done += 1e-6) {
            *sink += mg_ovl_compute(c, d - done < 1e-6 ? d - done : 1e-6, c->reqs);
            seen = seen || (size > 0 && *last == want);
        }
        mg_xfer_waitall(&c->xfer, 1, c->reqs);
        c->sample_s += MPI_Wtime() - t0;
        mg_xfer_recv(&c->xfer, &token, 0, 1, MG_OVL_TAG_DONE);
    } else {
        mg_xfer_recv(&c->xfer, &token, 0, 0, MG_OVL_TAG_GO);
        if (size && !c->validating)
            *last = want;
        mg_xfer_send(&c->xfer, c->sbuf, size, 0, MG_OVL_TAG_DATA);
        mg_xfer_send(&c->xfer, &token, 0, 0, MG_OVL_TAG_DONE);
    }
    return seen;
}

/* Validation: rank 0 receives rank 1's message. */
static inline int mg_ovl_rank0_receives(const mg_ctx *c, uint64_t size, int *from, int max)
{
    (void)size, (void)max;
    from[0] = 1;
    return c->rank == 0;
}

/* Rank 0 is timed and exchanges with rank 1. */
#define MG_OVL_FIELDS                                                                              \
    .layout.min_ranks = 2, .layout.max_ranks = 2, .timing.time_mode = MG_TIME_ROOT,                \
    .kernel.compute = 1, .report.headline = "Latency (us)", .timing.metric = MG_METRIC_LATENCY,    \
    .timing.time_scale = 1.0, .sizes.min_size = 0, .params.params_size = sizeof(mg_ovl_params),    \
    .kernel.nrequests = 1

#endif
