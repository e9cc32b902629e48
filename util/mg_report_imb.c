/* SPDX-License-Identifier: BSD-3-Clause */
/* --columns imb: the table as the Intel MPI Benchmarks print it
 * (doc/output.md). Rows that name their ranks (collectives, multi-pair,
 * one-sided, hotspot): #bytes #repetitions t_min[usec] t_max[usec]
 * t_avg[usec], over the ranks (the fastest and slowest rank's median and
 * the mean of the ranks' medians); other time rows (a pair): #bytes
 * #repetitions t[usec]; bandwidth rows: #bytes #repetitions Mbytes/sec.
 * #repetitions is the row's timed iterations; the figures stay mpigauge's
 * medians. A variant and -c's result follow. */
#include "mg_report.h"

#include <math.h>
#include <stdio.h>

#define IMB_BYTES 12
#define IMB_REPS 13
#define IMB_COL 13

static void num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%*.2f", IMB_COL, v);
    else
        fprintf(f, "%*s", IMB_COL, "-");
}

void mg_report_imb_header(FILE *f, const mg_table_meta *meta)
{
    mg_report_title_lines(f, meta);
    fprintf(f, "%*s%*s", IMB_BYTES, "#bytes", IMB_REPS, "#repetitions");
    if (meta->gbits)
        fprintf(f, "%*s", IMB_COL, "Mbytes/sec");
    else if (meta->ranks_named)
        fprintf(f, "%*s%*s%*s", IMB_COL, "t_min[usec]", IMB_COL, "t_max[usec]", IMB_COL,
                "t_avg[usec]");
    else
        fprintf(f, "%*s", IMB_COL, "t[usec]");
    if (meta->validated)
        fprintf(f, "%*s", IMB_COL, "defects");
    if (meta->variant_name)
        fprintf(f, "  %s", meta->variant_name);
    fputc('\n', f);
}

void mg_report_imb_row(FILE *f, const mg_table_meta *meta, const mg_result *r)
{
    fprintf(f, "%*llu%*llu", IMB_BYTES, (unsigned long long)r->size_bytes, IMB_REPS, r->iterations);
    if (meta->gbits || !meta->ranks_named)
        num(f, r->stats.median);
    else if (r->ranks_timed > 0) {
        num(f, r->fastest_rank_us);
        num(f, r->slowest_rank_us);
        num(f, r->rank_mean_us);
    } else {
        num(f, NAN);
        num(f, NAN);
        num(f, NAN);
    }
    if (meta->validated) /* IMB -check: the number of defects */
        fprintf(f, "%*s", IMB_COL,
                r->validation == NULL     ? "-"
                : r->validation[0] == 'p' ? "0"
                                          : "1");
    mg_report_variant_cell(f, r);
    fputc('\n', f);
}
