/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts of mg_mpit.h that need no MPI header (the unit tests, in C++,
 * include this one): a cvar as text, the digest of a set, and the names
 * --pvars queues selects. */
#ifndef MG_MPIT_NAMES_H
#define MG_MPIT_NAMES_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *name;
    char *value;
    const char *type;  /* "int", "unsigned", "unsigned_long", "unsigned_long_long",
                        * "count", "char", "double", "bool", "enum", "other" */
    const char *scope; /* "constant", "readonly", "local", "group", "group_eq", "all",
                        * "all_eq", "other" */
    const char *bind;  /* "none", "comm" */
} mg_cvar;

/* FNV-1a 64 of the set (sorted by name), over "name=value\n" lines. */
uint64_t mg_cvars_digest(const mg_cvar *v, size_t n);
/* 1 when name is one of --pvars queues': it holds unexpected, posted,
 * recvq, msgq, rndv or rendezvous. */
int mg_pvars_queue_name(const char *name);

/* Collectives' algorithm cvars: name selects op's algorithm ("_OP_", any
 * case, and "_algorithm" at the end); op of a benchmark (persistent: the
 * blocking operation's); what the cvars say served it, "NAME=VALUE" or
 * "unknown" (mg_prov_served_by). */
int mg_cvar_selects(const char *name, const char *op);
void mg_cvar_op_name(const char *benchmark, char *op, size_t len);
void mg_cvars_served_by(const mg_cvar *v, size_t n, const char *benchmark, char *out, size_t len);

#endif
