/* SPDX-License-Identifier: BSD-3-Clause */
/* The OSU layout (doc/osu.md): the table the OSU Micro-Benchmarks print, for
 * a program started under an OSU name (mpi/osu/mg_osu.h fills its facts,
 * mg_osu_table). A sink of its own (util/mg_sink.c, mg_sink_layout). */
#include "mg_report.h"

#include <math.h>
#include <string.h>

#define OSU_SIZE_WIDTH 10  /* OSU 7.4's "%-*d", 10 */
#define OSU_FIELD_WIDTH 18 /* and its FIELD_WIDTH */

/* OSU's lines before the column titles: osu_latency_mt's threads, the
 * preamble's blank line, the title with the version, mpigauge's note, and
 * the lines of the non-blocking, multi-pair and one-sided programs. */
static void osu_preamble(FILE *f, const mg_osu_table *t)
{
    if (t->threads > 0)
        fprintf(f, "# Number of Sender threads: %d \n# Number of Receiver threads: %d\n",
                t->threads, t->threads);
    if (t->blank)
        fputc('\n', f);
    fprintf(f, "# %s%s%s\n", t->title, t->version ? " v" : "", t->version ? t->version : "");
    if (t->note[0])
        fprintf(f, "# %s\n", t->note);
    if (t->nbc)
        fputs("# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n\n", f);
    if (t->window > 0)
        fprintf(f, "# [ pairs: %d ] [ window size: %d ]\n", t->nprocs / 2, t->window);
    if (t->win_creation && t->win_sync)
        fprintf(f, "# Window creation: %s\n# Synchronization: %s\n", t->win_creation, t->win_sync);
    if (t->datatype)
        fprintf(f, "# Datatype: %s.\n", t->datatype);
}

/* OSU's header under an OSU name: its preamble, the columns. */
void mg_report_osu_header(FILE *f, const mg_table_meta *meta, const mg_osu_table *t)
{
    osu_preamble(f, t);
    if (t->line)
        return; /* osu_init, osu_hello: one line, no table */
    if (t->no_size)
        fprintf(f, "# %s", t->figure);
    else
        fprintf(f, "%-*s%*s", OSU_SIZE_WIDTH, "# Size", OSU_FIELD_WIDTH, t->figure);
    if (t->rate)
        fprintf(f, "%*s", OSU_FIELD_WIDTH, "Messages/s");
    if (t->nbc)
        fprintf(f, "%*s%*s%*s", OSU_FIELD_WIDTH, "Compute(us)", OSU_FIELD_WIDTH, "Pure Comm.(us)",
                OSU_FIELD_WIDTH, "Overlap(%)");
    if (t->full)
        fprintf(f, "%*s%*s%*s", OSU_FIELD_WIDTH, "Min Latency(us)", OSU_FIELD_WIDTH,
                "Max Latency(us)", 12, "Iterations");
    if (meta->validated)
        fprintf(f, "%*s", OSU_FIELD_WIDTH, "Validation");
    for (int i = 0; meta->pctl && i < meta->pctl->n; ++i) { /* -z: OSU's tail columns */
        char name[16], title[48];
        mg_pctl_name(meta->pctl->p[i], name, sizeof name);
        snprintf(title, sizeof title, "P%s Tail %s", name,
                 strstr(t->figure, "MB/s") ? "BW(MB/s)" : "Lat(us)");
        fprintf(f, "%*s", OSU_FIELD_WIDTH, title);
    }
    if (t->ddt_rows)
        fprintf(f, "%*s", OSU_FIELD_WIDTH, "Transmit Size");
    if (meta->variant_name && !t->keep)
        fprintf(f, "  %s", meta->variant_name);
    fputc('\n', f);
}

/* The extra figure of that name, or NaN. */
static double extra_named(const mg_result *r, const char *name)
{
    for (int i = 0; i < r->nextra; ++i)
        if (r->extra_names[i] && strcmp(r->extra_names[i], name) == 0)
            return r->extra[i];
    return NAN;
}

/* The size OSU's table shows for a row: its own, or under -D the size
 * whose derived type carries the row's bytes. */
static unsigned long long osu_size(const mg_osu_table *t, const mg_result *r)
{
    for (int i = 0; i < t->ddt_rows; ++i)
        if (t->ddt_sent[i] == r->size_bytes)
            return t->ddt_size[i];
    return (unsigned long long)r->size_bytes;
}

/* A row of OSU's table: the size, the figure, with -f the fastest and
 * slowest rank's medians and the iterations, Pass or Fail, under -D the
 * bytes sent. */
static void osu_cells(FILE *f, const mg_table_meta *meta, const mg_osu_table *t, const mg_result *r)
{
    if (t->line == 1) /* MPI_Init: the fastest, slowest and mean rank */
        fprintf(f, "nprocs: %d, min: %.0f ms, max: %.0f ms, avg: %.0f ms", t->nprocs,
                extra_named(r, "init_min_us") / 1e3, r->stats.median / 1e3,
                extra_named(r, "init_mean_us") / 1e3);
    if (t->line == 2)
        fprintf(f, "This is a test with %d processes", t->nprocs);
    if (t->line)
        return;
    if (t->no_size)
        fprintf(f, "%*.2f", 17, r->stats.median);
    else
        fprintf(f, "%-*llu%*.2f", OSU_SIZE_WIDTH, osu_size(t, r), OSU_FIELD_WIDTH, r->stats.median);
    if (t->rate)
        fprintf(f, "%*.2f", OSU_FIELD_WIDTH, extra_named(r, "msg_rate_per_s"));
    if (t->nbc)
        fprintf(f, "%*.2f%*.2f%*.2f", OSU_FIELD_WIDTH, extra_named(r, "compute_us"),
                OSU_FIELD_WIDTH, extra_named(r, "pure_us"), OSU_FIELD_WIDTH,
                extra_named(r, "overlap_pct"));
    if (t->full)
        fprintf(f, "%*.2f%*.2f%*llu", OSU_FIELD_WIDTH,
                r->ranks_timed > 0 ? r->fastest_rank_us : r->stats.min, OSU_FIELD_WIDTH,
                r->ranks_timed > 0 ? r->slowest_rank_us : r->stats.max, 12, r->iterations);
    if (meta->validated)
        fprintf(f, "%*s", OSU_FIELD_WIDTH, mg_report_pass_fail(r));
    for (int i = 0; r->pctl && i < r->pctl->n; ++i)
        fprintf(f, "%*.2f", OSU_FIELD_WIDTH, r->pctl_v[i]);
    if (t->ddt_rows)
        fprintf(f, "%*llu", OSU_FIELD_WIDTH, (unsigned long long)r->size_bytes);
    if (!t->keep)
        mg_report_variant_cell(f, r);
}

void mg_report_osu_row(FILE *f, const mg_table_meta *meta, const mg_osu_table *t,
                       const mg_result *r)
{
    if (t->keep && r->variant && strcmp(r->variant, t->keep) != 0)
        return;               /* OSU reports one phase */
    osu_cells(f, meta, t, r); /* no note under a row: OSU's parsers read every line */
    fputc('\n', f);
}
