/* SPDX-License-Identifier: BSD-3-Clause */
/* The OSU drop-in (doc/osu.md): a program started under an OSU
 * Micro-Benchmarks name (osu_latency, osu_allreduce, ...: the links in
 * $(pkglibexecdir)/osu, `mpigauge --osu-dir`) takes OSU's option letters
 * and defaults, prints OSU's table (the size and the figure first, comment
 * headers, Pass/Fail with -c, Min/Max/Iterations with -f) and ends with
 * OSU's exit codes (0, or 1 for any failure). Buffer locations (`D D`,
 * `MD`, `MH`) are taken as an OSU build without GPU support takes them:
 * host memory, with one warning line and a note in the run record. The
 * statistics stay mpigauge's: the figure is the median over samples.
 *
 * The translation is pure (no MPI): OSU's command line becomes mpigauge's
 * options, which the plan then parses as usual. */
#ifndef MG_OSU_H
#define MG_OSU_H

#include "mg_report.h"

#include <stddef.h>
#include <stdio.h>

typedef enum {
    MG_OSU_LAT,     /* pt2pt latency: sizes 0..4M, 10000/1000 iterations */
    MG_OSU_MT,      /* the same with -t threads */
    MG_OSU_BW,      /* bandwidth: 1..4M, 100/20 iterations, -W window */
    MG_OSU_MBW,     /* osu_mbw_mr */
    MG_OSU_COLL,    /* collectives: 1..1M, 1000/100 iterations, -f */
    MG_OSU_ROOTED,  /* the same with -k root */
    MG_OSU_BARRIER, /* no sizes */
    MG_OSU_RMA_LAT, /* one-sided latency: 1..4M, -w window, -s sync */
    MG_OSU_RMA_BW,  /* one-sided bandwidth: with -W */
    MG_OSU_NBC,     /* non-blocking collectives: overall, compute, pure, overlap */
    MG_OSU_PERS,    /* persistent collectives: start + wait (the pure phase) */
    MG_OSU_LAT_P,   /* persistent point-to-point latency (calls=persistent) */
    MG_OSU_BW_P,    /* persistent point-to-point bandwidth */
    MG_OSU_INIT,    /* osu_init: nprocs, min, max, avg of MPI_Init in ms */
    MG_OSU_HELLO,   /* osu_hello: "This is a test with N processes" */
    MG_OSU_FAN_IN,  /* osu_bw_fan_in: fan --hubs node (bandwidth's rows) */
    MG_OSU_FAN_OUT  /* osu_bw_fan_out: fan --hubs node --direction out */
} mg_osu_kind;

typedef struct {
    const char *osu;   /* "osu_latency" */
    const char *prog;  /* the program in bindir: "mpigauge_latency" */
    const char *bench; /* the benchmark it runs: "latency" */
    const char *title; /* OSU's first header line: "OSU MPI Latency Test" */
    mg_osu_kind kind;
} mg_osu_entry;

#define MG_OSU_DDT_MAX 64    /* -D: rows at most */
#define MG_OSU_VERSION "7.4" /* the OSU release whose output the names print */

/* A command line under an OSU name, translated. */
typedef struct {
    const mg_osu_entry *e;
    int full;         /* -f: Min, Max (over ranks) and Iterations columns */
    char buffers[16]; /* the buffer locations as given ("D D"), "" none */
    int substituted;  /* 1: a location other than H was taken as host memory */
    int argc;         /* mpigauge's command line (argv[0] unchanged) */
    char **argv;
    int given_argc; /* OSU's, as given (not owned) */
    char **given_argv;
    const char *mpi_type; /* -T: the element's MPI name ("MPI_INT"; OSU's default MPI_CHAR) */
    char keep[64];        /* -T (point-to-point), -D: the variant OSU's table shows */
    char layout[48];      /* -D: mpigauge's layout ("contiguous", "vector:B:S"), "" none */
    int ddt_rows;         /* -D: OSU's sizes and the bytes each carries, row by row */
    unsigned long long ddt_size[MG_OSU_DDT_MAX], ddt_sent[MG_OSU_DDT_MAX];
    int threads; /* osu_latency_mt: -t's threads per rank (OSU's default 1) */
    int window;  /* osu_mbw_mr: -W (OSU's default 64) */
    int rate;    /* osu_mbw_mr: -R, the Messages/s column (OSU's default 1) */
} mg_osu;

/* The entry of argv0's base name, or NULL when it is no OSU name. */
const mg_osu_entry *mg_osu_find(const char *argv0);
/* --osu-names: "OSU_NAME PROGRAM BENCHMARK" per line. */
void mg_osu_list(FILE *f);
/* OSU's command line (argc, argv) for entry e into o (o->argv allocated);
 * 0, or -1 with a usage message in err (OSU: exit 1). */
int mg_osu_translate(const mg_osu_entry *e, int argc, char **argv, mg_osu *o, char *err,
                     size_t errlen);
/* The line rank 0 writes on standard error, or "" (buffer locations taken
 * as host memory). */
void mg_osu_warning(const mg_osu *o, char *buf, size_t len);
void mg_osu_free(mg_osu *o);
/* The OSU layout's facts for o (util/mg_report.h): title, figure, -f, no
 * size (barrier), element type, the phase kept, -D's rows. */
void mg_osu_table_meta(const mg_osu *o, mg_osu_table *meta);
/* The one-sided programs' "# Window creation" and "# Synchronization"
 * lines, from mpigauge's flavour and synchronisation names (the run's
 * "window" description); unknown names: no lines. */
void mg_osu_window_lines(const char *flavor, const char *sync, mg_osu_table *meta);
/* OSU's exit code for mpigauge's: 0 stays 0, every failure is 1. */
int mg_osu_exit(int rc);
/* What an entry's program is: a barrier (no sizes), a one-sided
 * accumulate or atomic (an element type), an atomic (one element). */
int mg_osu_sizeless(const mg_osu_entry *e);
int mg_osu_rma_typed(const mg_osu_entry *e);
int mg_osu_one_element(const mg_osu_entry *e);
/* OSU's -D rows: the sizes from min to max that mpigauge sweeps (powers of
 * two), each with the bytes its derived type carries: all of them (stride
 * 0, contiguous) or block bytes of every stride (whole strides only). Rows
 * that carry nothing are left out; at most cap rows. The number of rows. */
int mg_osu_ddt_rows(unsigned long long min, unsigned long long max, long stride, long block,
                    unsigned long long *size, unsigned long long *sent, int cap);

#endif
