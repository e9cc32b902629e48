/* SPDX-License-Identifier: BSD-3-Clause */
/* Turns between the launches of a group: see mg_turns.h. */
#include "mg_turns.h"

#include "mg_mpi.h"

#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SEM_READY, SEM_TURN, SEM_DONE, SEM_KINDS };
static const char *const sem_kind[SEM_KINDS] = {"ready", "turn", "done"};

struct mg_turns {
    mg_turns_spec spec;
    MPI_Comm comm;
    int rank, local_rank, nlocal;
    double slice_s, timeout_s, turn_start_s, began_s;
    int began, holding, lost;
    int alone;    /* every other role is done: nobody to hand the turn to */
    sem_t **sems; /* [role * SEM_KINDS + kind] */
    mg_turns_stats stats;
};

static sem_t *sem_of(const mg_turns *t, int role, int kind)
{
    return t->sems[role * SEM_KINDS + kind];
}

static int sem_value(sem_t *s)
{
    int v = 0;
    sem_getvalue(s, &v);
    return v;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void nap(void)
{
    struct timespec ts = {0, 1000000}; /* 1 ms */
    nanosleep(&ts, NULL);
}

static void sem_path(char *buf, size_t cap, const mg_turns_spec *s, int kind, int role)
{
    snprintf(buf, cap, "/mgt-%s-%s-%d", s->name, sem_kind[kind], role);
}

mg_turns *mg_turns_open(const mg_turns_spec *spec, MPI_Comm comm, double slice_s, double timeout_s,
                        char *err, size_t errlen)
{
    mg_turns *t = calloc(1, sizeof *t);
    MPI_Comm node;
    int ok = 1, mine, n = spec->count * SEM_KINDS;

    if (t == NULL || (t->sems = calloc((size_t)n, sizeof *t->sems)) == NULL)
        mg_mpi_die(__FILE__, __LINE__, "out of memory for --turns");
    t->spec = *spec;
    t->comm = comm;
    t->slice_s = slice_s;
    t->timeout_s = timeout_s;
    t->holding = spec->role == 0;
    MG_MPI_CHECK(MPI_Comm_rank(comm, &t->rank));
    MG_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MG_MPI_CHECK(MPI_Comm_size(node, &t->nlocal));
    MG_MPI_CHECK(MPI_Comm_rank(node, &t->local_rank));
    for (int i = 0; i < n && ok; ++i) {
        char path[MG_TURNS_NAME_MAX + 32];
        sem_path(path, sizeof path, spec, i % SEM_KINDS, i / SEM_KINDS);
        t->sems[i] = sem_open(path, O_CREAT, 0600, 0);
        if (t->sems[i] == SEM_FAILED) {
            snprintf(err, errlen, "--turns: cannot open semaphore %s: %s", path, strerror(errno));
            t->sems[i] = NULL;
            ok = 0;
        }
    }
    mine = ok;
    MG_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm));
    /* freed only now, after a collective every rank has joined: Intel MPI
     * 2021.1 hung (1 launch in about 800) when rank 0 freed the node
     * communicator while rank 1 was still inside MPI_Comm_split_type's own
     * shared-memory broadcast (doc/releases.md) */
    MG_MPI_CHECK(MPI_Comm_free(&node));
    if (ok)
        return t;
    if (mine)
        snprintf(err, errlen, "--turns: another rank cannot open the group's semaphores");
    for (int i = 0; i < n; ++i)
        if (t->sems[i])
            sem_close(t->sems[i]);
    free(t->sems);
    free(t);
    return NULL;
}

/* Every rank's lost flag or'ed, and the turn's clock restarted. */
static void agree_lost(mg_turns *t)
{
    int lost = t->lost;
    MG_MPI_CHECK(MPI_Allreduce(&lost, &t->lost, 1, MPI_INT, MPI_MAX, t->comm));
    t->turn_start_s = now_s();
}

/* Every other role is done: nobody is left to hand this launch the turn. */
static int others_done(const mg_turns *t)
{
    for (int r = 0; r < t->spec.count; ++r)
        if (r != t->spec.role && sem_value(sem_of(t, r, SEM_DONE)) < t->nlocal)
            return 0;
    return 1;
}

/* The realtime clock s seconds from now, for sem_timedwait. */
static struct timespec realtime_in(double s)
{
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    at.tv_sec += (time_t)s;
    at.tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
    if (at.tv_nsec >= 1000000000L) {
        at.tv_sec += 1;
        at.tv_nsec -= 1000000000L;
    }
    return at;
}

/* Asleep until the turn comes, in slices of 0.2 s: a group whose other
 * launches all ended (one that died holding the turn, its done posted by
 * `mpigauge run`) gives the turn to this one at once; the timeout, when
 * nothing moves, makes it lost. */
static void wait_turn(mg_turns *t)
{
    double t0 = now_s();
    while (!t->lost) {
        double left = t->timeout_s - (now_s() - t0);
        struct timespec until = realtime_in(left < 0.2 ? (left > 0 ? left : 0) : 0.2);
        if (sem_timedwait(sem_of(t, t->spec.role, SEM_TURN), &until) == 0)
            break;
        if (errno == EINTR)
            continue;
        if (others_done(t))
            break; /* the next hand_on finds this role alone */
        if (left <= 0.2)
            t->lost = 1;
    }
    t->stats.waited_s += now_s() - t0;
    t->holding = 1;
}

/* Asleep until every role of the group is done (or, with or_ready, ready):
 * 0, or 1 when limit_s passed first. */
static int await_roles(const mg_turns *t, int or_ready, double limit_s)
{
    double t0 = now_s();
    for (int r = 0; r < t->spec.count; ++r) {
        while (sem_value(sem_of(t, r, SEM_DONE)) < t->nlocal &&
               !(or_ready && sem_value(sem_of(t, r, SEM_READY)) >= t->nlocal)) {
            if (now_s() - t0 > limit_s)
                return 1;
            nap();
        }
    }
    return 0;
}

/* Rank 0, once every role is ready or done: the first turn's holder, the
 * lowest role that began (a role done without ever being ready never
 * started: its launch failed before, and `mpigauge run` posted its done when
 * the launch ended); every rank gets it. Roles never become ready after
 * they are done without it, so every launch of the group finds the same. */
static int first_holder(const mg_turns *t)
{
    int first = 0;
    if (t->rank == 0)
        while (first < t->spec.count - 1 && sem_value(sem_of(t, first, SEM_READY)) < t->nlocal)
            ++first;
    MG_MPI_CHECK(MPI_Bcast(&first, 1, MPI_INT, 0, t->comm));
    return first;
}

void mg_turns_begin(mg_turns *t)
{
    double t0 = now_s();
    if (t == NULL)
        return;
    sem_post(sem_of(t, t->spec.role, SEM_READY));
    t->began = 1;
    t->began_s = t0;
    t->lost = await_roles(t, 1, t->timeout_s);
    agree_lost(t);
    if (!t->lost)
        t->holding = first_holder(t) == t->spec.role;
    t->stats.waited_s += now_s() - t0;
    if (!t->holding)
        wait_turn(t);
    agree_lost(t);
}

/* Rank 0: the next role that is not done (its own when every other is);
 * every rank gets it. */
static int next_role(const mg_turns *t)
{
    int next = t->spec.role;
    if (t->rank == 0) {
        for (int k = 1; k < t->spec.count; ++k) {
            int r = (t->spec.role + k) % t->spec.count;
            if (sem_value(sem_of(t, r, SEM_DONE)) < t->nlocal) {
                next = r;
                break;
            }
        }
    }
    MG_MPI_CHECK(MPI_Bcast(&next, 1, MPI_INT, 0, t->comm));
    return next;
}

/* Collective: every rank has finished its communication; hand the turn to
 * the next role. Returns it. */
static int hand_on(mg_turns *t)
{
    int next;
    MG_MPI_CHECK(MPI_Barrier(t->comm));
    next = next_role(t);
    if (next != t->spec.role) {
        sem_post(sem_of(t, next, SEM_TURN));
        t->holding = 0;
        t->stats.yields++;
    } else {
        t->alone = 1;
    }
    return next;
}

int mg_turns_point(mg_turns *t)
{
    int go = 0;
    if (t == NULL || t->lost || t->alone)
        return 0;
    if (t->rank == 0)
        go = now_s() - t->turn_start_s >= t->slice_s;
    MG_MPI_CHECK(MPI_Bcast(&go, 1, MPI_INT, 0, t->comm));
    if (!go || hand_on(t) == t->spec.role)
        return 0;
    wait_turn(t);
    agree_lost(t);
    return 1;
}

void mg_turns_get(const mg_turns *t, mg_turns_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    if (t) {
        *stats = t->stats;
        stats->role = t->spec.role;
        stats->count = t->spec.count;
        stats->slice_s = t->slice_s;
        stats->lost = t->lost;
    }
}

void mg_turns_close(mg_turns *t)
{
    int n;
    if (t == NULL)
        return;
    n = t->spec.count * SEM_KINDS;
    sem_post(sem_of(t, t->spec.role, SEM_DONE));
    /* a launch that never began never held the turn (first_holder skips it) */
    if (t->holding && t->began && !t->lost && !t->alone)
        hand_on(t);
    if (t->began && !t->lost) {
        /* the others run about as long as this launch did: wait that long
         * again, and at least the timeout */
        double limit = 2.0 * (now_s() - t->began_s);
        await_roles(t, 0, limit > t->timeout_s ? limit : t->timeout_s);
        MG_MPI_CHECK(MPI_Barrier(t->comm));
        if (t->local_rank == 0)
            for (int k = 0; k < SEM_KINDS; ++k) {
                char path[MG_TURNS_NAME_MAX + 32];
                sem_path(path, sizeof path, &t->spec, k, t->spec.role);
                sem_unlink(path);
            }
    }
    for (int i = 0; i < n; ++i)
        sem_close(t->sems[i]);
    free(t->sems);
    free(t);
}
