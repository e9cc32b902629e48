/* SPDX-License-Identifier: BSD-3-Clause */
/* Key-value lists (pure C): what a benchmark's summary, an observer's row
 * values (mpi/observe/mg_observe.h) and other nested named values hand a sink,
 * written as members of a JSON object or as "# key: value" lines. */
#ifndef MG_KV_H
#define MG_KV_H

#include "mg_json.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Key-values: a flat list of events that can nest (an object or an array
 * opened, then its members, then MG_KV_END). Keys are not copied: string
 * literals. Members of an array have no key. */
typedef enum {
    MG_KV_NUMBER,
    MG_KV_STRING,
    MG_KV_NULL,
    MG_KV_OBJECT,
    MG_KV_ARRAY,
    MG_KV_END
} mg_kv_kind;

/* Events a list holds at most (its storage grows to this on demand: a
 * run's --pvars all can name a hundred variables, six events each). */
#define MG_KV_MAX 65536
#define MG_KV_STRLEN 160

typedef struct {
    mg_kv_kind kind;
    const char *key;
    double number;
    char string[MG_KV_STRLEN];
} mg_kv;

typedef struct mg_kvlist {
    mg_kv *item; /* n of cap allocated */
    int n, cap;
    int overflow; /* events dropped for want of room (the sink then writes none) */
} mg_kvlist;

/* An empty list (all-zero bytes are one too). */
void mg_kv_init(mg_kvlist *l);
/* Empty again, keeping its storage. */
void mg_kv_clear(mg_kvlist *l);
/* Its storage freed: empty, as after mg_kv_init. */
void mg_kv_free(mg_kvlist *l);
void mg_kv_number(mg_kvlist *l, const char *key, double v);
void mg_kv_string(mg_kvlist *l, const char *key, const char *v);
void mg_kv_null(mg_kvlist *l, const char *key);
void mg_kv_object(mg_kvlist *l, const char *key);
void mg_kv_array(mg_kvlist *l, const char *key);
void mg_kv_end(mg_kvlist *l);
/* Whether the list can be written (a sink writes nothing of one that
 * cannot): nothing dropped, every object and array closed, no END without
 * one, nesting within a JSON record's depth. */
int mg_kv_complete(const mg_kvlist *l);
/* A complete list as members of the JSON object open in j (nothing when it
 * is not complete), or as "# key: value" lines (a table's summary). */
void mg_kv_write_json(mg_json *j, const mg_kvlist *l);
void mg_kv_write_lines(FILE *f, const mg_kvlist *l);
/* The string member `key` of the top-level object `object` (object NULL:
 * of the list itself), or NULL when there is none. */
const char *mg_kv_find_string(const mg_kvlist *l, const char *object, const char *key);

#ifdef __cplusplus
}
#endif

#endif
