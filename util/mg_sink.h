/* SPDX-License-Identifier: BSD-3-Clause */
/* The sink: the one place results are written. A program hands it the run
 * (begin), one finished row per (size, variant), and the benchmark's
 * conclusions over the sweep as key-values (summary); the sink writes them
 * in its format. Three implementations over a FILE: the table, CSV and JSON
 * Lines (the -o file is a second JSON Lines sink on the temporary file).
 *
 *   table  begin: the provenance comment and the column header; row: a
 *          line; summary: "# key: value" lines (an object as k=v pairs, an
 *          array one line per element, null or an empty array "none")
 *   csv    begin: the header line; row: a line; summary: nothing (CSV has
 *          one record shape)
 *   json   begin: the run record; row: {"type":"result",...}; summary:
 *          {"type":"summary","benchmark":NAME, the key-values}; record:
 *          any other whole record (the sentinels)
 *
 * Pure C, no MPI: the run record comes from a callback the caller gives
 * (the MPI layer's provenance writer; a fake in the unit tests).
 */
#ifndef MG_SINK_H
#define MG_SINK_H

#include "mg_json.h"
#include "mg_kv.h"
#include "mg_report.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the run record to f: as one JSON line, or (as_comment) as the "#"
 * provenance lines above a table. */
typedef void (*mg_record_fn)(FILE *f, const void *arg, int as_comment);

/* An error that ends a run (doc/output.md): its code ("usage", "ranks",
 * "measurement", ...), the exit code, the message, and with ranks_min >= 0
 * the rank counts the program takes and got. */
typedef struct {
    const char *benchmark, *code, *message;
    int exit_code;
    int ranks_min, ranks_max, ranks_got;
} mg_error_info;

typedef struct mg_sink mg_sink;
typedef struct {
    void (*begin)(mg_sink *s, const mg_table_meta *meta, mg_record_fn record, const void *arg);
    void (*row)(mg_sink *s, const mg_result *r);
    void (*summary)(mg_sink *s, const char *benchmark, const mg_kvlist *kv);
    /* Another whole record (a sentinel): JSON writes it with fn, the table
     * and CSV leave it out. */
    void (*record)(mg_sink *s, mg_record_fn fn, const void *arg);
    /* An error ending the run: JSON writes an {"type":"error"} record; the
     * table and CSV write nothing (the message goes to standard error). */
    void (*error)(mg_sink *s, const mg_error_info *e);
} mg_sink_ops;

struct mg_sink {
    const mg_sink_ops *ops;
    FILE *f;
    mg_table_meta meta; /* begin's, for the rows' columns */
    mg_osu_table osu;   /* the OSU layout's facts */
};

/* A sink of format fmt on f (every write is flushed). */
void mg_sink_init(mg_sink *s, mg_format fmt, FILE *f);
/* The same, a table in the layout of --columns chosen once: IMB's table
 * (util/mg_report_imb.c), OSU's under an OSU name (osu: its facts; with
 * --columns osu and no OSU name, the default table's size and figure), or
 * the default table. */
void mg_sink_layout(mg_sink *s, mg_format fmt, int columns, const mg_osu_table *osu, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
