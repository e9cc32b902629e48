/* SPDX-License-Identifier: BSD-3-Clause */
/* Report writers: see mg_report.h. */
#include "mg_report.h"

#include "mg_json.h"
#include "mg_kv.h"
#include "mg_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OSU_SIZE_WIDTH MG_REPORT_SIZE_WIDTH
#define OSU_FIELD_WIDTH MG_REPORT_FIELD_WIDTH
#define COL_WIDTH 12
#define CI_WIDTH 10

static const char *const spread_titles[] = {"Mean", "Min", "Max", "Stddev"};
static const char *const ci_titles[] = {"CI95-low", "CI95-high"};

static void table_num(FILE *f, int width, double v);

const char *const mg_columns_names[] = {"default", "osu", "all", "imb", NULL};

const char *mg_report_pass_fail(const mg_result *r)
{
    return r->validation && strcmp(r->validation, "passed") == 0 ? "Pass" : "Fail";
}

int mg_pctl_parse(const char *text, mg_pctl *out, char *err, size_t errlen)
{
    const char *p = text;
    out->n = 0;
    for (;;) {
        char *end;
        double v = strtod(p, &end);
        size_t plain = strspn(p, "0123456789.");
        if (end == p || (size_t)(end - p) != plain || !(v > 0.0 && v <= 100.0)) {
            snprintf(err, errlen,
                     "-z '%s': a list of percentiles above 0 and at most 100, like 50,90,99.9",
                     text);
            return -1;
        }
        if (out->n == MG_MAX_PCTL || (out->n > 0 && v <= out->p[out->n - 1])) {
            snprintf(err, errlen, "-z '%s': at most %d percentiles, increasing, without repeats",
                     text, MG_MAX_PCTL);
            return -1;
        }
        out->p[out->n++] = v;
        if (*end == '\0')
            return 0;
        if (*end != ',' || end[1] == '\0') {
            snprintf(err, errlen, "-z '%s': percentiles are separated by commas", text);
            return -1;
        }
        p = end + 1;
    }
}

void mg_pctl_name(double pct, char *buf, size_t len) { snprintf(buf, len, "%.6g", pct); }

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

/* The titles of the statistics' columns: [P50] Mean Min Max Stddev P90 P99
 * CI95-low CI95-high, the chosen percentiles in place of P50, P90, P99. */
static void table_stat_titles(FILE *f, const mg_table_meta *meta)
{
    char name[32], title[40];
    if (meta->columns == MG_COLUMNS_ALL && !meta->pctl)
        fprintf(f, "%*s", COL_WIDTH, "P50");
    for (size_t i = 0; i < sizeof spread_titles / sizeof spread_titles[0]; ++i)
        fprintf(f, "%*s", COL_WIDTH, spread_titles[i]);
    if (meta->pctl) {
        for (int i = 0; i < meta->pctl->n; ++i) {
            mg_pctl_name(meta->pctl->p[i], name, sizeof name);
            snprintf(title, sizeof title, "P%s", name);
            fprintf(f, "%*s", COL_WIDTH, title);
        }
    } else
        fprintf(f, "%*s%*s", COL_WIDTH, "P90", COL_WIDTH, "P99");
    for (size_t i = 0; i < sizeof ci_titles / sizeof ci_titles[0]; ++i)
        fprintf(f, "%*s", COL_WIDTH, ci_titles[i]);
}

/* An observer's column: as wide as its title, at least as an extra's. */
static int cell_width(const char *name)
{
    const int n = (int)strlen(name);
    return n > COL_WIDTH + 2 ? n : COL_WIDTH + 2;
}

static void cell_titles(FILE *f, const mg_table_meta *meta)
{
    for (int i = 0; i < meta->ncells; ++i)
        fprintf(f, " %*s", cell_width(meta->cell[i].title), meta->cell[i].title);
}

static void cells(FILE *f, const mg_table_meta *meta, const mg_result *r)
{
    for (int i = 0; r->cell && i < meta->ncells; ++i) {
        const int w = cell_width(meta->cell[i].title);
        fputc(' ', f);
        if (meta->cell[i].counts && isfinite(r->cell[i]) && fabs(r->cell[i]) < 1e15)
            fprintf(f, "%*.0f", w, r->cell[i]);
        else
            fprintf(f, "%*.3g", w, r->cell[i]);
    }
}

void mg_report_title_lines(FILE *f, const mg_table_meta *meta)
{
    fprintf(f, "# mpigauge %s %s\n", meta->benchmark, meta->version);
    mg_comment_wrapped(f, meta->description, MG_TEXT_WIDTH);
}

/* The default table (--columns default): after OSU's two fields the median's
 * 95% CI as one short column and the sample count, so that a row fits in
 * MG_TEXT_WIDTH columns; -z's percentiles and -c's validation where asked
 * for. Every other statistic is --columns all's (and in CSV and JSON). */
static void brief_titles(FILE *f, const mg_table_meta *meta)
{
    char name[32], title[40];
    fprintf(f, "%*s%*s", CI_WIDTH, "CI95", 9, "Samples");
    for (int i = 0; meta->pctl && i < meta->pctl->n; ++i) {
        mg_pctl_name(meta->pctl->p[i], name, sizeof name);
        snprintf(title, sizeof title, "P%s", name);
        fprintf(f, "%*s", COL_WIDTH, title);
    }
    if (meta->validated)
        fprintf(f, "%*s", COL_WIDTH, "Validation");
}

static void samples_cell(FILE *f, const mg_stats *s)
{
    if (s->n < MG_FEW_SAMPLES)
        fprintf(f, "%*zu!", 8, s->n);
    else
        fprintf(f, "%*zu", 9, s->n);
}

void mg_report_ci_cell(char *buf, size_t len, const mg_stats *s)
{
    const double half = (s->ci95_high - s->ci95_low) / 2.0 / s->median * 100.0;
    if (!isfinite(half) || !(s->median > 0.0) || half < 0.0)
        snprintf(buf, len, "-");
    else if (half >= 99999.5) /* the column keeps its leading space (CI_WIDTH) */
        snprintf(buf, len, "+->99999%%");
    else
        snprintf(buf, len, half < 99.95 ? "+-%.1f%%" : "+-%.0f%%", half);
}

static void brief_cells(FILE *f, const mg_table_meta *meta, const mg_result *r)
{
    char ci[32];
    mg_report_ci_cell(ci, sizeof ci, &r->stats);
    fprintf(f, "%*s", CI_WIDTH, ci);
    samples_cell(f, &r->stats);
    for (int i = 0; r->pctl && i < r->pctl->n; ++i)
        table_num(f, COL_WIDTH, r->pctl_v[i]);
    if (meta->validated)
        fprintf(f, "%*s", COL_WIDTH, mg_report_pass_fail(r));
}

void mg_report_table_header(FILE *f, const mg_table_meta *meta)
{
    const int osu = meta->columns == MG_COLUMNS_OSU;
    mg_report_title_lines(f, meta);
    fprintf(f, "%-*s%*s", OSU_SIZE_WIDTH, "# Size", OSU_FIELD_WIDTH, meta->headline);
    if (meta->columns == MG_COLUMNS_DEFAULT) {
        brief_titles(f, meta);
        cell_titles(f, meta);
        if (meta->variant_name)
            fprintf(f, "  %s", meta->variant_name);
        fputc('\n', f);
        return;
    }
    if (meta->validated && osu)
        fprintf(f, "%*s", COL_WIDTH, "Validation");
    if (!osu)
        table_stat_titles(f, meta);
    if (!osu)
        fprintf(f, "%*s%*s%*s", 9, "Samples", 12, "Iterations", 13, "Stop");
    if (meta->validated && !osu)
        fprintf(f, "%*s", COL_WIDTH, "Validation");
    if (meta->gbits && !osu)
        fprintf(f, "%*s", COL_WIDTH, "Gbit/s");
    for (int i = 0; meta->extra_names && meta->extra_names[i] && !osu; ++i)
        fprintf(f, " %*s", COL_WIDTH + 2, meta->extra_names[i]);
    if (!osu)
        cell_titles(f, meta);
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
    const double spread[] = {s->mean, s->min, s->max, s->stddev};
    if (meta->columns == MG_COLUMNS_ALL && !r->pctl)
        table_num(f, COL_WIDTH, s->p50);
    for (size_t i = 0; i < sizeof spread / sizeof spread[0]; ++i)
        table_num(f, COL_WIDTH, spread[i]);
    for (int i = 0; r->pctl && i < r->pctl->n; ++i)
        table_num(f, COL_WIDTH, r->pctl_v[i]);
    if (!r->pctl) {
        table_num(f, COL_WIDTH, s->p90);
        table_num(f, COL_WIDTH, s->p99);
    }
    table_num(f, COL_WIDTH, s->ci95_low);
    table_num(f, COL_WIDTH, s->ci95_high);
    samples_cell(f, s);
    fprintf(f, "%*llu%*s", 12, r->iterations, 13, r->stop ? r->stop : "-");
    if (meta->validated)
        fprintf(f, "%*s", COL_WIDTH, mg_report_pass_fail(r));
    if (meta->gbits) /* MB/s x 8 / 1000 */
        table_num(f, COL_WIDTH, s->median * 8e-3);
    for (int i = 0; i < r->nextra; ++i) {
        fputc(' ', f);
        if (is_count(r->extra_names[i]) && isfinite(r->extra[i]) && fabs(r->extra[i]) < 1e15)
            fprintf(f, "%*.0f", COL_WIDTH + 2, r->extra[i]);
        else
            table_num(f, COL_WIDTH + 2, r->extra[i]);
    }
    cells(f, meta, r);
}

void mg_report_variant_cell(FILE *f, const mg_result *r)
{
    if (r->variant) {
        const char *eq = strchr(r->variant, '=');
        fprintf(f, "  %s", eq ? eq + 1 : r->variant);
    }
}

void mg_report_table_row_meta(FILE *f, const mg_table_meta *meta, const mg_result *r)
{
    const mg_stats *s = &r->stats;
    const int osu = meta->columns == MG_COLUMNS_OSU;
    fprintf(f, "%-*llu", OSU_SIZE_WIDTH, (unsigned long long)r->size_bytes);
    table_num(f, OSU_FIELD_WIDTH, s->median);
    if (osu && meta->validated)
        fprintf(f, "%*s", COL_WIDTH, mg_report_pass_fail(r));
    if (meta->columns == MG_COLUMNS_DEFAULT) {
        brief_cells(f, meta, r);
        cells(f, meta, r);
    } else if (!osu)
        table_stats(f, meta, r);
    mg_report_variant_cell(f, r);
    fputc('\n', f);
    mg_report_few_note(f, r);
}

void mg_report_few_note(FILE *f, const mg_result *r)
{
    const mg_stats *s = &r->stats;
    if (s->n < MG_FEW_SAMPLES)
        fprintf(f, "# ! size %llu%s%s: %zu sample%s (fewer than %d): a rough CI\n",
                (unsigned long long)r->size_bytes, r->variant ? ", " : "",
                r->variant ? r->variant : "", s->n, s->n == 1 ? "" : "s", MG_FEW_SAMPLES);
}

void mg_report_table_row(FILE *f, const mg_result *r)
{
    const mg_table_meta plain = {.columns = MG_COLUMNS_DEFAULT};
    mg_report_table_row_meta(f, &plain, r);
}

/* The CSV header without its line end: p50,p90,p99 or the chosen percentiles. */
static void csv_header(FILE *f, const mg_pctl *pctl)
{
    char name[32];
    fputs("benchmark,size_bytes,unit,median,mean,min,max,stddev", f);
    if (!pctl)
        fputs(",p50,p90,p99", f);
    for (int i = 0; pctl && i < pctl->n; ++i) {
        mg_pctl_name(pctl->p[i], name, sizeof name);
        fprintf(f, ",p%s", name);
    }
    fputs(",ci95_low,ci95_high,samples,iterations,stop,variant,extra", f);
}

void mg_report_csv_header(FILE *f)
{
    csv_header(f, NULL);
    fputc('\n', f);
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
    csv_header(f, meta->pctl);
    fputs(meta->validated ? ",validation\n" : "\n", f);
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
        fprintf(f, ",%s", mg_report_pass_fail(r));
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
    if (!r->pctl) {
        csv_num(f, s->p50);
        csv_num(f, s->p90);
        csv_num(f, s->p99);
    }
    for (int i = 0; r->pctl && i < r->pctl->n; ++i)
        csv_num(f, r->pctl_v[i]);
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

int mg_rank_extremes(const double *median, int n, int *slowest, int *fastest, double *mean)
{
    int k = 0;
    double sum = 0.0;
    *slowest = *fastest = -1;
    for (int i = 0; i < n; ++i) {
        if (!(median[i] > 0.0) || !isfinite(median[i]))
            continue;
        sum += median[i];
        if (k == 0 || median[i] > median[*slowest])
            *slowest = i;
        if (k == 0 || median[i] < median[*fastest])
            *fastest = i;
        k++;
    }
    if (mean)
        *mean = k > 0 ? sum / k : NAN;
    return k;
}

/* The slowest and fastest rank of a row, and every rank's median. */
static void json_ranks(mg_json *j, const mg_result *r)
{
    /* a figure other than time (memory) names the heaviest and lightest */
    static const char *const by_time[] = {"slowest_rank", "slowest_host", "slowest_rank_us",
                                          "fastest_rank", "fastest_host", "fastest_rank_us"};
    static const char *const by_value[] = {"heaviest_rank", "heaviest_host", "heaviest_rank_value",
                                           "lightest_rank", "lightest_host", "lightest_rank_value"};
    const char *const *key = r->ranks_by_value ? by_value : by_time;
    if (r->ranks_timed > 0) {
        mg_json_int(j, key[0], r->slowest_rank);
        mg_json_string(j, key[1], r->slowest_host);
        mg_json_number(j, key[2], r->slowest_rank_us);
        mg_json_int(j, key[3], r->fastest_rank);
        mg_json_string(j, key[4], r->fastest_host);
        mg_json_number(j, key[5], r->fastest_rank_us);
    }
    if (r->observed)
        mg_kv_write_json(j, r->observed);
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
    if (r->unit && strcmp(r->unit, "MB/s") == 0)
        mg_json_number(&j, "median_gbit_s", s->median * 8e-3);
    mg_json_number(&j, "mean", s->mean);
    mg_json_number(&j, "min", s->min);
    mg_json_number(&j, "max", s->max);
    mg_json_number(&j, "stddev", s->stddev);
    mg_json_number(&j, "p50", s->p50);
    mg_json_number(&j, "p90", s->p90);
    mg_json_number(&j, "p99", s->p99);
    if (r->pctl) {
        char key[40], name[32];
        mg_json_object_begin(&j, "percentiles");
        for (int i = 0; i < r->pctl->n; ++i) {
            mg_pctl_name(r->pctl->p[i], name, sizeof name);
            snprintf(key, sizeof key, "p%s", name);
            mg_json_number(&j, key, r->pctl_v[i]);
        }
        mg_json_object_end(&j);
    }
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
    json_ranks(&j, r);
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
