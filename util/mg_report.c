/* SPDX-License-Identifier: BSD-3-Clause */
/* Report writers: see mg_report.h. */
#include "mg_report.h"

#include "mg_json.h"

#include <math.h>
#include <string.h>

#define OSU_SIZE_WIDTH 10
#define OSU_FIELD_WIDTH 20
#define COL_WIDTH 12

static const char *const extra_titles[] = {"Mean", "Min", "Max",      "Stddev",
                                           "P90",  "P99", "CI95-low", "CI95-high"};

const char *const mg_columns_names[] = {"default", "osu", "all", NULL};

/* OSU's words for a validated row. */
static const char *pass_fail(const mg_result *r)
{
    return r->validation && strcmp(r->validation, "passed") == 0 ? "Pass" : "Fail";
}

int mg_format_parse(const char *name)
{
    if (strcmp(name, "table") == 0)
        return MG_FORMAT_TABLE;
    if (strcmp(name, "csv") == 0)
        return MG_FORMAT_CSV;
    if (strcmp(name, "json") == 0)
        return MG_FORMAT_JSON;
    return -1;
}

void mg_report_table_header(FILE *f, const mg_table_meta *meta)
{
    const int osu = meta->columns == MG_COLUMNS_OSU;
    fprintf(f, "# mpigauge %s %s\n", meta->benchmark, meta->version);
    fprintf(f, "# %s\n", meta->description);
    fprintf(f, "%-*s%*s", OSU_SIZE_WIDTH, "# Size", OSU_FIELD_WIDTH, meta->headline);
    if (meta->validated && osu)
        fprintf(f, "%*s", COL_WIDTH, "Validation");
    if (meta->columns == MG_COLUMNS_ALL)
        fprintf(f, "%*s", COL_WIDTH, "P50");
    for (size_t i = 0; i < sizeof extra_titles / sizeof extra_titles[0] && !osu; ++i)
        fprintf(f, "%*s", COL_WIDTH, extra_titles[i]);
    if (!osu)
        fprintf(f, "%*s%*s%*s", 9, "Samples", 12, "Iterations", 13, "Stop");
    if (meta->validated && !osu)
        fprintf(f, "%*s", COL_WIDTH, "Validation");
    for (int i = 0; meta->extra_names && meta->extra_names[i] && !osu; ++i)
        fprintf(f, " %*s", COL_WIDTH + 2, meta->extra_names[i]);
    if (meta->variant_name)
        fprintf(f, "  %s", meta->variant_name);
    fputc('\n', f);
}

static void table_num(FILE *f, int width, double v)
{
    if (isfinite(v))
        fprintf(f, "%*.2f", width, v);
    else
        fprintf(f, "%*s", width, "-");
}

/* Extras that count things print as whole numbers. */
static int is_count(const char *name)
{
    static const char *const counts[] = {"late", "message_bytes", NULL};
    for (int i = 0; name && counts[i]; ++i)
        if (strcmp(name, counts[i]) == 0)
            return 1;
    return 0;
}

/* The statistics, samples, iterations and stop of a default row. */
static void table_stats(FILE *f, const mg_table_meta *meta, const mg_result *r)
{
    const mg_stats *s = &r->stats;
    const double extra[] = {s->mean, s->min, s->max,      s->stddev,
                            s->p90,  s->p99, s->ci95_low, s->ci95_high};
    if (meta->columns == MG_COLUMNS_ALL)
        table_num(f, COL_WIDTH, s->p50);
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; ++i)
        table_num(f, COL_WIDTH, extra[i]);
    if (s->n < MG_FEW_SAMPLES)
        fprintf(f, "%*zu!", 8, s->n);
    else
        fprintf(f, "%*zu", 9, s->n);
    fprintf(f, "%*llu%*s", 12, r->iterations, 13, r->stop ? r->stop : "-");
    if (meta->validated)
        fprintf(f, "%*s", COL_WIDTH, pass_fail(r));
    for (int i = 0; i < r->nextra; ++i) {
        fputc(' ', f);
        if (is_count(r->extra_names[i]) && isfinite(r->extra[i]) && fabs(r->extra[i]) < 1e15)
            fprintf(f, "%*.0f", COL_WIDTH + 2, r->extra[i]);
        else
            table_num(f, COL_WIDTH + 2, r->extra[i]);
    }
}

void mg_report_table_row_meta(FILE *f, const mg_table_meta *meta, const mg_result *r)
{
    const mg_stats *s = &r->stats;
    fprintf(f, "%-*llu", OSU_SIZE_WIDTH, (unsigned long long)r->size_bytes);
    table_num(f, OSU_FIELD_WIDTH, s->median);
    if (meta->columns == MG_COLUMNS_OSU && meta->validated)
        fprintf(f, "%*s", COL_WIDTH, pass_fail(r));
    if (meta->columns != MG_COLUMNS_OSU)
        table_stats(f, meta, r);
    if (r->variant) {
        const char *eq = strchr(r->variant, '=');
        fprintf(f, "  %s", eq ? eq + 1 : r->variant);
    }
    fputc('\n', f);
    if (s->n < MG_FEW_SAMPLES)
        fprintf(f, "# ! size %llu%s%s: %zu sample%s, fewer than %d: the percentiles and the CI say "
                   "little\n",
                (unsigned long long)r->size_bytes, r->variant ? ", " : "",
                r->variant ? r->variant : "", s->n, s->n == 1 ? "" : "s", MG_FEW_SAMPLES);
}

void mg_report_table_row(FILE *f, const mg_result *r)
{
    const mg_table_meta plain = {.columns = MG_COLUMNS_DEFAULT};
    mg_report_table_row_meta(f, &plain, r);
}

void mg_report_csv_header(FILE *f)
{
    fputs("benchmark,size_bytes,unit,median,mean,min,max,stddev,p50,p90,p99,"
          "ci95_low,ci95_high,samples,iterations,stop,variant,extra\n",
          f);
}

static void csv_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, ",%.10g", v);
    else
        fputc(',', f);
}

/* RFC 4180 quoting when a field needs it. */
static void csv_text(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void mg_report_csv_header_meta(FILE *f, const mg_table_meta *meta)
{
    if (!meta->validated) {
        mg_report_csv_header(f);
        return;
    }
    fputs("benchmark,size_bytes,unit,median,mean,min,max,stddev,p50,p90,p99,"
          "ci95_low,ci95_high,samples,iterations,stop,variant,extra,validation\n",
          f);
}

static void csv_fields(FILE *f, const mg_result *r);

void mg_report_csv_row(FILE *f, const mg_result *r)
{
    csv_fields(f, r);
    fputc('\n', f);
}

void mg_report_csv_row_meta(FILE *f, const mg_table_meta *meta, const mg_result *r)
{
    csv_fields(f, r);
    if (meta->validated)
        fprintf(f, ",%s", pass_fail(r));
    fputc('\n', f);
}

/* Every field of a row but the validation, without the line's end. */
static void csv_fields(FILE *f, const mg_result *r)
{
    const mg_stats *s = &r->stats;
    csv_text(f, r->benchmark);
    fprintf(f, ",%llu,", (unsigned long long)r->size_bytes);
    csv_text(f, r->unit);
    csv_num(f, s->median);
    csv_num(f, s->mean);
    csv_num(f, s->min);
    csv_num(f, s->max);
    csv_num(f, s->stddev);
    csv_num(f, s->p50);
    csv_num(f, s->p90);
    csv_num(f, s->p99);
    csv_num(f, s->ci95_low);
    csv_num(f, s->ci95_high);
    fprintf(f, ",%zu,%llu,", s->n, r->iterations);
    csv_text(f, r->stop ? r->stop : "");
    fputc(',', f);
    csv_text(f, r->variant ? r->variant : "");
    fputc(',', f);
    for (int i = 0; i < r->nextra; ++i) {
        if (isfinite(r->extra[i]))
            fprintf(f, "%s%s=%.10g", i ? ";" : "", r->extra_names[i], r->extra[i]);
        else
            fprintf(f, "%s%s=", i ? ";" : "", r->extra_names[i]);
    }
}

void mg_report_json_result(FILE *f, const mg_result *r)
{
    const mg_stats *s = &r->stats;
    mg_json j;
    mg_json_init(&j, f);
    mg_json_object_begin(&j, NULL);
    mg_json_string(&j, "type", "result");
    mg_json_string(&j, "benchmark", r->benchmark);
    mg_json_uint(&j, "size_bytes", (unsigned long long)r->size_bytes);
    mg_json_string(&j, "unit", r->unit);
    mg_json_number(&j, "median", s->median);
    mg_json_number(&j, "mean", s->mean);
    mg_json_number(&j, "min", s->min);
    mg_json_number(&j, "max", s->max);
    mg_json_number(&j, "stddev", s->stddev);
    mg_json_number(&j, "p50", s->p50);
    mg_json_number(&j, "p90", s->p90);
    mg_json_number(&j, "p99", s->p99);
    mg_json_number(&j, "ci95_low", s->ci95_low);
    mg_json_number(&j, "ci95_high", s->ci95_high);
    mg_json_uint(&j, "samples", (unsigned long long)s->n);
    if (s->n < MG_FEW_SAMPLES)
        mg_json_bool(&j, "few_samples", 1);
    mg_json_uint(&j, "iterations", r->iterations);
    mg_json_string(&j, "stop", r->stop);
    if (r->variant)
        mg_json_string(&j, "variant", r->variant);
    if (r->validation)
        mg_json_string(&j, "validation", r->validation);
    if (r->nextra > 0) {
        mg_json_object_begin(&j, "extra");
        for (int i = 0; i < r->nextra; ++i)
            mg_json_number(&j, r->extra_names[i], r->extra[i]);
        mg_json_object_end(&j);
    }
    mg_json_object_end(&j);
    fputc('\n', f);
}

void mg_report_header(FILE *f, mg_format fmt, const mg_table_meta *meta)
{
    if (fmt == MG_FORMAT_TABLE)
        mg_report_table_header(f, meta);
    else if (fmt == MG_FORMAT_CSV)
        mg_report_csv_header(f);
}

void mg_report_row(FILE *f, mg_format fmt, const mg_result *r)
{
    if (fmt == MG_FORMAT_TABLE)
        mg_report_table_row(f, r);
    else if (fmt == MG_FORMAT_CSV)
        mg_report_csv_row(f, r);
    else
        mg_report_json_result(f, r);
}
