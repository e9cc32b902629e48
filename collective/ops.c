/* SPDX-License-Identifier: BSD-3-Clause */
/* The ops table: one entry per collective operation with its buffer layout
 * (flags) and one function that makes the call in each form: blocking
 * MPI_<Op>, non-blocking MPI_I<op> and persistent MPI_<Op>_init (MPI-4, where
 * configure found it). Everything else (buffers, counts, in-place, roots,
 * validation, timing) is generic: collective/coll_*.c and the driver.
 */
#include "mg_collective.h"

#include "config.h"

#if MG_HAVE_PERSISTENT_COLL
#define INIT(Name, ...) MPI_##Name##_init(__VA_ARGS__, MPI_INFO_NULL, a->req)
#else
#define INIT(Name, ...) MPI_ERR_OTHER
#endif

/* The three forms of one call with the same arguments. */
#define FORMS(Name, name, ...)                                                                     \
    switch (a->form) {                                                                             \
    case MG_FORM_BLOCKING: return MPI_##Name(__VA_ARGS__);                                         \
    case MG_FORM_NONBLOCKING: return MPI_I##name(__VA_ARGS__, a->req);                             \
    default: return INIT(Name, __VA_ARGS__);                                                       \
    }

/* ... and, for counts above INT_MAX where the library has them (MPI-4),
 * the large-count calls MPI_<Op>_c, MPI_I<op>_c, MPI_<Op>_init_c. */
#if MG_HAVE_MPI_LARGE_COUNT && MG_HAVE_PERSISTENT_COLL
#define INIT_C(Name, ...) MPI_##Name##_init_c(__VA_ARGS__, MPI_INFO_NULL, a->req)
#else
#define INIT_C(Name, ...) MPI_ERR_OTHER
#endif
#if MG_HAVE_MPI_LARGE_COUNT
#define FORMS_LC(Name, name, ...)                                                                  \
    if (a->large) {                                                                                \
        switch (a->form) {                                                                         \
        case MG_FORM_BLOCKING: return MPI_##Name##_c(__VA_ARGS__);                                 \
        case MG_FORM_NONBLOCKING: return MPI_I##name##_c(__VA_ARGS__, a->req);                     \
        default: return INIT_C(Name, __VA_ARGS__);                                                 \
        }                                                                                          \
    }                                                                                              \
    FORMS(Name, name, __VA_ARGS__)
#else
#define FORMS_LC(Name, name, ...) FORMS(Name, name, __VA_ARGS__)
#endif

static int barrier(const mg_coll_args *a) { FORMS(Barrier, barrier, a->comm) }

static int bcast(const mg_coll_args *a)
{
    FORMS_LC(Bcast, bcast, a->rbuf, a->count, a->dt, a->root, a->comm)
}

static int reduce(const mg_coll_args *a)
{
    FORMS_LC(Reduce, reduce, a->sbuf, a->rbuf, a->count, a->dt, a->op, a->root, a->comm)
}

static int allreduce(const mg_coll_args *a)
{
    FORMS_LC(Allreduce, allreduce, a->sbuf, a->rbuf, a->count, a->dt, a->op, a->comm)
}

static int reduce_scatter_block(const mg_coll_args *a)
{
    FORMS_LC(Reduce_scatter_block, reduce_scatter_block, a->sbuf, a->rbuf, a->count, a->dt, a->op,
             a->comm)
}

static int reduce_scatter(const mg_coll_args *a)
{
    FORMS(Reduce_scatter, reduce_scatter, a->sbuf, a->rbuf, a->rcounts, a->dt, a->op, a->comm)
}

static int scatter(const mg_coll_args *a)
{
    FORMS_LC(Scatter, scatter, a->sbuf, a->count, a->dt, a->rbuf, a->count, a->dt, a->root, a->comm)
}

static int scatterv(const mg_coll_args *a)
{
    FORMS(Scatterv, scatterv, a->sbuf, a->scounts, a->sdispls, a->dt, a->rbuf, a->count, a->dt,
          a->root, a->comm)
}

static int gather(const mg_coll_args *a)
{
    FORMS_LC(Gather, gather, a->sbuf, a->count, a->dt, a->rbuf, a->count, a->dt, a->root, a->comm)
}

static int gatherv(const mg_coll_args *a)
{
    FORMS(Gatherv, gatherv, a->sbuf, a->count, a->dt, a->rbuf, a->rcounts, a->rdispls, a->dt,
          a->root, a->comm)
}

static int allgather(const mg_coll_args *a)
{
    FORMS_LC(Allgather, allgather, a->sbuf, a->count, a->dt, a->rbuf, a->count, a->dt, a->comm)
}

static int allgatherv(const mg_coll_args *a)
{
    FORMS(Allgatherv, allgatherv, a->sbuf, a->count, a->dt, a->rbuf, a->rcounts, a->rdispls, a->dt,
          a->comm)
}

static int alltoall(const mg_coll_args *a)
{
    FORMS_LC(Alltoall, alltoall, a->sbuf, a->count, a->dt, a->rbuf, a->count, a->dt, a->comm)
}

static int alltoallv(const mg_coll_args *a)
{
    FORMS(Alltoallv, alltoallv, a->sbuf, a->scounts, a->sdispls, a->dt, a->rbuf, a->rcounts,
          a->rdispls, a->dt, a->comm)
}

static int alltoallw(const mg_coll_args *a)
{
    FORMS(Alltoallw, alltoallw, a->sbuf, a->scounts, a->sdispls, a->types, a->rbuf, a->rcounts,
          a->rdispls, a->types, a->comm)
}

static int neighbor_allgather(const mg_coll_args *a)
{
    FORMS(Neighbor_allgather, neighbor_allgather, a->sbuf, a->count, a->dt, a->rbuf, a->count,
          a->dt, a->comm)
}

static int neighbor_allgatherv(const mg_coll_args *a)
{
    FORMS(Neighbor_allgatherv, neighbor_allgatherv, a->sbuf, a->count, a->dt, a->rbuf, a->rcounts,
          a->rdispls, a->dt, a->comm)
}

static int neighbor_alltoall(const mg_coll_args *a)
{
    FORMS(Neighbor_alltoall, neighbor_alltoall, a->sbuf, a->count, a->dt, a->rbuf, a->count, a->dt,
          a->comm)
}

static int neighbor_alltoallv(const mg_coll_args *a)
{
    FORMS(Neighbor_alltoallv, neighbor_alltoallv, a->sbuf, a->scounts, a->sdispls, a->dt, a->rbuf,
          a->rcounts, a->rdispls, a->dt, a->comm)
}

static int neighbor_alltoallw(const mg_coll_args *a)
{
    /* MPI_Neighbor_alltoallw's displacements are MPI_Aint */
    FORMS(Neighbor_alltoallw, neighbor_alltoallw, a->sbuf, a->scounts, a->adispls, a->types,
          a->rbuf, a->rcounts, a->adispls, a->types, a->comm)
}

static int reduce_local(const mg_coll_args *a)
{
#if MG_HAVE_MPI_LARGE_COUNT
    if (a->large)
        return MPI_Reduce_local_c(a->sbuf, a->rbuf, a->count, a->dt, a->op);
#endif
    return MPI_Reduce_local(a->sbuf, a->rbuf, (int)a->count, a->dt, a->op);
}

static int scan(const mg_coll_args *a)
{
    FORMS_LC(Scan, scan, a->sbuf, a->rbuf, a->count, a->dt, a->op, a->comm)
}

static int exscan(const mg_coll_args *a)
{
    FORMS_LC(Exscan, exscan, a->sbuf, a->rbuf, a->count, a->dt, a->op, a->comm)
}

enum {
    RED = MG_COLL_REDUCE | MG_COLL_IN_ALL,
    ALLP = MG_COLL_SEND_P | MG_COLL_RECV_P | MG_COLL_SCATTER | MG_COLL_IN_ALL,
    SCAT = MG_COLL_ROOTED | MG_COLL_SEND_P | MG_COLL_P_ROOT | MG_COLL_SCATTER | MG_COLL_IN_ROOT,
    GATH = MG_COLL_ROOTED | MG_COLL_RECV_P | MG_COLL_P_ROOT | MG_COLL_IN_ROOT,
    AGATH = MG_COLL_RECV_P | MG_COLL_IN_ALL,
    /* neighbourhood: no MPI_IN_PLACE (MPI forbids it there) */
    NAG = MG_COLL_RECV_P | MG_COLL_NEIGHBOR,
    NA2A = MG_COLL_SEND_P | MG_COLL_RECV_P | MG_COLL_SCATTER | MG_COLL_NEIGHBOR
};

const mg_coll_op mg_coll_ops[] = {
    {"barrier", MG_COLL_NODATA, barrier, MG_BUS_NONE},
    {"bcast", MG_COLL_ROOTED | MG_COLL_ONEBUF, bcast, MG_BUS_WHOLE},
    {"reduce", MG_COLL_ROOTED | MG_COLL_REDUCE | MG_COLL_IN_ROOT, reduce, MG_BUS_WHOLE},
    {"allreduce", RED, allreduce, MG_BUS_ALLRED},
    {"reduce_scatter", RED | MG_COLL_SEND_P | MG_COLL_VECTOR, reduce_scatter, MG_BUS_NONE},
    {"reduce_scatter_block", RED | MG_COLL_SEND_P, reduce_scatter_block, MG_BUS_BLOCKS},
    {"scatter", SCAT, scatter, MG_BUS_BLOCKS},
    {"scatterv", SCAT | MG_COLL_VECTOR, scatterv, MG_BUS_NONE},
    {"gather", GATH, gather, MG_BUS_BLOCKS},
    {"gatherv", GATH | MG_COLL_VECTOR, gatherv, MG_BUS_NONE},
    {"allgather", AGATH, allgather, MG_BUS_BLOCKS},
    {"allgatherv", AGATH | MG_COLL_VECTOR, allgatherv, MG_BUS_NONE},
    {"alltoall", ALLP, alltoall, MG_BUS_BLOCKS},
    {"alltoallv", ALLP | MG_COLL_VECTOR, alltoallv, MG_BUS_NONE},
    {"alltoallw", ALLP | MG_COLL_VECTOR | MG_COLL_WTYPES, alltoallw, MG_BUS_NONE},
    {"neighbor_allgather", NAG, neighbor_allgather, MG_BUS_NONE},
    {"neighbor_allgatherv", NAG | MG_COLL_VECTOR, neighbor_allgatherv, MG_BUS_NONE},
    {"neighbor_alltoall", NA2A, neighbor_alltoall, MG_BUS_NONE},
    {"neighbor_alltoallv", NA2A | MG_COLL_VECTOR, neighbor_alltoallv, MG_BUS_NONE},
    {"neighbor_alltoallw", NA2A | MG_COLL_VECTOR | MG_COLL_WTYPES, neighbor_alltoallw, MG_BUS_NONE},
    {"scan", RED | MG_COLL_SCAN, scan, MG_BUS_NONE},
    {"exscan", RED | MG_COLL_SCAN | MG_COLL_EXCL, exscan, MG_BUS_NONE},
    {"reduce_local", MG_COLL_REDUCE | MG_COLL_LOCAL, reduce_local, MG_BUS_NONE},
    {NULL, 0, NULL, MG_BUS_NONE}};
