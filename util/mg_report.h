/* SPDX-License-Identifier: BSD-3-Clause */
/* Report writers: the human table, CSV and JSON Lines result records.
 *
 * Table: the first two columns keep OSU's layout ("# Size" left-aligned in
 * 10 characters, the headline figure right-aligned in 20 with 2 decimals),
 * so scripts that parse OSU output read it unchanged; more columns follow.
 * The headline figure is the median of the samples.
 *
 * CSV: one header line, then one line per size, the same fields as the JSON
 * result record; the last two columns are the variant and the extras as
 * "name=value;name=value" (both empty when the benchmark has none).
 *
 * Table: extras become further columns after "Stop", and the variant (when
 * the benchmark has one) the last column.
 *
 * -z LIST: the table's P90 and P99 (and --columns all's P50) and the CSV's
 * p50, p90, p99 become the chosen percentiles; the JSON result keeps p50,
 * p90 and p99 and adds "percentiles": {"p99.9": ...}.
 *
 * JSON: one {"type":"result",...} object per line. The run record (the
 * provenance) is written by the MPI layer with mg_json.
 */
#ifndef MG_REPORT_H
#define MG_REPORT_H

#include "mg_stats.h"

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_MAX_EXTRA 10

/* The first two columns of a table: the size and the figure. */
#define MG_REPORT_SIZE_WIDTH 10
#define MG_REPORT_FIELD_WIDTH 20

/* -z, --percentiles LIST: the percentile columns, in percent, ascending. */
#define MG_MAX_PCTL 8
typedef struct {
    int n;
    double p[MG_MAX_PCTL];
} mg_pctl;

/* "50,90,99.9" -> *out (each in (0, 100], increasing, at most MG_MAX_PCTL).
 * 0, or -1 with a message in err. */
int mg_pctl_parse(const char *text, mg_pctl *out, char *err, size_t errlen);
/* A percentile's name, "99.9" (the table's title is P and it, the CSV's
 * field and the JSON's key p and it). */
void mg_pctl_name(double pct, char *buf, size_t len);

/* A column a run-wide feature adds to the default table (mpi/observe/mg_observe.h;
 * --pvars: one per variable): its title, and 1 when its values are counts
 * (written as integers up to 1e15; else with three significant digits). */
typedef struct {
    const char *title;
    int counts;
} mg_cell_title;

typedef struct {
    const char *benchmark;
    uint64_t size_bytes;
    const char *unit;              /* "us" or "MB/s" */
    mg_stats stats;                /* in unit */
    unsigned long long iterations; /* timed iterations over all samples */
    const char *stop;              /* why sampling stopped (mg_stop_reason_name) */
    const char *variant;           /* second sweep dimension, "slaves=3"; NULL: none */
    long variant_value;            /* its value (not written: for a benchmark's summary) */
    const char *validation;        /* "passed", "failed"; NULL: not validated */
    int nextra;                    /* further figures of the benchmark (NaN: not available) */
    const char *extra_names[MG_MAX_EXTRA];
    double extra[MG_MAX_EXTRA];
    const mg_pctl *pctl;        /* -z: the chosen percentiles, or NULL (P90, P99) */
    double pctl_v[MG_MAX_PCTL]; /* their values, in unit */
    /* Benchmarks that can span more than a pair: the ranks whose own timed
     * loop took longest and shortest (median per iteration, us) and their
     * hosts; ranks_timed 0: not named. */
    int ranks_timed;
    /* 1: the figure is not a time (memory): the JSON names the ranks
     * heaviest and lightest, with their figures in the row's unit */
    int ranks_by_value;
    double rank_mean_us; /* the mean of the timed ranks' medians (with ranks_timed) */
    int slowest_rank, fastest_rank;
    const char *slowest_host, *fastest_host;
    double slowest_rank_us, fastest_rank_us;
    /* What the run's observers (mpi/observe/mg_observe.h) say of the row, as named
     * values: JSON writes them as members ("host": {...}); NULL: none. */
    const struct mg_kvlist *observed;
    const double *cell; /* their table cells, the header's ncells (NaN: none) */
} mg_result;

/* The slowest and fastest of n ranks' medians (ranks with no positive,
 * finite median, such as idle ones, left out): the number of ranks with
 * one, and their indices in *slowest and *fastest (the lowest rank on a
 * tie; -1 when none); their mean in *mean unless mean is NULL (NaN when
 * none). */
int mg_rank_extremes(const double *median, int n, int *slowest, int *fastest, double *mean);

typedef struct {
    const char *benchmark;
    const char *description; /* one line: what is measured */
    const char *headline;    /* column title, e.g. "Latency (us)" */
    const char *version;
    const char *const *extra_names; /* titles of extra columns, NULL-terminated or NULL */
    const char *variant_name;       /* title of the variant column, or NULL */
    int ncells; /* the observers' table columns (mg_cell_title), after every other */
    const mg_cell_title *cell;
    int gbits;           /* bandwidth rows (MB/s): a Gbit/s column */
    int ranks_named;     /* rows name their slowest and fastest rank (--columns imb) */
    int columns;         /* the table's columns: MG_COLUMNS_* (--columns) */
    int validated;       /* -c: a Validation column (Pass/Fail), in CSV too */
    const mg_pctl *pctl; /* -z: these percentile columns in place of P90, P99 (table) and
                          * p50, p90, p99 (CSV); NULL: those */
} mg_table_meta;

/* The OSU layout's facts (util/mg_report_osu.c), filled under an OSU name
 * (mpi/osu/mg_osu.h): OSU 7.4's header lines character for character, then
 * its rows. title is OSU's first header line (version appended: " v7.4"),
 * blank a blank line before it (OSU's preamble), note mpigauge's one line
 * after it (written "# NOTE"), figure the figure's column title; full adds
 * Min and Max over ranks and Iterations (-f), no_size drops the size
 * (barrier), datatype names the element type ("MPI_CHAR"; NULL: no such
 * line), keep: only rows of this variant ("phase=pure"; NULL: all). OSU's
 * -D: the row of payload ddt_sent[i] shows OSU's size ddt_size[i], and a
 * Transmit Size column the payload (0 rows: no -D). nbc: Compute, Pure
 * Comm. and Overlap columns; line 1: osu_init's line, 2: osu_hello's, in
 * place of a table, over nprocs ranks. threads: osu_latency_mt's thread
 * lines first; window: osu_mbw_mr's pairs (nprocs / 2) and window line, rate its Messages/s
 * column; win_creation, win_sync: the one-sided programs' window lines. */
typedef struct mg_osu_table {
    const char *title, *figure, *datatype, *version;
    char note[256];
    int blank;
    int full, no_size;
    const char *keep;
    int ddt_rows;
    const unsigned long long *ddt_size, *ddt_sent;
    int nbc;
    int line;
    int nprocs;
    int threads;
    int window, rate;
    const char *win_creation, *win_sync;
} mg_osu_table;

/* --columns: default (the size, the figure, its 95% CI as +-P% and the
 * sample count: within 80 columns), osu (the size and the figure, and
 * Pass/Fail with -c, as OSU prints them), all (every statistic, the
 * iterations, why sampling stopped, Gbit/s, the benchmark's own figures),
 * imb (IMB's table). */
enum { MG_COLUMNS_DEFAULT = 0, MG_COLUMNS_OSU, MG_COLUMNS_ALL, MG_COLUMNS_IMB };
extern const char *const mg_columns_names[];

typedef enum { MG_FORMAT_TABLE = 0, MG_FORMAT_CSV, MG_FORMAT_JSON } mg_format;

/* Fewer samples than this make the percentiles and the CI rough: the table
 * marks the sample count with '!' and says so under the row, the JSON
 * result has "few_samples": true. */
#define MG_FEW_SAMPLES 10

/* "table", "csv", "json" -> format; -1 if unknown. */
int mg_format_parse(const char *name);

void mg_report_table_header(FILE *f, const mg_table_meta *meta);
/* The table's first lines: "# mpigauge NAME VERSION", "# DESCRIPTION". */
void mg_report_title_lines(FILE *f, const mg_table_meta *meta);
/* "  VALUE" of a row's variant ("ways=2" -> "  2"), nothing without one. */
void mg_report_variant_cell(FILE *f, const mg_result *r);
/* --columns imb (util/mg_report_imb.c): IMB's columns. */
void mg_report_imb_header(FILE *f, const mg_table_meta *meta);
void mg_report_imb_row(FILE *f, const mg_table_meta *meta, const mg_result *r);
void mg_report_table_row(FILE *f, const mg_result *r);
/* OSU's table (the OSU layout): its header, and a row (nothing for a row
 * of another phase than t->keep). */
void mg_report_osu_header(FILE *f, const mg_table_meta *meta, const mg_osu_table *t);
void mg_report_osu_row(FILE *f, const mg_table_meta *meta, const mg_osu_table *t,
                       const mg_result *r);
/* The median's 95% CI as the default table shows it: its half-width in
 * percent of the median, "+-0.8%" ("-" when there is none). */
void mg_report_ci_cell(char *buf, size_t len, const mg_stats *s);
/* OSU's words for a validated row: "Pass" or "Fail". */
const char *mg_report_pass_fail(const mg_result *r);
/* Under a row of fewer than MG_FEW_SAMPLES samples: a line saying so. */
void mg_report_few_note(FILE *f, const mg_result *r);
/* The same with meta's columns and validation column. */
void mg_report_table_row_meta(FILE *f, const mg_table_meta *meta, const mg_result *r);
void mg_report_csv_header(FILE *f);
void mg_report_csv_row(FILE *f, const mg_result *r);
/* -c: the header and rows with a last field, validation (Pass/Fail). */
void mg_report_csv_header_meta(FILE *f, const mg_table_meta *meta);
void mg_report_csv_row_meta(FILE *f, const mg_table_meta *meta, const mg_result *r);
void mg_report_json_result(FILE *f, const mg_result *r);

/* Header, row by format (JSON has no header: the run record plays that role). */
void mg_report_header(FILE *f, mg_format fmt, const mg_table_meta *meta);
void mg_report_row(FILE *f, mg_format fmt, const mg_result *r);

#ifdef __cplusplus
}
#endif

#endif
