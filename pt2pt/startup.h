/* SPDX-License-Identifier: BSD-3-Clause */
/* Start-up programs (pt2pt/startup.c): startup times MPI's initialisation
 * on every rank against the launcher's timestamp; hello times a message
 * through every rank, the first one (cold) and then the driver's samples.
 * Both initialise MPI themselves (layout.init) and keep what they measured
 * there in their kernel state (mg_startup_times first). */
#ifndef MG_PT2PT_STARTUP_H
#define MG_PT2PT_STARTUP_H

#include "mg_bench.h"

enum { MG_INIT_PLAIN = 0, MG_INIT_THREAD, MG_INIT_SESSION };

/* What main reads first thing (mg_startup_mark). */
typedef struct {
    double main_wall;   /* CLOCK_REALTIME at main's entry (s since the epoch) */
    double launch_wall; /* MG_LAUNCH_TIME, or NaN */
    int launch_bad;     /* MG_LAUNCH_TIME is set but not a time */
} mg_startup_marks;

typedef struct {
    int init;               /* --init: MG_INIT_* */
    mg_startup_marks marks; /* main's marks, handed in as the params' default (no option) */
} mg_startup_params;

/* What the program's own initialisation (layout.init) measured, at the
 * start of its kernel state. */
typedef struct {
    double init_s;       /* the measured initialisation */
    double ready_wall;   /* CLOCK_REALTIME when it returned */
    double first_ring_s; /* hello: rank 0's first message round the ring */
} mg_startup_times;

/* The times at the start of the kernel state. */
static inline mg_startup_times *mg_startup_state(const mg_ctx *c)
{
    return (mg_startup_times *)c->state;
}

/* CLOCK_REALTIME in seconds since the epoch. */
double mg_startup_wall(void);

/* The first thing main does: the wall clock and MG_LAUNCH_TIME. */
mg_startup_marks mg_startup_mark(void);

#endif
