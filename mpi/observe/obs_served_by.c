/* SPDX-License-Identifier: BSD-3-Clause */
/* The observer "served_by": for the programs whose MPI library picks an
 * algorithm (MG_FACT_ALGORITHM: the collectives), the algorithm that
 * served each row as far as the library's control variables tell (a cvar
 * that forces one, mg_prov_served_by; else "unknown"), as a member of the
 * result record itself (doc/output.md): "algorithm": "NAME". */
#include "mg_observe.h"

#include "mg_prov.h"
#include "mg_run.h"

#include <stdio.h>

typedef struct {
    char served_by[160]; /* rank 0's, or "" */
} served_state;

static int served_open(void *st, mg_ctx *ctx, char *err, size_t errlen)
{
    served_state *sv = st;
    (void)err, (void)errlen;
    if (!(ctx->base->id.facts & MG_FACT_ALGORITHM))
        return 0;
    if (ctx->rank == 0 && ctx->drv.prov)
        mg_prov_served_by(ctx->drv.prov, ctx->base->id.name, sv->served_by, sizeof sv->served_by);
    return 1;
}

static void served_row(void *st, mg_ctx *ctx, const mg_row_view *v, mg_kvlist *out, double *cell)
{
    const served_state *sv = st;
    (void)ctx, (void)v, (void)cell;
    if (sv->served_by[0])
        mg_kv_string(out, "algorithm", sv->served_by);
}

const mg_observer mg_obs_served_by = {.name = "served_by",
                                      .flat = 1,
                                      .state_size = sizeof(served_state),
                                      .open = served_open,
                                      .row = served_row};
