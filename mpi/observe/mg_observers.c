/* SPDX-License-Identifier: BSD-3-Clause */
/* The registry of run-wide features (mg_observe.h): one line each, in the
 * order their values appear in a result record. */
#include "mg_observe.h"

extern const mg_observer mg_obs_served_by;
extern const mg_observer mg_obs_pvars;
extern const mg_observer mg_obs_hostcost;
extern const mg_observer mg_obs_per_rank;
extern const mg_observer mg_obs_sentinel;
extern const mg_observer mg_obs_samples;

const mg_observer *const mg_observers[] = {
    &mg_obs_served_by, /* "algorithm": the collective algorithm the cvars name */
    &mg_obs_pvars,     /* "pvars": MPI_T performance variables (--pvars) */
    &mg_obs_hostcost,  /* "host": CPU, context switches and page faults per iteration */
    &mg_obs_per_rank,  /* "rank_median_us": every rank's median (--per-rank) */
    &mg_obs_sentinel,  /* records of their own before and after the sweep (--sentinel) */
    &mg_obs_samples,   /* every timed sample to the --samples file */
    NULL};
