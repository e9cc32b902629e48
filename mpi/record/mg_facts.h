/* SPDX-License-Identifier: BSD-3-Clause */
/* Facts recorded once per run (the run record, doc/output.md): the CPU
 * model and kernel of rank 0's node, every rank's network link. Each fact
 * is a contributor: a name, the part of the record it is written in, the
 * size of its state, a collect step that every rank runs once (collective
 * over the run's ranks, seen as an mg_fact_world; rank 0 keeps what it
 * writes), a write step (rank 0) and a free step. Plain C without MPI: the
 * driver gives the world its MPI calls (mg_prov.c), a test its own. mg_facts.c lists the contributors: a new fact
 * is one contributor and one line of that list (doc/develop.md). A fact
 * without state (a record a test makes up, a fact not collected) is not
 * written.
 */
#ifndef MG_FACTS_H
#define MG_FACTS_H

#include "mg_json.h"
#include "mg_linkrate.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ranks a fact is collected over: who this rank is, and the collective
 * calls a contributor may make (every rank makes them, in the same order). */
typedef struct mg_fact_world {
    int rank, nranks;
    /* every rank's `bytes` bytes at mine into all (nranks x bytes) */
    void (*allgather)(const struct mg_fact_world *w, const void *mine, size_t bytes, void *all);
    void (*die)(const char *msg); /* out of memory: ends the run (does not return) */
    void *impl;
} mg_fact_world;

/* Where in the run record a fact goes: after the ranks' bindings (where
 * the ranks ran), or after the date (what the node is). */
typedef enum { MG_FACT_PLACEMENT, MG_FACT_NODE } mg_fact_part;

typedef struct mg_fact_contributor {
    const char *name; /* its member of the run record */
    mg_fact_part part;
    size_t state_size;
    /* Every rank, collective over w; state zeroed, state_size bytes. */
    void (*collect)(void *state, const mg_fact_world *w);
    /* Rank 0: the member(s) it writes; nothing when there is nothing to say. */
    void (*write)(mg_json *j, const void *state, int nranks);
    void (*free)(void *state); /* what state owns (NULL: nothing) */
} mg_fact_contributor;

enum { MG_FACTS_MAX = 8 };

/* The facts of one run: each contributor's state (NULL: not collected). */
typedef struct mg_facts {
    int nranks;
    void *state[MG_FACTS_MAX];
} mg_facts;

/* The contributors, NULL-terminated. */
extern const mg_fact_contributor *const mg_fact_contributors[];

/* The built-in facts' states, for tests that make a record up. */
typedef struct {
    char model[128]; /* /proc/cpuinfo's model ("" unknown) */
} mg_fact_cpu_model;
typedef struct {
    char text[128]; /* uname's system and release ("" unknown) */
} mg_fact_kernel;
typedef struct {
    mg_link *link; /* rank 0: every rank's link (device "" or gbps 0: unknown) */
} mg_fact_links;

/* allocation: the batch allocation the run is part of, from rank 0's job
 * environment (Slurm's SLURM_JOB_ID, ...): what tells launches of one
 * allocation from another's (doc/slurm.md). Each member's name and its
 * variable are in mg_fact_allocation_vars; a value not set is NULL, and
 * without a job id nothing is written. */
enum { MG_ALLOC_VARS = 9, MG_ALLOC_VALUE_MAX = 4096 };
typedef struct {
    char *value[MG_ALLOC_VARS]; /* rank 0: owned copies (NULL: not set) */
} mg_fact_allocation;
/* {the member of "allocation", the environment variable} */
extern const char *const mg_fact_allocation_vars[MG_ALLOC_VARS][2];

/* Every rank, collective over w: every contributor's collect. */
void mg_facts_collect(mg_facts *f, const mg_fact_world *w);
/* The state of the contributor named name (allocated, zeroed, when absent),
 * or NULL for a name no contributor has (or no memory): how a test makes a
 * fact up. */
void *mg_facts_state(mg_facts *f, const char *name);
/* Rank 0: the facts of one part of the run record, in the list's order. */
void mg_facts_write(mg_json *j, const mg_facts *f, mg_fact_part part);
void mg_facts_free(mg_facts *f);

#ifdef __cplusplus
}
#endif

#endif
