/* SPDX-License-Identifier: BSD-3-Clause */
/* Concurrent fan-in and fan-out bandwidth (OSU osu_bw_fan_in/out).
 *
 * Hubs and their leaves, by --hubs:
 *   rank  rank 0 is the one hub, every other rank its leaf;
 *   node  (OSU's) the ranks of rank 0's node are the hubs; the leaves of the
 *         hub with local index l are the ranks with local index l on every
 *         other node (two or more nodes; a rank without a hub is idle).
 * One iteration, --direction in: every leaf posts W non-blocking sends of N
 * bytes to its hub, which posts all its leaves' W receives at once; then the
 * hub acknowledges each leaf with 4 bytes. --direction out: the hub sends
 * W messages to each leaf at once, each leaf acknowledges. Every sample is
 * the slowest rank's time. Reported: aggregate bandwidth = leaves x W x N
 * / time in MB/s; extras: the leaves, the message rate and the slowest and
 * fastest leaf's bandwidth (its own median time); the slowest rank and its
 * host are named.
 */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>
#include <stdlib.h>

enum { DIR_IN = 0, DIR_OUT = 1, HUBS_RANK = 0, HUBS_NODE = 1 };
enum { TAG_DATA = 1, TAG_ACK = 2, ACK_BYTES = 4 };

typedef struct {
    mg_pt2pt_params p2p; /* first: -W, -b */
    int direction;
    int hubs;
} fan_params;

typedef struct {
    int *hub;    /* every rank's hub, -1: none (a hub, or idle) */
    int linked;  /* the ranks that have a hub: the streams of an iteration */
    int nleaves; /* this rank's leaves (a hub) */
    int *leaves;
} fan_state;

static const fan_params *fp(const mg_ctx *c) { return c->params; }
static fan_state *fs(const mg_ctx *c) { return c->state; }

/* Every rank's hub (util/mg_pairing.h), an array the caller frees; *linked:
 * the number of ranks that have one. */
static int *map_hubs(const mg_ctx *c, int *linked)
{
    int *hub = malloc((size_t)c->nranks * sizeof *hub);
    if (hub == NULL || (*linked = mg_fan_hubs(fp(c)->hubs == HUBS_NODE, c->nranks, c->node_of,
                                              c->nnodes, hub)) < 0)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    return hub;
}

/* The leaves of `rank` under hub[] (into out when not NULL); their number. */
static int leaves_of(const mg_ctx *c, const int *hub, int rank, int *out)
{
    int n = 0;
    for (int r = 0; r < c->nranks; ++r)
        if (hub[r] == rank) {
            if (out)
                out[n] = r;
            ++n;
        }
    return n;
}

/* This rank's leaves before the set-up (buffer and request counts). */
static int my_leaves(const mg_ctx *c)
{
    int linked, *hub = map_hubs(c, &linked), n = leaves_of(c, hub, c->rank, NULL);
    free(hub);
    return n;
}

/* Collective set-up before the sweep: the hubs, this rank's leaves. */
static void setup(mg_ctx *c, uint64_t max_size)
{
    fan_state *s = fs(c);
    (void)max_size;
    s->hub = map_hubs(c, &s->linked);
    if ((s->leaves = malloc((size_t)c->nranks * sizeof *s->leaves)) == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory");
    s->nleaves = leaves_of(c, s->hub, c->rank, s->leaves);
}

static void teardown(mg_ctx *c)
{
    free(fs(c)->hub);
    free(fs(c)->leaves);
    fs(c)->hub = fs(c)->leaves = NULL;
}

/* A hub: W messages with each leaf at once, then one acknowledgement each. */
static void hub_iteration(mg_ctx *c, uint64_t size, int in)
{
    const mg_xfer *x = &c->xfer;
    const fan_state *s = fs(c);
    const int w = (int)mg_window(c), slots = mg_nslots(c);
    char ack[ACK_BYTES] = {0};
    int q = 0;
    for (int l = 0; l < s->nleaves; ++l)
        for (int k = 0; k < w; ++k, ++q) {
            /* fan-in: each leaf's messages in slots of their own */
            const size_t slot = (size_t)l * (size_t)slots + (size_t)(slots > 1 ? k : 0);
            if (in)
                mg_xfer_irecv(x, (char *)c->rbuf + slot * size, size, s->leaves[l], TAG_DATA,
                              &c->reqs[q]);
            else
                mg_xfer_isend(x, mg_slot(c, c->sbuf, size, k), size, s->leaves[l], TAG_DATA,
                              &c->reqs[q]);
        }
    mg_xfer_waitall(x, q, c->reqs);
    for (int l = 0; l < s->nleaves; ++l) {
        if (in)
            mg_xfer_send(x, ack, ACK_BYTES, s->leaves[l], TAG_ACK);
        else
            mg_xfer_recv(x, ack, ACK_BYTES, s->leaves[l], TAG_ACK);
    }
}

static void leaf_iteration(mg_ctx *c, uint64_t size, int in)
{
    const mg_xfer *x = &c->xfer;
    const int w = (int)mg_window(c), hub = fs(c)->hub[c->rank];
    char ack[ACK_BYTES] = {0};
    for (int k = 0; k < w; ++k) {
        if (in)
            mg_xfer_isend(x, mg_slot(c, c->sbuf, size, k), size, hub, TAG_DATA, &c->reqs[k]);
        else
            mg_xfer_irecv(x, mg_slot(c, c->rbuf, size, k), size, hub, TAG_DATA, &c->reqs[k]);
    }
    mg_xfer_waitall(x, w, c->reqs);
    if (in)
        mg_xfer_recv(x, ack, ACK_BYTES, hub, TAG_ACK);
    else
        mg_xfer_send(x, ack, ACK_BYTES, hub, TAG_ACK);
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const int in = fp(c)->direction == DIR_IN;
    for (long i = 0; i < iters; ++i) {
        if (fs(c)->nleaves > 0)
            hub_iteration(c, size, in);
        else if (fs(c)->hub[c->rank] >= 0)
            leaf_iteration(c, size, in);
    }
}

static int check(const mg_ctx *c, char *err, size_t errlen)
{
    if (fp(c)->hubs == HUBS_NODE && c->nnodes < 2) {
        snprintf(err, errlen,
                 "--hubs node needs two or more nodes (the ranks of rank 0's node are the hubs, "
                 "their leaves the ranks of the same local index on the other nodes); this "
                 "run has one: use --hubs rank");
        return -1;
    }
    return 0;
}

/* A hub receives every leaf's W messages (fan-in) into slots of its own. */
static size_t rbuf_bytes(const mg_ctx *c, uint64_t max_size)
{
    const int n = fp(c)->direction == DIR_IN ? my_leaves(c) : 0;
    return (size_t)(n > 0 ? n : 1) * mg_window_buf_bytes(c, max_size);
}

static size_t requests(const mg_ctx *c)
{
    const int n = my_leaves(c);
    return (size_t)(n > 0 ? n : 1) * (size_t)mg_window(c);
}

static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    const int slots = mg_nslots(c), in = fp(c)->direction == DIR_IN;
    int n = 0, *leaves;
    (void)size;
    if (!in)
        return fs(c)->hub[c->rank] >= 0 ? mg_slots_from(c, fs(c)->hub[c->rank], from, max) : 0;
    leaves = fs(c)->leaves;
    for (int l = 0; l < fs(c)->nleaves; ++l)
        for (int k = 0; k < slots && n < max; ++k)
            from[n++] = leaves[l];
    return n;
}

static double bytes_per_iter(const mg_ctx *c, uint64_t size)
{
    return (double)fs(c)->linked * (double)mg_window(c) * (double)size;
}

static const char *const extra_names[] = {"leaves", "msg_rate_per_s", "leaf_min_MB/s",
                                          "leaf_max_MB/s", NULL};

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    out[0] = fs(c)->linked;
    out[1] = size > 0 ? st->median * 1e6 / (double)size : NAN;
    out[2] = INFINITY;
    out[3] = -INFINITY;
    for (int r = 0; r < c->nranks; ++r)
        if (fs(c)->hub[r] >= 0 && rank_s[r] > 0) {
            const double mbs = (double)mg_window(c) * (double)size / rank_s[r] / 1e6;
            out[2] = fmin(out[2], mbs);
            out[3] = fmax(out[3], mbs);
        }
}

static const char *const directions[] = {"in", "out", NULL};
static const char *const hub_modes[] = {"rank", "node", NULL};

static const mg_opt opts[] = {
    MG_OPT_WINDOW,
    MG_OPT_BUFFERS,
    {.long_name = "direction",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(fan_params, direction),
     .arg_name = "in|out",
     .help = "fan-in: the leaves send to their hub at once; fan-out: the hub sends to its leaves",
     .choices = directions,
     .def = "in"},
    {.long_name = "hubs",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(fan_params, hubs),
     .arg_name = "rank|node",
     .help = "rank 0 the hub of every other rank, or (OSU's) rank 0's node's ranks the hubs of "
             "the ranks of the same local index on the other nodes",
     .choices = hub_modes,
     .def = "rank"},
    MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "fan",
    .report.description = "fan-in / fan-out bandwidth: leaves stream windows of W messages to or "
                          "from their hub at once; aggregate MB/s (10^6 bytes/s), slowest rank",
    MG_PT2PT_MANY_FIELDS,
    /* MG_PT2PT_WINDOW_FIELDS but the params, requests and receive buffer */
    MG_PT2PT_BW_SWEEP,
    .kernel.buf_bytes = mg_window_buf_bytes,
    .valid.send_slots = mg_window_send_slots,
    .params.params_size = sizeof(fan_params),
    .params.opts = opts,
    .params.check = check,
    .timing.bytes_per_iter = bytes_per_iter,
    .kernel.iterate = iterate,
    .kernel.setup = setup,
    .kernel.teardown = teardown,
    .kernel.state_size = sizeof(fan_state),
    .kernel.rbuf_bytes = rbuf_bytes,
    .kernel.requests = requests,
    .valid.recv_slots = recv_slots,
    .report.extra_names = extra_names,
    .report.extras = extras,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
