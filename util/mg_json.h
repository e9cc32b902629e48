/* SPDX-License-Identifier: BSD-3-Clause */
/* A small streaming JSON writer for one-line records (JSON Lines).
 *
 * Strings are always written as valid JSON in UTF-8: quotes, backslashes and
 * control characters are escaped, and bytes that are not valid UTF-8 become
 * U+FFFD, so a record stays valid whatever a host name, an argument or an
 * environment value contains. Non-finite numbers are written as null.
 * Numbers use "%.10g", enough for any measured quantity and stable for
 * golden files.
 */
#ifndef MG_JSON_H
#define MG_JSON_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_JSON_MAX_DEPTH 16

typedef struct mg_json {
    FILE *f;
    int depth;
    int count[MG_JSON_MAX_DEPTH]; /* values written at each depth */
} mg_json;

void mg_json_init(mg_json *j, FILE *f);

/* key is the member name inside an object, NULL inside an array or at top. */
void mg_json_object_begin(mg_json *j, const char *key);
void mg_json_object_end(mg_json *j);
void mg_json_array_begin(mg_json *j, const char *key);
void mg_json_array_end(mg_json *j);
void mg_json_string(mg_json *j, const char *key, const char *value); /* NULL -> null */
void mg_json_number(mg_json *j, const char *key, double value);
void mg_json_int(mg_json *j, const char *key, long long value);
void mg_json_uint(mg_json *j, const char *key, unsigned long long value);
void mg_json_bool(mg_json *j, const char *key, int value);
void mg_json_null(mg_json *j, const char *key);

/* Write s as a quoted JSON string. */
void mg_json_write_string(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif

#endif
