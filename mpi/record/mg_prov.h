/* SPDX-License-Identifier: BSD-3-Clause */
/* Provenance: what makes a result comparable, written once per run as the
 * {"type":"run",...} record of the JSON Lines output. Collected once over
 * MPI into plain data (mg_prov_collect); the record is written from that
 * data alone (mg_prov_write), so a test can write it from a made-up mg_prov.
 * What the run is (library, ranks, hosts, bindings, environment, control
 * variables) is here; facts of the nodes that a run only records (CPU
 * model, kernel, links) are contributors of mg_facts.h.
 */
#ifndef MG_PROV_H
#define MG_PROV_H

#include "mg_bench.h"
#include "mg_facts.h"
#include "mg_mpit.h"

#include <stdio.h>

#include "mg_size.h"

typedef struct mg_prov {
    int nranks, nnodes;
    char **hosts;    /* rank 0 only: host name of every rank */
    char **bindings; /* rank 0 only: CPU binding of every rank (hwloc list) */
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int mpi_version, mpi_subversion;
    double timer_overhead_s, timer_resolution_s;
    char date_utc[32];
    char version[64]; /* mpigauge's version */
    mg_facts facts;   /* the nodes' facts (mg_facts.h) */
    char **env;       /* the recorded "NAME=VALUE" variables, sorted */
    size_t nenv;
    mg_cvars cvars; /* rank 0: the library's control variables (MPI_T) */
} mg_prov;

/* The rest of what the run record says, as plain data the output stage
 * builds from the run (mg_output_begin): the record is written from an
 * mg_prov and an mg_run_info alone, so a test can write it from made-up
 * ones. */
typedef struct {
    const char *benchmark, *description, *family;
    int algorithm;         /* the library chooses the operation's algorithm (MG_FACT_ALGORITHM) */
    const int *node_of;    /* every rank's node index */
    const int *partner_of; /* every rank's partner (layout.pairs), or NULL */
    int links;             /* MG_LINKS_*: the links the record shows without pairs */
    const mg_compute_calib *compute; /* the calibrated busy loop, or NULL */
    double compute_err_max;
    const mg_kvlist *kernel;  /* the kernel's own objects (report.describe), or NULL */
    const mg_xfer *transport; /* describes itself (the rails), or NULL */
    const uint64_t *sizes;
    size_t nsizes;
    const char *variant_name;   /* NULL: no second sweep dimension */
    const char (*variants)[96]; /* the variants' labels, in sweep order */
    int nvariants;
    const mg_opt_table *common; /* the common option tables, as parsed */
    size_t ncommon;
    const mg_opt_table *bench_options; /* the benchmark's own, or NULL */
    int precision_rule;
    const char *time_mode; /* "root", "max", "call" */
    int argc;
    char **argv;
    /* Under an OSU name (mpi/osu/mg_osu.h): that name, OSU's command line as
     * given (command_line is mpigauge's, translated from it), the buffer
     * locations ("" none) and whether one other than H was taken as host
     * memory; osu_name NULL otherwise. */
    const char *osu_name, *osu_buffers;
    int osu_argc, osu_substituted;
    char **osu_argv;
} mg_run_info;

/* Collective over ctx->comm: gathers hosts and bindings to rank 0. */
void mg_prov_collect(mg_prov *p, const mg_ctx *ctx);

/* The environment variables the run record keeps (names with a prefix of an
 * MPI library or launcher), copied and sorted into p->env; the value of one
 * whose name looks like a secret (util/mg_secret.h) is not copied but
 * replaced by "<redacted>". */
void mg_prov_collect_env(mg_prov *p, char **envp);

/* A collective's algorithm as the library's cvars force it
 * ("coll_tuned_allreduce_algorithm=recursive_doubling"), else "unknown"
 * (the run record's algorithm.served_by, and every row's algorithm). */
void mg_prov_served_by(const mg_prov *p, const char *benchmark, char *out, size_t len);

/* Rank 0: write the run record (one line). */
void mg_prov_write(FILE *f, const mg_prov *p, const mg_run_info *ri);
/* The {"type":"cvars",...} record of the control variables read (nothing
 * when none were): after the run record, which names its digest. */
void mg_prov_write_cvars(FILE *f, const mg_prov *p);

/* Rank 0: "# ..." comment lines for the human table. */
void mg_prov_write_comment(FILE *f, const mg_prov *p, const mg_run_info *ri);
/* "Open MPI 4.1.4, 2 ranks on 1 node": the library in a few words and where
 * the run ran (the table's first line, the OSU layout's note). */
void mg_prov_where(const mg_prov *p, char *buf, size_t len);

void mg_prov_free(mg_prov *p);

#endif
