/* SPDX-License-Identifier: BSD-3-Clause */
/* A guard for the -o temporary that outlives its writer.
 *
 * A signal handler cannot remove the temporary when the process is killed
 * with SIGKILL, which launchers send soon after SIGTERM or SIGINT (Open
 * MPI's mpirun after odls_base_sigkill_timeout, MPICH's Hydra as soon as
 * one rank has died): on a loaded machine the KILL can come before the
 * handler ran. So the writer forks a small process first (before
 * MPI_Init), which only waits on a pipe: the writer tells it the path of
 * the temporary while one exists and "none" once it is renamed or removed;
 * when the pipe ends while a path is set (the writer died, however), the
 * guard removes that path. The guard leaves the writer's session and
 * process group and ignores SIGINT, SIGTERM and SIGHUP, so the signals that
 * end the run do not end it first; it closes every other descriptor, so no
 * launcher waits for its output.
 */
#ifndef MG_GUARD_H
#define MG_GUARD_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    pid_t pid; /* the guard; 0: none */
    int fd;    /* the write end of its pipe; -1: none */
} mg_guard;

/* Start a guard; 0, or -1 (errno) when it could not be started (g stays
 * "none": the writer then relies on its signal handler alone). */
int mg_guard_start(mg_guard *g);
/* The temporary the guard must remove should the writer die (path), or
 * none (NULL). 0, or -1 when the guard is gone. */
int mg_guard_watch(mg_guard *g, const char *path);
/* End the guard (it removes nothing) and reap it. */
void mg_guard_stop(mg_guard *g);

/* The guard's own loop, exposed for the unit tests: read messages from
 * fd until it ends; return the last path set and not cleared ("" if none). */
void mg_guard_follow(int fd, char *path, size_t len);

#ifdef __cplusplus
}
#endif

#endif
