/* SPDX-License-Identifier: BSD-3-Clause */
/* The sinks: the table layouts (default, IMB, OSU), CSV and JSON Lines; see mg_sink.h. */
#include "mg_sink.h"

#include "mg_json.h"

#include <string.h>

/* ---- table ---- */

/* A table's beginning, whatever its layout: the run record as comment
 * lines, and the facts its rows need. */
static void table_start(mg_sink *s, const mg_table_meta *meta, mg_record_fn record, const void *arg)
{
    if (record)
        record(s->f, arg, 1);
    s->meta = *meta;
}

static void table_begin(mg_sink *s, const mg_table_meta *meta, mg_record_fn record, const void *arg)
{
    table_start(s, meta, record, arg);
    mg_report_table_header(s->f, meta);
    fflush(s->f);
}

static void table_row(mg_sink *s, const mg_result *r)
{
    mg_report_table_row_meta(s->f, &s->meta, r);
    fflush(s->f);
}

static void table_summary(mg_sink *s, const char *benchmark, const mg_kvlist *l)
{
    (void)benchmark;
    mg_kv_write_lines(s->f, l);
    fflush(s->f);
}

/* ---- the IMB and OSU tables ---- */

static void imb_begin(mg_sink *s, const mg_table_meta *meta, mg_record_fn record, const void *arg)
{
    table_start(s, meta, record, arg);
    mg_report_imb_header(s->f, meta);
    fflush(s->f);
}

static void imb_row(mg_sink *s, const mg_result *r)
{
    mg_report_imb_row(s->f, &s->meta, r);
    fflush(s->f);
}

static void osu_begin(mg_sink *s, const mg_table_meta *meta, mg_record_fn record, const void *arg)
{
    (void)record, (void)arg; /* OSU's lines only: the note names the library, -o keeps the record */
    s->meta = *meta;
    mg_report_osu_header(s->f, meta, &s->osu);
    fflush(s->f);
}

static void osu_row(mg_sink *s, const mg_result *r)
{
    mg_report_osu_row(s->f, &s->meta, &s->osu, r);
    fflush(s->f);
}

/* ---- CSV ---- */

static void csv_begin(mg_sink *s, const mg_table_meta *meta, mg_record_fn record, const void *arg)
{
    (void)record, (void)arg;
    s->meta = *meta;
    mg_report_csv_header_meta(s->f, meta);
    fflush(s->f);
}

static void csv_row(mg_sink *s, const mg_result *r)
{
    mg_report_csv_row_meta(s->f, &s->meta, r);
    fflush(s->f);
}

static void csv_summary(mg_sink *s, const char *benchmark, const mg_kvlist *l)
{
    (void)s, (void)benchmark, (void)l;
}

/* ---- JSON Lines ---- */

static void json_begin(mg_sink *s, const mg_table_meta *meta, mg_record_fn record, const void *arg)
{
    (void)meta;
    if (record)
        record(s->f, arg, 0);
    fflush(s->f);
}

static void json_row(mg_sink *s, const mg_result *r)
{
    mg_report_json_result(s->f, r);
    fflush(s->f);
}

static void json_summary(mg_sink *s, const char *benchmark, const mg_kvlist *l)
{
    mg_json j;
    if (!mg_kv_complete(l))
        return;
    mg_json_init(&j, s->f);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "summary");
    mg_json_string(&j, "benchmark", benchmark);
    mg_kv_write_json(&j, l);
    mg_json_object_end(&j);
    fputc('\n', s->f);
    fflush(s->f);
}

static void no_record(mg_sink *s, mg_record_fn fn, const void *arg)
{
    (void)s, (void)fn, (void)arg;
}

static void json_record(mg_sink *s, mg_record_fn fn, const void *arg)
{
    fn(s->f, arg, 0);
    fflush(s->f);
}

static void no_error(mg_sink *s, const mg_error_info *e) { (void)s, (void)e; }

static void json_error(mg_sink *s, const mg_error_info *e)
{
    mg_json j;
    mg_json_init(&j, s->f);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "error");
    mg_json_string(&j, "code", e->code);
    mg_json_string(&j, "benchmark", e->benchmark);
    mg_json_int(&j, "exit_code", e->exit_code);
    mg_json_string(&j, "message", e->message);
    if (e->ranks_min >= 0) {
        mg_json_int(&j, "ranks_min", e->ranks_min);
        mg_json_int(&j, "ranks_max", e->ranks_max);
        mg_json_int(&j, "ranks_got", e->ranks_got);
    }
    mg_json_object_end(&j);
    fputc('\n', s->f);
    fflush(s->f);
}

static const mg_sink_ops table_ops = {.begin = table_begin,
                                      .row = table_row,
                                      .summary = table_summary,
                                      .record = no_record,
                                      .error = no_error};
static const mg_sink_ops imb_ops = {.begin = imb_begin,
                                    .row = imb_row,
                                    .summary = table_summary,
                                    .record = no_record,
                                    .error = no_error};

static const mg_sink_ops osu_ops = {.begin = osu_begin,
                                    .row = osu_row,
                                    .summary = table_summary,
                                    .record = no_record,
                                    .error = no_error};

static const mg_sink_ops csv_ops = {.begin = csv_begin,
                                    .row = csv_row,
                                    .summary = csv_summary,
                                    .record = no_record,
                                    .error = no_error};
static const mg_sink_ops json_ops = {.begin = json_begin,
                                     .row = json_row,
                                     .summary = json_summary,
                                     .record = json_record,
                                     .error = json_error};

void mg_sink_init(mg_sink *s, mg_format fmt, FILE *f)
{
    memset(s, 0, sizeof *s);
    s->ops = fmt == MG_FORMAT_CSV ? &csv_ops : fmt == MG_FORMAT_JSON ? &json_ops : &table_ops;
    s->f = f;
}

void mg_sink_layout(mg_sink *s, mg_format fmt, int columns, const mg_osu_table *osu, FILE *f)
{
    mg_sink_init(s, fmt, f);
    if (fmt != MG_FORMAT_TABLE)
        return;
    if (columns == MG_COLUMNS_IMB)
        s->ops = &imb_ops;
    else if (columns == MG_COLUMNS_OSU && osu) {
        s->ops = &osu_ops;
        s->osu = *osu;
    }
}
