/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI datatypes of the -D layouts: see mg_dtype.h. */
#include "mg_dtype.h"

#include <stdlib.h>

typedef struct {
    int *len, *disp;
    int n;
} idx_blocks;

static void collect(void *arg, uint64_t off, uint64_t len)
{
    idx_blocks *b = arg;
    b->len[b->n] = (int)len;
    b->disp[b->n++] = (int)off;
}

/* vector:B:S of n elements: a shorter last block when B does not divide n */
static void vector_type(const mg_dt_layout *l, MPI_Datatype elem, size_t e, uint64_t n,
                        MPI_Datatype *dt)
{
    const uint64_t nb = n / (uint64_t)l->block, tail = n % (uint64_t)l->block;
    MPI_Datatype a, t;
    if (nb == 0) {
        MG_MPI_CHECK(MPI_Type_contiguous((int)tail, elem, dt));
    } else if (tail == 0) {
        MG_MPI_CHECK(MPI_Type_vector((int)nb, (int)l->block, (int)l->stride, elem, dt));
    } else {
        int lens[2] = {1, 1};
        MPI_Aint disp[2] = {0, (MPI_Aint)(nb * (uint64_t)l->stride * e)};
        MG_MPI_CHECK(MPI_Type_vector((int)nb, (int)l->block, (int)l->stride, elem, &a));
        MG_MPI_CHECK(MPI_Type_contiguous((int)tail, elem, &t));
        MPI_Datatype parts[2] = {a, t};
        MG_MPI_CHECK(MPI_Type_create_struct(2, lens, disp, parts, dt));
        MG_MPI_CHECK(MPI_Type_free(&a));
        MG_MPI_CHECK(MPI_Type_free(&t));
    }
}

/* The derived type of the layout, not committed (basic: contiguous). */
static void derived(const mg_dt_layout *l, MPI_Datatype elem, size_t e, uint64_t n,
                    MPI_Datatype *dt)
{
    MPI_Datatype t;
    if (l->kind == MG_DT_BASIC || l->kind == MG_DT_CONTIGUOUS) {
        MG_MPI_CHECK(MPI_Type_contiguous((int)n, elem, dt));
    } else if (l->kind == MG_DT_RESIZED) {
        MG_MPI_CHECK(MPI_Type_create_resized(elem, 0, 2 * (MPI_Aint)e, &t));
        MG_MPI_CHECK(MPI_Type_contiguous((int)n, t, dt));
        MG_MPI_CHECK(MPI_Type_free(&t));
    } else if (l->kind == MG_DT_VECTOR) {
        vector_type(l, elem, e, n, dt);
    } else {
        idx_blocks b = {malloc(n * sizeof(int)), malloc(n * sizeof(int)), 0};
        if (b.len == NULL || b.disp == NULL)
            mg_mpi_die(__FILE__, __LINE__, "out of memory for an indexed datatype");
        mg_dt_blocks(l, 1, n, collect, &b); /* in elements */
        MG_MPI_CHECK(MPI_Type_indexed(b.n, b.len, b.disp, elem, dt));
        free(b.len);
        free(b.disp);
    }
}

int mg_dt_type(const mg_dt_layout *l, MPI_Datatype elem, size_t e, uint64_t n, MPI_Datatype *dt,
               int *count)
{
    if (l->kind == MG_DT_BASIC) {
        *dt = elem;
        *count = (int)n;
        return 0;
    }
    derived(l, elem, e, n, dt);
    MG_MPI_CHECK(MPI_Type_commit(dt));
    *count = 1;
    return 1;
}

void mg_dt_block_type(const mg_dt_layout *l, MPI_Datatype elem, size_t e, uint64_t n,
                      MPI_Datatype *dt)
{
    MPI_Datatype t;
    const uint64_t ext = mg_dt_extent(l, e, n * e);
    derived(l, elem, e, n, &t);
    MG_MPI_CHECK(MPI_Type_create_resized(t, 0, (MPI_Aint)ext, dt));
    MG_MPI_CHECK(MPI_Type_free(&t));
    MG_MPI_CHECK(MPI_Type_commit(dt));
}
