/* SPDX-License-Identifier: BSD-3-Clause */
/* Halo exchange on a periodic grid (IMB-P2P Stencil2D and Stencil3D).
 *
 * The ranks form a periodic --dims 2 or 3 grid (MPI_Dims_create, rank r at
 * its row-major coordinates). One iteration: every rank posts a receive
 * from each of its 2 x dims neighbours, then a send of N bytes to each, and
 * waits for all of them. A message to the neighbour in direction d carries
 * tag d, and the receive from direction d expects the opposite direction's
 * tag, so even a dimension of 2 (both neighbours one rank) pairs every
 * message with its own buffer. Every sample is the slowest rank's time per
 * exchange; extras: the messages per exchange over all ranks, their
 * aggregate bandwidth and message rate (IMB's Mbytes/sec and Msg/sec). */
#include "mg_bench.h"
#include "pt2pt.h"

#include <math.h>

enum { MAX_DIRS = 6 };

typedef struct {
    int dims; /* --dims: 2 or 3 */
} stencil_params;

typedef struct {
    int grid[3];      /* the grid's extent per dimension */
    int nb[MAX_DIRS]; /* the neighbour in direction d: -x, +x, -y, +y, -z, +z */
} stencil_state;

static int ndims(const mg_ctx *c) { return ((const stencil_params *)c->params)->dims == 1 ? 3 : 2; }
static int ndirs(const mg_ctx *c) { return 2 * ndims(c); }
static stencil_state *ss(const mg_ctx *c) { return c->state; }

/* The grid and this rank's neighbours (every rank computes the same). */
static void setup(mg_ctx *c, uint64_t max_size)
{
    stencil_state *s = ss(c);
    const int n = ndims(c);
    int coord[3], stride[3] = {1, 1, 1};
    (void)max_size;
    s->grid[0] = s->grid[1] = s->grid[2] = 0;
    MG_MPI_CHECK(MPI_Dims_create(c->nranks, n, s->grid));
    /* row-major: the last dimension varies fastest */
    for (int k = n - 2; k >= 0; --k)
        stride[k] = stride[k + 1] * s->grid[k + 1];
    for (int k = 0; k < n; ++k)
        coord[k] = c->rank / stride[k] % s->grid[k];
    for (int k = 0; k < n; ++k)
        for (int side = 0; side < 2; ++side) {
            const int step = side ? 1 : s->grid[k] - 1;
            const int moved = (coord[k] + step) % s->grid[k];
            s->nb[2 * k + side] = c->rank + (moved - coord[k]) * stride[k];
        }
}

static void iterate(mg_ctx *c, uint64_t size, long iters)
{
    const mg_xfer *x = &c->xfer;
    const stencil_state *s = ss(c);
    const int dirs = ndirs(c);
    for (long i = 0; i < iters; ++i) {
        for (int d = 0; d < dirs; ++d)
            mg_xfer_irecv(x, (char *)c->rbuf + (size_t)d * size, size, s->nb[d], d ^ 1,
                          &c->reqs[d]);
        for (int d = 0; d < dirs; ++d)
            mg_xfer_isend(x, (char *)c->sbuf + (size_t)d * size, size, s->nb[d], d,
                          &c->reqs[dirs + d]);
        mg_xfer_waitall(x, 2 * dirs, c->reqs);
    }
}

static size_t buf_bytes(const mg_ctx *c, uint64_t max_size)
{
    return (size_t)ndirs(c) * (size_t)(max_size ? max_size : 1);
}

static int send_slots(const mg_ctx *c, uint64_t size)
{
    (void)size;
    return ndirs(c);
}

static int recv_slots(const mg_ctx *c, uint64_t size, int *from, int max)
{
    int n = 0;
    (void)size;
    for (int d = 0; d < ndirs(c) && n < max; ++d)
        from[n++] = ss(c)->nb[d];
    return n;
}

static const char *const extra_names[] = MG_MSG_EXTRA_NAMES;

static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    (void)rank_s;
    mg_msg_extras((double)c->nranks * ndirs(c), size, st, out);
}

static void describe(const mg_ctx *c, mg_kvlist *out)
{
    char grid[48];
    const stencil_state *s = ss(c);
    if (ndims(c) == 3)
        snprintf(grid, sizeof grid, "%dx%dx%d", s->grid[0], s->grid[1], s->grid[2]);
    else
        snprintf(grid, sizeof grid, "%dx%d", s->grid[0], s->grid[1]);
    mg_kv_object(out, "stencil");
    mg_kv_string(out, "grid", grid);
    mg_kv_number(out, "neighbours", ndirs(c));
    mg_kv_end(out);
}

static const char *const dims_names[] = {"2", "3", NULL};

static const mg_opt opts[] = {
    {.long_name = "dims",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(stencil_params, dims),
     .arg_name = "2|3",
     .help = "the periodic grid's dimensions (MPI_Dims_create): 4 or 6 neighbours per rank",
     .choices = dims_names,
     .def = "2"},
    MG_OPT_LAST};

static const mg_bench bench = {
    .id.name = "stencil",
    .report.description = "halo exchange on a periodic 2-D or 3-D grid (IMB-P2P Stencil2D/3D): "
                          "time per exchange with every neighbour in us, the slowest rank",
    MG_PT2PT_MANY_FIELDS,
    MG_PT2PT_LATENCY_FIELDS(1.0),
    .params.opts = opts,
    .params.params_size = sizeof(stencil_params),
    .kernel.setup = setup,
    .kernel.iterate = iterate,
    .kernel.state_size = sizeof(stencil_state),
    .kernel.buf_bytes = buf_bytes,
    .kernel.nrequests = 2 * MAX_DIRS,
    .valid.send_slots = send_slots,
    .valid.recv_slots = recv_slots,
    .report.extra_names = extra_names,
    .report.extras = extras,
    .report.describe = describe,
};

int main(int argc, char **argv) { return mg_main(&bench, argc, argv); }
