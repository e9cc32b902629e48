/* SPDX-License-Identifier: BSD-3-Clause */
/* Turns: two or more launches that run at the same time on the same nodes
 * and take turns at measuring, so that the configurations they compare meet
 * the machine in the same state (doc/compare.md, "Turns").
 *
 * `--turns NAME:ROLE:COUNT` puts a launch in group NAME as role ROLE of
 * COUNT (0 <= ROLE < COUNT). Every launch of a group runs the same number of
 * ranks per node. At a time only one launch of the group measures (holds the
 * turn); the others wait in a semaphore (sem_timedwait: no CPU, no MPI
 * call). The holder passes the turn to the next role that is not done after
 * every slice of measuring (--turn-slice), at a point outside the timed
 * samples; the lowest role that began holds the first turn (a launch that
 * failed before it began is skipped). A launch that ends (or fails before
 * it began) says so, and the others skip it; it then waits, asleep, until
 * every launch of the group is done, so that its MPI_Finalize does not run
 * while another measures.
 *
 * The semaphores are POSIX named semaphores, one set per node:
 * /mgt-NAME-{ready,turn,done}-ROLE, each posted once per rank of the node.
 * A launch that dies or never starts (MPI_Init failed, a launcher that did
 * not start the program) cannot say it is done: `mpigauge run` posts its
 * done semaphore when it sees the launch end, so the others skip it at
 * once; one waiting for the turn when every other launch is done takes it
 * itself. A wait that lasts the timeout (--turn-timeout, 120 s: a peer
 * hangs) gives up the turns: the launch goes on alone and its record says
 * "lost". The launch of role ROLE unlinks its own names at the end;
 * `mpigauge run` removes what a killed group left.
 */
#ifndef MG_TURNS_H
#define MG_TURNS_H

#include <mpi.h>

#include "mg_turnspec.h"

#include <stddef.h>

typedef struct mg_turns mg_turns;

typedef struct {
    int role, count;
    double slice_s;
    long yields;     /* turns handed on */
    double waited_s; /* time spent waiting for a turn, rendezvous included */
    int lost;        /* 1: a wait timed out, the launch went on alone */
} mg_turns_stats;

/* Collective over comm: open the group's semaphores. NULL on failure (with
 * a message in err on every rank). */
mg_turns *mg_turns_open(const mg_turns_spec *spec, MPI_Comm comm, double slice_s, double timeout_s,
                        char *err, size_t errlen);
/* Collective: say this launch is ready, wait until every launch of the group
 * is ready or done, then for this launch's first turn. */
void mg_turns_begin(mg_turns *t);
/* Collective, outside timed samples: hand the turn on when this launch has
 * measured for a slice or more (rank 0's clock decides). 1 when it did
 * (caches are cold: the caller warms up again), 0 otherwise. NULL: 0. */
int mg_turns_point(mg_turns *t);
/* Collective: this launch is done; hand the turn on, wait asleep until the
 * group is done, close. NULL: nothing. */
void mg_turns_close(mg_turns *t);
/* Rank 0's figures so far. */
void mg_turns_get(const mg_turns *t, mg_turns_stats *stats);

#endif
