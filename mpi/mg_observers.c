/* SPDX-License-Identifier: BSD-3-Clause */
/* The registry of run-wide features (mg_observe.h): one line each, in the
 * order their values appear in a result record. */
#include "mg_observe.h"

extern const mg_observer mg_obs_pvars;
extern const mg_observer mg_obs_hostcost;

const mg_observer *const mg_observers[] = {
    &mg_obs_pvars,    /* "pvars": MPI_T performance variables (--pvars) */
    &mg_obs_hostcost, /* "host": CPU, context switches and page faults per iteration */
    NULL};
