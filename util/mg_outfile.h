/* SPDX-License-Identifier: BSD-3-Clause */
/* The -o file of a program and of the tools: what a path is (a file to
 * replace whole, a device or pipe written through, something refused),
 * written to a temporary beside it and renamed at the end, its temporary
 * removed on every exit the process sees (mg_outfile.c has the rules).
 * Rank 0 does the file work; the calls that take a group are collective
 * over it (every rank learns the outcome). No MPI: the group is
 * util/mg_group.h's. err holds MG_OUT_ERRLEN bytes.
 */
#ifndef MG_OUTFILE_H
#define MG_OUTFILE_H

#include "mg_group.h"

#include <limits.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_OUT_ERRLEN 512

typedef struct {
    FILE *f;
    FILE *log;             /* where its notes go (NULL: standard error) */
    char *tmp_path;        /* the temporary beside the target (NULL: written through) */
    char target[PATH_MAX]; /* what gets replaced: FILE, or what its link points to */
    int direct;            /* a character device or a pipe, written through */
    int committed;         /* complete under its name */
} mg_out_file;

/* Decide what FILE is and open it (rank 0; every rank learns the outcome):
 * 0 with the reason in err when it cannot be written or must not be
 * replaced. */
int mg_out_open(mg_out_file *o, const char *path, const mg_group *g, char *err);
int mg_out_commit(mg_out_file *o, const char *path);
/* What mg_out_open would refuse, checked without creating anything (rank 0;
 * every rank learns the outcome): 1, or 0 with the reason in err. */
int mg_out_check(const char *path, const mg_group *g, char *err);
/* mg_out_check, and a path written through (a pipe, a character device,
 * rank 0's own descriptor) opened now into o, so that a pipe with no
 * reader is refused before measuring; a file to replace is opened by
 * mg_out_open at the end. */
int mg_out_prepare(mg_out_file *o, const char *path, const mg_group *g, char *err);
/* 0 with the reason in err when paths a and b (either NULL: fine) would
 * write the same file (a link or a hard link between them counts), e.g. -o
 * and --samples; rank 0 decides, every rank learns it. */
int mg_out_distinct(const char *a, const char *a_opt, const char *b, const char *b_opt,
                    const mg_group *g, char *err);
/* Rank 0: drop the -o file's temporary (an incomplete sweep is not kept). */
void mg_out_discard(mg_out_file *o);
/* Rank 0, after a run that did not complete its -o file: say that an
 * existing FILE is from an earlier run. */
void mg_out_note_stale(const mg_out_file *o, const char *path);
/* Before MPI_Init, with -o PATH (NULL: none): the guard that removes rank
 * 0's temporary should the process die with a SIGKILL (util/mg_guard.h);
 * stopped (and reaped) after the run. */
void mg_out_guard_start(const char *path);
void mg_out_guard_stop(void);
/* Remove the temporary being written now (none: nothing), for a path
 * out of the process that does not pass through the signal handler (the
 * MPI layer's abort). */
void mg_out_forget_temporary(void);

#ifdef __cplusplus
}
#endif

#endif
