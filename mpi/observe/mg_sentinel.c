/* SPDX-License-Identifier: BSD-3-Clause */
/* Noise sentinels: see mg_sentinel.h. */
#include "mg_sentinel.h"

#include "mg_nodestate.h"
#include "mg_stats.h"
#include "mg_turns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_TAG 28011
#define PROBE_WARMUP 100
#define PROBE_BLOCKS 10
#define PROBE_ROUNDS 100
#define SPIN_TARGET_S 2e-3
#define SPIN_REPEATS 3

/* What every node's first rank sends to rank 0. */
typedef struct {
    double load1, load5, load15, cpu_mhz;
    long long procs_running, ctxt, cpu_jiffies, steal_jiffies;
    int valid;
    char host[MPI_MAX_PROCESSOR_NAME];
} node_report;

/* One-way time (us) of an 8-byte ping-pong between rank 0 and `peer`:
 * the median of PROBE_BLOCKS blocks; NAN on other ranks or without a peer. */
static double probe_latency_us(const mg_ctx *ctx, int peer)
{
    char buf[8] = {0};
    double block_s[PROBE_BLOCKS];
    int me = ctx->rank;
    if (peer < 0 || (me != 0 && me != peer))
        return NAN;
    int other = me == 0 ? peer : 0;
    for (int b = -1; b < PROBE_BLOCKS; ++b) {
        int rounds = b < 0 ? PROBE_WARMUP : PROBE_ROUNDS;
        double t0 = MPI_Wtime();
        for (int i = 0; i < rounds; ++i) {
            if (me == 0) {
                MG_MPI_CHECK(MPI_Send(buf, 8, MPI_BYTE, other, PROBE_TAG, ctx->comm));
                MG_MPI_CHECK(
                    MPI_Recv(buf, 8, MPI_BYTE, other, PROBE_TAG, ctx->comm, MPI_STATUS_IGNORE));
            } else {
                MG_MPI_CHECK(
                    MPI_Recv(buf, 8, MPI_BYTE, other, PROBE_TAG, ctx->comm, MPI_STATUS_IGNORE));
                MG_MPI_CHECK(MPI_Send(buf, 8, MPI_BYTE, other, PROBE_TAG, ctx->comm));
            }
        }
        if (b >= 0)
            block_s[b] = MPI_Wtime() - t0;
    }
    mg_stats st;
    if (me != 0 || mg_stats_compute(block_s, PROBE_BLOCKS, &st) != 0)
        return NAN;
    return st.median / (2.0 * PROBE_ROUNDS) * 1e6;
}

/* This rank's computation rate in millions of units per second: the
 * calibrated computation's own rule (util/mg_compute.h), fastest repeat. */
static double compute_rate(void)
{
    mg_compute_calib c;
    mg_clock clk = {mg_wtime, NULL};
    if (mg_compute_calibrate(&c, clk, mg_compute_spin, SPIN_TARGET_S, SPIN_REPEATS) != 0)
        return NAN;
    return c.units_per_s * 1e-6;
}

static void node_state(const mg_ctx *ctx, node_report *me)
{
    mg_nodestate st;
    int len = 0;
    memset(me, 0, sizeof *me);
    if (ctx->local_rank != 0)
        return;
    mg_nodestate_read(&st);
    me->valid = 1;
    me->load1 = st.load1;
    me->load5 = st.load5;
    me->load15 = st.load15;
    me->cpu_mhz = st.cpu_mhz;
    me->procs_running = st.procs_running;
    me->ctxt = st.ctxt;
    me->cpu_jiffies = st.cpu_jiffies;
    me->steal_jiffies = st.steal_jiffies;
    MG_MPI_CHECK(MPI_Get_processor_name(me->host, &len));
}

static void put_count(mg_json *j, const char *key, long long v)
{
    if (v < 0)
        mg_json_null(j, key);
    else
        mg_json_int(j, key, v);
}

/* --turns: the group's figures so far (mg_turns.h). */
static void put_turns(mg_json *j, const mg_turns_stats *t)
{
    if (t == NULL)
        return;
    mg_json_object_begin(j, "turns");
    mg_json_int(j, "role", t->role);
    mg_json_int(j, "count", t->count);
    mg_json_number(j, "slice_s", t->slice_s);
    mg_json_int(j, "yields", t->yields);
    mg_json_number(j, "waited_s", t->waited_s);
    mg_json_bool(j, "lost", t->lost);
    mg_json_object_end(j);
}

/* What one sentinel record says (rank 0). */
typedef struct {
    const char *phase;
    int peer;
    double lat_us, rmin, rmax;
    const node_report *nodes;
    int n;
    const mg_turns_stats *turns;
} sentinel_rec;

/* The sinks' writer of a sentinel record (mg_record_fn). */
static void write_record(FILE *f, const void *arg, int as_comment)
{
    const sentinel_rec *r = arg;
    mg_json j;
    (void)as_comment;
    mg_json_init(&j, f);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "sentinel");
    mg_json_string(&j, "phase", r->phase);
    mg_json_int(&j, "probe_bytes", 8);
    if (r->peer >= 0) {
        mg_json_array_begin(&j, "probe_pair");
        mg_json_int(&j, NULL, 0);
        mg_json_int(&j, NULL, r->peer);
        mg_json_array_end(&j);
    } else {
        mg_json_null(&j, "probe_pair");
    }
    mg_json_number(&j, "probe_latency_us", r->lat_us);
    mg_json_number(&j, "compute_rate_min", r->rmin);
    mg_json_number(&j, "compute_rate_max", r->rmax);
    mg_json_string(&j, "compute_rate_unit", "Munits/s");
    mg_json_array_begin(&j, "nodes");
    for (int i = 0; i < r->n; ++i) {
        if (!r->nodes[i].valid)
            continue;
        mg_json_object_begin(&j, NULL);
        mg_json_string(&j, "host", r->nodes[i].host);
        mg_json_number(&j, "load1", r->nodes[i].load1);
        mg_json_number(&j, "load5", r->nodes[i].load5);
        mg_json_number(&j, "load15", r->nodes[i].load15);
        put_count(&j, "procs_running", r->nodes[i].procs_running);
        put_count(&j, "ctxt", r->nodes[i].ctxt);
        put_count(&j, "cpu_jiffies", r->nodes[i].cpu_jiffies);
        put_count(&j, "steal_jiffies", r->nodes[i].steal_jiffies);
        mg_json_number(&j, "cpu_mhz", r->nodes[i].cpu_mhz);
        mg_json_object_end(&j);
    }
    mg_json_array_end(&j);
    put_turns(&j, r->turns);
    mg_json_object_end(&j);
    fputc('\n', f);
}

void mg_sentinel_take(const mg_ctx *ctx, const char *phase, mg_sink *const *sink, int nsinks)
{
    node_report mine, *all = NULL;
    double rate, rmin = NAN, rmax = NAN, lat_us;
    int peer = -1;

    if (ctx->nranks >= 2)
        peer = ctx->partner_of && ctx->partner_of[0] > 0 ? ctx->partner_of[0] : 1;
    node_state(ctx, &mine);
    MG_MPI_CHECK(MPI_Barrier(ctx->comm));
    lat_us = probe_latency_us(ctx, peer);
    rate = compute_rate();
    MG_MPI_CHECK(MPI_Reduce(&rate, &rmin, 1, MPI_DOUBLE, MPI_MIN, 0, ctx->comm));
    MG_MPI_CHECK(MPI_Reduce(&rate, &rmax, 1, MPI_DOUBLE, MPI_MAX, 0, ctx->comm));
    if (ctx->rank == 0 && (all = malloc((size_t)ctx->nranks * sizeof *all)) == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory for the sentinel");
    MG_MPI_CHECK(MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0,
                            ctx->comm));
    if (ctx->rank == 0) {
        mg_turns_stats ts;
        const mg_turns_stats *turns = ctx->drv.turns ? &ts : NULL;
        sentinel_rec rec = {phase, peer, lat_us, rmin, rmax, all, ctx->nranks, turns};
        mg_turns_get(ctx->drv.turns, &ts);
        for (int k = 0; k < nsinks; ++k)
            sink[k]->ops->record(sink[k], write_record, &rec);
        free(all);
    }
}
