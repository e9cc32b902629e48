/* SPDX-License-Identifier: BSD-3-Clause */
/* Write the values of option tables as JSON members, for the run record, so
 * that every benchmark's own options are recorded without code of its own. */
#ifndef MG_OPTS_JSON_H
#define MG_OPTS_JSON_H

#include "mg_json.h"
#include "mg_opts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The members {name: value, ...} of an open object, one per recorded
 * option (mg_opt_key). */
void mg_opts_json_members(mg_json *j, const mg_opt_table *tables, size_t ntables);
/* An object member `key` holding the members above. */
void mg_opts_json(mg_json *j, const char *key, const mg_opt_table *tables, size_t ntables);

/* The help's JSON form: one line per option, {"type":"option",
 * "program":..., "group":..., "short":..., "long":..., "arg":...,
 * "choices":[...], "default":..., "key":..., "help":...}, in the order of
 * the tables; what doc/'s option tables are made from. */
void mg_opts_json_help(FILE *f, const char *program, const mg_opt_table *tables, size_t ntables);

#ifdef __cplusplus
}
#endif

#endif
