/* SPDX-License-Identifier: BSD-3-Clause */
/* mpigauge_screen's parts: the options and the run (screen_main.c), the
 * measurement (screen_measure.c), the output (screen_out.c). The method:
 * doc/screen.md; the schedule and the verdict: util/mg_screen.h. */
#ifndef MG_TOOLS_SCREEN_H
#define MG_TOOLS_SCREEN_H

#include "mg_linkrate.h"
#include "mg_mpi.h"
#include "mg_opts.h"
#include "mg_screen.h"

#include <stdint.h>
#include <stdio.h>

enum { SC_BW = 0, SC_LAT = 1, SC_NMETRICS = 2 };
enum { SC_UNIT_NODE = 0, SC_UNIT_RANK = 1, SC_UNIT_SOCKET = 2 };
enum { SC_TABLE = 0, SC_JSON = 1 };
/* MG_EXIT_* beside these: something named, or too few repetitions to say */
#define SC_EXIT_FOUND 3
#define SC_EXIT_UNCLEAR 4
/* a host's whole name: cut short, two long names could look the same */
#define SC_HOST_LEN MPI_MAX_PROCESSOR_NAME

typedef struct {
    int unit;        /* --unit */
    mg_list metrics; /* --metrics (SC_BW, SC_LAT); empty: both */
    uint64_t lat_bytes, bw_bytes;
    long lat_iters, bw_iters, window;
    long reps;        /* 0: automatic */
    double budget_s;  /* --time-budget; 0: none */
    double threshold; /* fraction */
    double alpha;
    double expect[SC_NMETRICS]; /* floors: MB/s, us; 0: none (from expect_bw, expect_lat) */
    const char *expect_bw;      /* --expect-bw: "MBPS" or "PCT%" of the link rate */
    const char *expect_lat;     /* --expect-lat: "US" */
    double link_gbps;           /* --link-gbps; 0: each node's own (mg_link_of_node) */
    int format;
    const char *output;
    int help, version;
} sc_opts;

/* One launch's screen. The units' arrays are [other unit][repetition]. */
typedef struct {
    sc_opts o;
    int rank, nranks;
    int nunits, unit;          /* this rank's unit, -1 when it is idle */
    int *unit_rank;            /* world rank of every unit */
    int *package;              /* its package (socket; --unit socket), else -1 */
    char (*host)[SC_HOST_LEN]; /* host of every unit */
    mg_link *link;             /* every unit's link (gbps 0: unknown) */
    int ranks_per_node_max;    /* the most ranks any node has */
    MPI_Comm ucomm;            /* the units (MPI_COMM_NULL on idle ranks) */
    int reps_planned, reps, min_reps;
    double rep_s, seconds; /* one repetition (the warm-up's), the whole screen */
    int stopped_by_budget;
    double *lat, *bw_out; /* this unit's: nunits x reps_planned, NaN none */
    void *sbuf, *rbuf;    /* window x bw_bytes each */
    /* rank 0 after the gather: pair-major npairs x reps */
    double *x[SC_NMETRICS];
    double *bw_dir; /* [a][b][r]: a's sending rate to b, nunits^2 x reps */
    char library[256];
} sc_run;

/* A bandwidth's share of the pair's link rate (the slower end's), NaN
 * when a rate is unknown. */
double sc_share(const sc_run *s, int a, int b, double mbps);

/* Whether metric m is screened. */
int sc_wants(const sc_opts *o, int m);

/* The units measure (collective over s->ucomm): the warm-up repetition, the
 * budget, then the repetitions; fills s->lat, s->bw_out, s->reps. */
void sc_measure(sc_run *s);
/* Rank 0 of the units: gather every unit's figures into s->x and s->bw_dir
 * (collective over s->ucomm). 0, or -1 when out of memory (every unit). */
int sc_gather(sc_run *s);

/* One metric's verdict (rank 0). */
typedef struct {
    int on;
    mg_screen_cfg cfg;
    mg_screen_pair *pairs;
    int *flagged, *named;
    mg_screen_summary sum;
} sc_verdict;

/* Rank 0: the output in the chosen format to f. */
void sc_write(const sc_run *s, const sc_verdict *v, FILE *f);
/* The exit status the verdicts give: 0, SC_EXIT_FOUND or SC_EXIT_UNCLEAR. */
int sc_exit_code(const sc_run *s, const sc_verdict *v);

#endif
