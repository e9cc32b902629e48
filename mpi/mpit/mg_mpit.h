/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI library's own variables through the MPI tool information
 * interface (MPI_T): its control variables (cvars), read once per run as
 * rank 0 sees them, for the run record (doc/output.md, "cvars").
 *
 * Every cvar without an object binding is read, and those bound to a
 * communicator are read on the run's communicator; cvars of other bindings
 * (windows, files, ...) are counted, not read, and so are those whose value
 * is new at every launch (a job id, a daemon's address). A value is kept as text: an
 * integer in decimal, a double with 17 significant digits, a string as it
 * is, an enumeration by its item's name, an array as its elements joined by
 * commas. The set is identified by a 64-bit FNV-1a digest over its names
 * and values in name order, so that a file of many launches keeps each
 * distinct set once.
 */
#ifndef MG_MPIT_H
#define MG_MPIT_H

#include "mg_mpit_names.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    MG_CVARS_OFF = 0,     /* not read (--cvars off) */
    MG_CVARS_READ = 1,    /* read: n of them */
    MG_CVARS_ABSENT = -1, /* MPI_T not available here (why) */
} mg_cvars_state;

typedef struct {
    mg_cvars_state state;
    char why[160];
    mg_cvar *v; /* sorted by name */
    size_t n;
    size_t total;      /* cvars the library reports */
    size_t unreadable; /* whose handle or read failed */
    size_t other_bind; /* bound to objects other than a communicator: not read */
    size_t per_launch; /* new at every launch (a job id, an address): not kept */
    uint64_t digest;   /* FNV-1a 64 over "name=value\n" in name order */
} mg_cvars;

/* Read the library's control variables (any rank; MPI_T is initialised and
 * finalised around it). comm: the communicator comm-bound cvars are read
 * on. Never fails: a library without MPI_T is MG_CVARS_ABSENT with why. */
void mg_cvars_read(mg_cvars *c, MPI_Comm comm);
void mg_cvars_free(mg_cvars *c);
/* The digest as 16 hexadecimal digits. */
void mg_cvars_digest_hex(const mg_cvars *c, char out[17]);
/* --pvars list: every performance variable the library offers (name,
 * class, datatype, binding, whether it is continuous, description), one
 * per line after a header, or one {"type":"pvar",...} record per line.
 * 0, or -1 when MPI_T cannot be used (f NULL: only that is asked). */
int mg_pvars_list(FILE *f, int json);
/* An MPI_T datatype's name ("unsigned_long", "enum", ...) and its bytes
 * (0: one mpigauge does not read). */
const char *mg_mpit_type_name(MPI_Datatype t, MPI_T_enum e);
size_t mg_mpit_type_bytes(MPI_Datatype t);
/* Element i of a buffer of MPI_T datatype t: 1 for an integer type
 * (booleans included; *iv, and *dv as a double), 2 for MPI_DOUBLE (*dv), 0
 * for a type mpigauge does not read. */
int mg_mpit_element(const void *buf, int i, MPI_Datatype t, long long *iv, double *dv);

/* --pvars NAME,...|all: performance variables read on every rank right
 * before a (size, variant)'s first timed sample and right after its last.
 * Counters, aggregates and timers give their change over the timed
 * samples; the other classes (sizes, levels, watermarks, states) their
 * value after them. An array (one element per peer) is summed. */
typedef struct {
    int n;
    char **name;
    const char **cls;
    int *delta;
    MPI_T_pvar_handle *h;
    MPI_Datatype *type;
    int *count;
    MPI_T_pvar_session session;
    double *before, *value; /* this rank's, n of each */
    int open;               /* 1: MPI_T initialised, 2: and a session made */
} mg_pvars;

/* Select the pvars of spec ("all", "queues" or names) and start them; bound
 * ones on *comm (which must outlive p). "queues": the message queues and
 * protocol counters (names with unexpected, posted, recvq, msgq, rndv or
 * rendezvous; mg_pvars_queue_name), none of them required. 0, or -1 with a
 * message (a name the library does not have, MPI_T unavailable). */
int mg_pvars_open(mg_pvars *p, const char *spec, MPI_Comm *comm, char *err, size_t errlen);
/* Read them all: end 0 before the timed samples, 1 after (value[] then
 * holds each one's change or its value). */
void mg_pvars_mark(mg_pvars *p, int end);
void mg_pvars_close(mg_pvars *p);
#endif
