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

/* An object member `key` holding {long_name: value, ...}. */
void mg_opts_json(mg_json *j, const char *key, const mg_opt_table *tables, size_t ntables);

#ifdef __cplusplus
}
#endif

#endif
