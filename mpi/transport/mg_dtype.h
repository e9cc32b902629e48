/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI datatypes of the -D layouts (util/mg_layout.h), shared by the
 * point-to-point -T/-D variant (pt2pt/dtype.c) and the collectives'
 * (collective/coll_dtype.c). */
#ifndef MG_DTYPE_H
#define MG_DTYPE_H

#include "mg_layout.h"
#include "mg_mpi.h"

#include <stddef.h>
#include <stdint.h>

/* n > 0 elements of elem (e bytes each) laid out by l, as one message:
 * basic gives *dt = elem and *count = n and returns 0 (nothing to free);
 * the others a committed derived type, *count = 1, and return 1 (free it
 * with MPI_Type_free). n must be at most INT_MAX. */
int mg_dt_type(const mg_dt_layout *l, MPI_Datatype elem, size_t e, uint64_t n, MPI_Datatype *dt,
               int *count);

/* The same layout as one block of a collective: always a committed derived
 * type of count 1 (basic: contiguous), resized to lower bound 0 and the
 * layout's extent (mg_dt_blocks), so that block j of a gather or an
 * alltoall starts at j times that extent whatever padding MPI gives the
 * type. Free it with MPI_Type_free. */
void mg_dt_block_type(const mg_dt_layout *l, MPI_Datatype elem, size_t e, uint64_t n,
                      MPI_Datatype *dt);

#endif
