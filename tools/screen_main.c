/* SPDX-License-Identifier: BSD-3-Clause */
/* mpigauge_screen: latency and bandwidth between every pair of nodes (or of
 * ranks, --unit rank), in the rounds of a round-robin tournament, repeated;
 * then the pairs that are outliers against the population, with error
 * control over the pairs, named as a slow node when they share one, else
 * as a slow link (doc/screen.md).
 *
 *   mpirun -n 8 --map-by ppr:1:node mpigauge_screen
 *   srun -N 16 --ntasks-per-node=1 mpigauge_screen --time-budget 60 -o screen.jsonl --format json
 *
 * Exit status: 0 nothing found, 3 something named, 4 inconclusive (too few
 * repetitions, or two units without a floor), 2 usage, 99 MPI error; the
 * same on every rank.
 */
#include "screen.h"

#include "mg_binding.h"
#include "mg_exit.h"
#include "mg_group.h"
#include "mg_opts.h"
#include "mg_outfile.h"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const unit_names[] = {"node", "rank", "socket", NULL};
static const char *const metric_names[] = {"bw", "lat", NULL};
static const char *const format_names[] = {"table", "json", NULL};
/* rank 0 holds every unit's figures: 16 bytes per unit pair and repetition */
#define SC_GATHER_MAX ((double)(1u << 30))

static const mg_opt opts[] = {
    {.long_name = "unit",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(sc_opts, unit),
     .arg_name = "node|rank|socket",
     .choices = unit_names,
     .def = "node",
     .help = "what is screened: every pair of nodes (the lowest rank of each; the others "
             "wait idle), of ranks, or of sockets (the lowest rank bound within each node's "
             "socket)"},
    {.long_name = "metrics",
     .type = MG_OPT_LIST,
     .offset = offsetof(sc_opts, metrics),
     .arg_name = "LIST",
     .choices = metric_names,
     .help = "bw, lat (default both)"},
    {.long_name = "lat-bytes",
     .type = MG_OPT_SIZE,
     .offset = offsetof(sc_opts, lat_bytes),
     .arg_name = "SIZE",
     .def = "8",
     .min = 0,
     .max = 1 << 20,
     .help = "latency: message size"},
    {.long_name = "lat-iters",
     .type = MG_OPT_LONG,
     .offset = offsetof(sc_opts, lat_iters),
     .arg_name = "N",
     .def = "50",
     .min = 1,
     .max = 1e6,
     .help = "latency: ping-pongs per pair and repetition (their median)"},
    {.long_name = "bw-bytes",
     .type = MG_OPT_SIZE,
     .offset = offsetof(sc_opts, bw_bytes),
     .arg_name = "SIZE",
     .def = "1M",
     .min = 1,
     .max = 1 << 30,
     .help = "bandwidth: message size"},
    {.long_name = "window",
     .type = MG_OPT_LONG,
     .offset = offsetof(sc_opts, window),
     .arg_name = "N",
     .def = "8",
     .min = 1,
     .max = 1024,
     .help = "bandwidth: messages in flight"},
    {.long_name = "bw-iters",
     .type = MG_OPT_LONG,
     .offset = offsetof(sc_opts, bw_iters),
     .arg_name = "N",
     .def = "2",
     .min = 1,
     .max = 1e6,
     .help = "bandwidth: windows per direction, pair and repetition"},
    {.long_name = "reps",
     .type = MG_OPT_LONG,
     .offset = offsetof(sc_opts, reps),
     .arg_name = "N",
     .min = 1,
     .max = 100000,
     .help = "repetitions of the tournament (default: 5 more than the error control needs "
             "to flag one pair, at least 12)"},
    {.long_name = "time-budget",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(sc_opts, budget_s),
     .arg_name = "S",
     .min = 0,
     .max = 1e7,
     .help = "seconds for the whole screen: fewer repetitions when they do not fit"},
    {.long_name = "threshold",
     .type = MG_OPT_PERCENT,
     .offset = offsetof(sc_opts, threshold),
     .arg_name = "PCT",
     .def = "20%",
     .min = 0.01,
     .max = 0.99,
     .help = "an outlier is worse than the reference by more than this"},
    {.long_name = "alpha",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(sc_opts, alpha),
     .arg_name = "A",
     .def = "0.05",
     .min = 1e-9,
     .max = 0.5,
     .help = "family-wise error rate over the pairs"},
    {.long_name = "expect-bw",
     .type = MG_OPT_STRING,
     .offset = offsetof(sc_opts, expect_bw),
     .arg_name = "MBPS|PCT%",
     .help = "a floor: pairs below this bandwidth are flagged, in MB/s or in % of the link "
             "rate (the slowest node's)"},
    {.long_name = "link-gbps",
     .type = MG_OPT_DOUBLE,
     .offset = offsetof(sc_opts, link_gbps),
     .arg_name = "G",
     .min = 0,
     .max = 1e6,
     .help = "the link rate in Gbit/s (default: each node's, from sysfs: the device MPI is "
             "steered to, else the fastest active one)"},
    {.long_name = "expect-lat",
     .type = MG_OPT_STRING,
     .offset = offsetof(sc_opts, expect_lat),
     .arg_name = "US",
     .help = "a ceiling: pairs above this latency (us) are flagged"},
    {.long_name = "format",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(sc_opts, format),
     .arg_name = "table|json",
     .choices = format_names,
     .def = "table",
     .help = "output format (json: JSON Lines, doc/screen.md)"},
    {.short_name = 'o',
     .long_name = "output",
     .type = MG_OPT_STRING,
     .offset = offsetof(sc_opts, output),
     .arg_name = "FILE",
     .help = "write the output to FILE (complete, or not at all)"},
    {.short_name = 'h',
     .long_name = "help",
     .type = MG_OPT_FLAG,
     .offset = offsetof(sc_opts, help),
     .help = "this help"},
    {.long_name = "version",
     .type = MG_OPT_FLAG,
     .offset = offsetof(sc_opts, version),
     .help = "the version"},
    {.type = MG_OPT_END}};

static void usage(FILE *f, const mg_opt_table *t)
{
    fprintf(f,
            "usage: mpirun [...] mpigauge_screen [options]\n"
            "  latency and bandwidth between every pair of nodes (or ranks) in the rounds of\n"
            "  a round-robin tournament; names the slow nodes and links (doc/screen.md)\n"
            "exit status: 0 nothing found; 3 something named; 4 inconclusive; 2 usage; 99 MPI\n\n");
    mg_opts_help(f, t, 1);
}

/* Rank 0 says msg (with the program's name); every rank returns code. */
static int refuse(const sc_run *s, int code, const char *msg)
{
    if (s->rank == 0)
        fprintf(stderr, "mpigauge_screen: error: %s\n", msg);
    return code;
}

/* Every unit's link rate: its own node's (mg_link_of_node), or --link-gbps. */
static void gather_links(sc_run *s)
{
    mg_link *all = mg_mpi_gather_links(MPI_COMM_WORLD);
    s->link = calloc((size_t)s->nunits, sizeof *s->link);
    if (!s->link)
        MG_MPI_CHECK(MPI_ERR_NO_MEM);
    for (int u = 0; u < s->nunits; ++u) {
        s->link[u] = all[s->unit_rank[u]];
        if (s->o.link_gbps > 0) {
            snprintf(s->link[u].device, sizeof s->link[u].device, "--link-gbps");
            s->link[u].gbps = s->o.link_gbps;
        }
    }
    free(all);
}

/* One rule for both floors: a finite number above 0 (at most 1e9; a share
 * of the link rate at most 100%, where unit is NULL). *v, *pct; 0, or -1
 * with the reason in msg. */
static int floor_number(const char *opt, const char *t, const char *unit, double *v, int *pct,
                        char *msg, size_t len)
{
    char *end;
    *v = strtod(t, &end);
    *pct = unit == NULL && strcmp(end, "%") == 0;
    if (end == t || (*end != '\0' && !*pct) || !isfinite(*v) || !(*v > 0) || *v > 1e9 ||
        (*pct && *v > 100)) {
        snprintf(msg, len, "%s %.60s: a floor is a finite number above 0: %s", opt, t,
                 unit ? unit : "a bandwidth in MB/s (900) or a share of the link rate (80%)");
        return -1;
    }
    return 0;
}

/* --expect-lat in us; --expect-bw in MB/s, or a share of the slowest
 * unit's link rate. 0, or -1 with the reason in msg. */
static int floors(sc_run *s, char *msg, size_t len)
{
    const char *t = s->o.expect_bw;
    double v, slowest = 0;
    int pct;
    if (s->o.expect_lat && floor_number("--expect-lat", s->o.expect_lat, "a latency in us (5)",
                                        &s->o.expect[SC_LAT], &pct, msg, len) != 0)
        return -1;
    if (t == NULL)
        return 0;
    if (floor_number("--expect-bw", t, NULL, &v, &pct, msg, len) != 0)
        return -1;
    if (!pct) {
        s->o.expect[SC_BW] = v;
        return 0;
    }
    int across = 0;
    for (int u = 0; u < s->nunits; ++u) {
        if (u == 0 || s->link[u].gbps < slowest)
            slowest = s->link[u].gbps;
        across |= strcmp(s->host[u], s->host[0]) != 0;
    }
    if (!across) {
        snprintf(msg, len,
                 "--expect-bw %.60s: every pair is within one node, where no link "
                 "rate applies; give the floor in MB/s",
                 t);
        return -1;
    }
    if (!(slowest > 0)) {
        snprintf(msg, len,
                 "--expect-bw %.60s: the link rate of a node is not known (sysfs); "
                 "give it with --link-gbps, or the floor in MB/s",
                 t);
        return -1;
    }
    s->o.expect[SC_BW] = v / 100 * slowest * 125.0; /* Gbit/s -> MB/s */
    return 0;
}

/* The most ranks any host has, of the hosts all[0..nranks). */
static int ranks_per_host_max(char (*all)[SC_HOST_LEN], int nranks)
{
    int most = 0;
    for (int r = 0; r < nranks; ++r) {
        int n = 0, first = 1;
        for (int q = 0; q < nranks; ++q) {
            n += strcmp(all[q], all[r]) == 0;
            first &= q >= r || strcmp(all[q], all[r]) != 0;
        }
        if (first && n > most)
            most = n;
    }
    return most;
}

/* Every rank's package (--unit socket), else -1s; rank 0 says which ranks
 * are not bound within one package. */
static int *gather_packages(const sc_run *s)
{
    int *pkg = malloc((size_t)s->nranks * sizeof *pkg), mine = -1, loose = 0;
    if (!pkg)
        MG_MPI_CHECK(MPI_ERR_NO_MEM);
    if (s->o.unit == SC_UNIT_SOCKET)
        mine = mg_binding_package(NULL);
    MG_MPI_CHECK(MPI_Allgather(&mine, 1, MPI_INT, pkg, 1, MPI_INT, MPI_COMM_WORLD));
    for (int r = 0; r < s->nranks; ++r)
        loose += pkg[r] < 0;
    if (s->o.unit == SC_UNIT_SOCKET && loose > 0 && s->rank == 0)
        fprintf(stderr,
                "mpigauge_screen: %d of %d ranks are not bound within one socket and wait "
                "idle (bind them: mpirun --bind-to core, srun --cpu-bind=cores)\n",
                loose, s->nranks);
    return pkg;
}

/* Hosts of every rank; the units (the lowest rank of each node, or of each
 * node's socket, or every rank), their ranks, hosts and packages; this
 * rank's unit. */
static int find_units(sc_run *s)
{
    char(*all)[SC_HOST_LEN] = calloc((size_t)s->nranks, SC_HOST_LEN);
    char name[MPI_MAX_PROCESSOR_NAME] = "";
    int len = 0;
    s->unit_rank = calloc((size_t)s->nranks, sizeof(int));
    s->package = calloc((size_t)s->nranks, sizeof(int));
    s->host = calloc((size_t)s->nranks, SC_HOST_LEN);
    if (!all || !s->unit_rank || !s->package || !s->host)
        MG_MPI_CHECK(MPI_ERR_NO_MEM);
    MG_MPI_CHECK(MPI_Get_processor_name(name, &len));
    memcpy(all[s->rank], name, sizeof name);
    MG_MPI_CHECK(MPI_Allgather(MPI_IN_PLACE, SC_HOST_LEN, MPI_CHAR, all, SC_HOST_LEN, MPI_CHAR,
                               MPI_COMM_WORLD));
    int *pkg = gather_packages(s);
    s->ranks_per_node_max = ranks_per_host_max(all, s->nranks);
    s->nunits = 0;
    s->unit = -1;
    for (int r = 0; r < s->nranks; ++r) {
        int u = 0;
        if (s->o.unit == SC_UNIT_SOCKET && pkg[r] < 0)
            continue;
        while (s->o.unit != SC_UNIT_RANK && u < s->nunits &&
               (strcmp(s->host[u], all[r]) != 0 || s->package[u] != pkg[r]))
            ++u;
        if (s->o.unit == SC_UNIT_RANK || u == s->nunits) {
            u = s->nunits++;
            s->unit_rank[u] = r;
            s->package[u] = pkg[r];
            memcpy(s->host[u], all[r], SC_HOST_LEN);
        }
        if (r == s->rank && s->unit_rank[u] == r)
            s->unit = u;
    }
    gather_links(s);
    free(all);
    free(pkg);
    return 0;
}

/* The options on every rank alike; 0, or an exit code (help, version: 0
 * with *done set). */
static int parse(sc_run *s, int argc, char **argv, int *done)
{
    char err[256];
    mg_opt_table t = {.opts = opts, .base = &s->o, .group = "screen"};
    *done = 0;
    if (mg_opts_defaults(&t, 1, err, sizeof err) != 0)
        return refuse(s, MG_EXIT_INTERNAL, err);
    if (mg_opts_parse(&t, 1, argc, argv, err, sizeof err) != 0) {
        if (s->rank == 0)
            fprintf(stderr, "mpigauge_screen: error: %s (--help)\n", err);
        return MG_EXIT_USAGE;
    }
    if (s->o.help || s->o.version) {
        if (s->rank == 0 && s->o.help)
            usage(stdout, &t);
        else if (s->rank == 0)
            printf("mpigauge_screen %s\n", MG_VERSION_STRING);
        *done = 1;
    }
    return 0;
}

/* The plan that needs the units: repetitions, the gather's size. */
static int plan(sc_run *s)
{
    char msg[320];
    const long np = mg_screen_npairs(s->nunits);
    if (s->nunits < 2) {
        snprintf(msg, sizeof msg,
                 "%d %s: the screen needs two at least (--unit rank screens the ranks of one "
                 "node; more nodes: mpirun's host list, srun -N)",
                 s->nunits, unit_names[s->o.unit]);
        return refuse(s, MG_EXIT_USAGE, msg);
    }
    if (floors(s, msg, sizeof msg) != 0)
        return refuse(s, MG_EXIT_USAGE, msg);
    s->min_reps = mg_screen_min_reps(np, s->o.alpha);
    s->reps_planned = s->o.reps > 0 ? (int)s->o.reps : s->min_reps + 5 > 12 ? s->min_reps + 5 : 12;
    if (16.0 * s->nunits * (double)s->nunits * s->reps_planned > SC_GATHER_MAX) {
        snprintf(msg, sizeof msg,
                 "%d units x %d repetitions: rank 0 would hold %.1f GiB of figures (at most 1); "
                 "fewer repetitions (--reps) or units",
                 s->nunits, s->reps_planned,
                 16.0 * s->nunits * s->nunits * s->reps_planned / (1u << 30));
        return refuse(s, MG_EXIT_USAGE, msg);
    }
    return 0;
}

/* Every rank: the idle ones from the start, the units once done; waits
 * without spinning (an idle rank shares its node with a unit). */
static void wait_all(void)
{
    MPI_Request r;
    int done = 0;
    const struct timespec ms = {0, 1000000};
    MG_MPI_CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &r));
    for (;;) {
        MG_MPI_CHECK(MPI_Test(&r, &done, MPI_STATUS_IGNORE));
        if (done)
            break;
        nanosleep(&ms, NULL);
    }
}

/* The units' buffers and figures (NaN: not measured). */
static void unit_setup(sc_run *s)
{
    const size_t cells = (size_t)s->nunits * (size_t)s->reps_planned;
    const size_t bytes = (size_t)s->o.window * (size_t)s->o.bw_bytes;
    s->lat = malloc(cells * sizeof *s->lat);
    s->bw_out = malloc(cells * sizeof *s->bw_out);
    s->sbuf = calloc(1, bytes > s->o.lat_bytes ? bytes : s->o.lat_bytes + 1);
    s->rbuf = calloc(1, bytes > s->o.lat_bytes ? bytes : s->o.lat_bytes + 1);
    if (!s->lat || !s->bw_out || !s->sbuf || !s->rbuf)
        MG_MPI_CHECK(MPI_ERR_NO_MEM);
    for (size_t k = 0; k < cells; ++k)
        s->lat[k] = s->bw_out[k] = NAN;
}

/* Rank 0: the verdict of every metric screened. 0 or -1 (memory). */
static int analyse(sc_run *s, sc_verdict *v)
{
    const long np = mg_screen_npairs(s->nunits);
    for (int m = 0; m < SC_NMETRICS; ++m) {
        v[m].on = sc_wants(&s->o, m);
        if (!v[m].on)
            continue;
        v[m].cfg = (mg_screen_cfg){.nunits = s->nunits,
                                   .reps = s->reps,
                                   .higher_better = m == SC_BW,
                                   .threshold = s->o.threshold,
                                   .alpha = s->o.alpha,
                                   .expect = s->o.expect[m]};
        v[m].pairs = calloc((size_t)np, sizeof *v[m].pairs);
        v[m].flagged = calloc((size_t)s->nunits, sizeof(int));
        v[m].named = calloc((size_t)s->nunits, sizeof(int));
        if (!v[m].pairs || !v[m].flagged || !v[m].named ||
            mg_screen_analyse(&v[m].cfg, s->x[m], v[m].pairs, v[m].flagged, v[m].named, NULL,
                              &v[m].sum) != 0)
            return -1;
    }
    return 0;
}

/* Rank 0 writes, to -o FILE (complete or not at all) or standard output;
 * collective over g when there is a file. The exit code. */
static int output(sc_run *s, const sc_verdict *v, const mg_group *g, int rc)
{
    char err[MG_OUT_ERRLEN] = "";
    mg_out_file out = {0};
    if (s->o.output == NULL) {
        if (s->rank == 0) {
            sc_write(s, v, stdout);
            fflush(stdout);
        }
        return rc;
    }
    if (!mg_out_open(&out, s->o.output, g, err))
        return refuse(s, MG_EXIT_USAGE, err);
    if (s->rank == 0) {
        sc_write(s, v, out.f);
        if (mg_out_commit(&out, s->o.output) != 0) {
            fprintf(stderr, "mpigauge_screen: error: could not complete '%s'\n", s->o.output);
            rc = MG_EXIT_FAIL;
        }
    }
    return rc;
}

/* The screen after the options: every rank's exit code. */
static int screen(sc_run *s, const mg_group *g)
{
    char err[MG_OUT_ERRLEN] = "";
    sc_verdict v[SC_NMETRICS] = {0};
    int rc = plan(s);
    if (rc != 0)
        return rc;
    if (s->o.output && !mg_out_check(s->o.output, g, err))
        return refuse(s, MG_EXIT_USAGE, err);
    MG_MPI_CHECK(MPI_Comm_split(MPI_COMM_WORLD, s->unit >= 0 ? 0 : MPI_UNDEFINED,
                                s->unit >= 0 ? s->unit : 0, &s->ucomm));
    if (s->unit >= 0) {
        unit_setup(s);
        sc_measure(s);
        rc = s->reps > 0 && sc_gather(s) != 0 ? MG_EXIT_INTERNAL : 0;
        MG_MPI_CHECK(MPI_Comm_free(&s->ucomm));
    }
    wait_all();
    if (s->rank == 0 && rc == 0 && s->reps == 0) {
        fprintf(stderr,
                "mpigauge_screen: error: the time budget (%g s) leaves no repetition: one "
                "takes %.2f s (and one more is the warm-up)\n",
                s->o.budget_s, s->rep_s);
        rc = SC_EXIT_UNCLEAR;
    } else if (s->rank == 0 && rc == 0) {
        rc = analyse(s, v) == 0 ? sc_exit_code(s, v) : MG_EXIT_INTERNAL;
    }
    MG_MPI_CHECK(MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (rc == MG_EXIT_OK || rc == SC_EXIT_FOUND || (rc == SC_EXIT_UNCLEAR && s->reps > 0))
        rc = output(s, v, g, rc);
    MG_MPI_CHECK(MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD));
    for (int m = 0; m < SC_NMETRICS; ++m) {
        free(v[m].pairs);
        free(v[m].flagged);
        free(v[m].named);
    }
    return rc;
}

static void release(sc_run *s)
{
    free(s->unit_rank);
    free(s->package);
    free(s->host);
    free(s->link);
    free(s->lat);
    free(s->bw_out);
    free(s->sbuf);
    free(s->rbuf);
    free(s->x[SC_LAT]);
    free(s->x[SC_BW]);
    free(s->bw_dir);
}

/* The library's first line. MPI_Get_library_version writes up to
 * MPI_MAX_LIBRARY_VERSION_STRING bytes (8,192 in MPICH, whose string runs
 * past 256 with its configure options): never straight into a short field. */
static void library_line(char *dst, size_t size)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MG_MPI_CHECK(MPI_Get_library_version(lib, &len));
    size_t n = strcspn(lib, "\n");
    if (n >= size)
        n = size - 1;
    memcpy(dst, lib, n);
    dst[n] = '\0';
}

int main(int argc, char **argv)
{
    sc_run s = {0};
    mg_group world_group;
    MPI_Comm world = MPI_COMM_WORLD;
    int rc, done = 0;
    mg_out_guard_start(mg_opts_last_value(argc, argv, 'o', "output"));
    MG_MPI_CHECK(MPI_Init(&argc, &argv));
    MG_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &s.rank));
    MG_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &s.nranks));
    mg_group_mpi(&world_group, &world);
    library_line(s.library, sizeof s.library);
    rc = parse(&s, argc, argv, &done);
    if (rc == 0 && !done) {
        find_units(&s);
        rc = screen(&s, &world_group);
    }
    release(&s);
    mg_out_guard_stop();
    fflush(stdout);
    MG_MPI_CHECK(MPI_Finalize());
    return rc;
}
