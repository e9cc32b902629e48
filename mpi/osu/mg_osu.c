/* SPDX-License-Identifier: BSD-3-Clause */
/* The OSU drop-in's command lines (mg_osu.h; the names are in
 * mg_osu_names.c). OSU's facts here: the option letters of each kind, the
 * default sizes (point-to-point and one-sided 1 B to 4 MiB (OSU 7.4 skips
 * the size 0), collectives 1 B to 1 MiB), iterations and warm-up (latency
 * 10000/100, bandwidth 100/10, collectives 1000/100, and above 8 KiB
 * 1000/10, 20/2, 100/10), the window of 64, the element types of -T, the
 * layouts of -D and the tail of -z. */
#include "mg_osu.h"

#include "mg_text.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Per kind: OSU's option letters (getopt's syntax; c takes an optional
 * attached argument), sizes, iterations and warm-up at and below 8 KiB and
 * above it. */
typedef struct {
    const char *letters;
    const char *min, *max;
    const char *iters, *warm, *iters_large, *warm_large;
} kind_facts;

/* The rows two kinds share (a persistent form takes its plain form's). */
#define F_LAT                                                                                      \
    {                                                                                              \
        "hvm:x:i:b:c::u:G:D:P:T:Iz::", "1", "4194304", "10000", "100", "1000", "10"                \
    }
#define F_BW                                                                                       \
    {                                                                                              \
        "hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::", "1", "4194304", "100", "10", "20", "2"                  \
    }
#define F_COLL(letters)                                                                            \
    {                                                                                              \
        letters, "1", "1048576", "1000", "100", "100", "10"                                        \
    }

static const kind_facts facts[] = {
    [MG_OSU_LAT] = F_LAT,
    [MG_OSU_LAT_P] = F_LAT,
    [MG_OSU_MT] = {"hvm:x:i:t:c::u:G:D:T:Iz::", "1", "4194304", "10000", "100", "1000", "10"},
    [MG_OSU_BW] = F_BW,
    [MG_OSU_BW_P] = F_BW,
    [MG_OSU_FAN_IN] = F_BW,
    [MG_OSU_FAN_OUT] = F_BW,
    [MG_OSU_MBW] = {"p:W:R:x:i:m:Vhvb:c::u:G:D:P:T:Iz::", "1", "4194304", "100", "10", "20", "2"},
    [MG_OSU_COLL] = F_COLL("hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::"),
    [MG_OSU_ROOTED] = F_COLL("hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::k:"),
    [MG_OSU_PERS] = F_COLL("hvfm:i:x:M:a:c::u:G:D:P:T:Ilz::k:"),
    [MG_OSU_NBC] = F_COLL("hvfm:i:x:M:t:a:c::u:G:D:P:T:Ilz::k:"),
    [MG_OSU_BARRIER] = {"hvfm:i:x:M:a:u:G:P:Iz::", NULL, NULL, "1000", "100", "1000", "100"},
    [MG_OSU_RMA_LAT] = {"w:s:hvm:x:i:G:Iz::P:cT:", "1", "4194304", "10000", "100", "1000", "10"},
    [MG_OSU_RMA_BW] = {"w:s:hvm:x:i:G:Iz::W:P:cT:", "1", "4194304", "100", "10", "20", "2"},
    [MG_OSU_INIT] = {"hvI", NULL, NULL, NULL, NULL, NULL, NULL},
    [MG_OSU_HELLO] = {"hvI", NULL, NULL, NULL, NULL, NULL, NULL},
};

/* OSU's command line into mpigauge's: getopt's rules with OSU's leading '+'
 * (the first argument that is no option ends the options), then at most
 * two buffer locations. mpigauge's own long options (--format json,
 * --output FILE, ...) pass through. */
/* What the letters of a command line set. */
typedef struct {
    const mg_osu_entry *e;
    const char *min, *max, *iters, *warm;
    char min_buf[32], max_buf[32]; /* -m's, as given */
    int help;                      /* -h or -v: only that is passed on */
    int full;                      /* -f */
    int type;                      /* -T: an index into types[] (0: MPI_CHAR, OSU's default) */
    int ddt;                       /* -D: 0 none, 1 cont, 2 vect */
    long stride, block;            /* -D vect:STRIDE:BLOCK, in bytes */
    int threads, window, rate;     /* -t (latency_mt), -W and -R (mbw_mr) as OSU takes them */
    int win_given, sync_given;     /* -w, -s */
    mg_argv opt;                   /* translated options */
    char *err;
    size_t errlen;
} state;

static int fail(state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, s->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* A whole number from lo to hi. */
static int in_range(const char *v, long lo, long hi)
{
    char *end;
    long n;
    errno = 0;
    n = strtol(v, &end, 10);
    return *v && *end == '\0' && errno == 0 && n >= lo && n <= hi;
}

/* A size in bytes from lo. */
static int is_count(const char *v, long lo) { return in_range(v, lo, LONG_MAX); }

/* -m MAX, MIN:MAX, :MAX or MIN: (OSU: MIN > 0, MAX >= 0, bytes). */
static int sizes(state *s, const char *v)
{
    const char *colon = strchr(v, ':');
    if (colon == NULL) {
        if (!is_count(v, 0))
            return fail(s, "-m %s: Invalid Message Size", v);
        snprintf(s->max_buf, sizeof s->max_buf, "%s", v);
        s->max = s->max_buf;
        return 0;
    }
    if (strchr(colon + 1, ':') != NULL || (colon == v && colon[1] == '\0'))
        return fail(s, "-m %s: Invalid Message Size", v);
    if (colon > v) {
        snprintf(s->min_buf, sizeof s->min_buf, "%.*s", (int)(colon - v), v);
        if (!is_count(s->min_buf, 1))
            return fail(s, "-m %s: Invalid Message Size (the smallest size is 1 or more)", v);
        s->min = s->min_buf;
    }
    if (colon[1] != '\0') {
        if (!is_count(colon + 1, 0))
            return fail(s, "-m %s: Invalid Message Size", v);
        snprintf(s->max_buf, sizeof s->max_buf, "%s", colon + 1);
        s->max = s->max_buf;
    }
    return 0;
}

/* The features OSU has and mpigauge does not take under its names. */
static int refused(state *s, int c)
{
    static const char *const what[][2] = {
        {"G", "graphs (-G)"},    {"P", "PAPI counters (-P)"},     {"I", "MPI sessions (-I)"},
        {"T", "datatypes (-T)"}, {"p", "a number of pairs (-p)"}, {"V", "a varying window (-V)"}};
    for (size_t i = 0; i < sizeof what / sizeof what[0]; ++i)
        if (what[i][0][0] == c)
            return fail(s,
                        "%s: not taken under the OSU names; run mpigauge_%s with its own options "
                        "(doc/osu.md)",
                        what[i][1], s->e->bench);
    return 0;
}

static int root(state *s, const char *v)
{
    if (strcmp(v, "rotate") == 0) {
        mg_argv_push(&s->opt, "--root");
        mg_argv_push(&s->opt, "rotate");
        return 0;
    }
    if (strncmp(v, "fixed:", 6) != 0 || !is_count(v + 6, 0))
        return fail(s, "-k %s: Invalid root rank rotate type. Valid types [fixed:N, rotate]", v);
    mg_argv_push(&s->opt, "--root");
    mg_argv_push(&s->opt, v + 6);
    return 0;
}

static void pass(state *s, const char *opt, const char *v)
{
    mg_argv_push(&s->opt, opt);
    if (v)
        mg_argv_push(&s->opt, v);
}

/* osu_latency_mt -t N or N:N (mpigauge_latency_mt runs N on both ranks). */
static int threads(state *s, const char *v)
{
    char n[16];
    const char *colon = strchr(v, ':');
    const size_t len = colon ? (size_t)(colon - v) : strlen(v);
    if (s->e->kind == MG_OSU_NBC) { /* OSU's probes: MPI_Test calls in the computation */
        if (!is_count(v, 0))
            return fail(s, "-t %s: Invalid Number of Probes", v);
        pass(s, "-t", v);
        return 0;
    }
    if (s->e->kind != MG_OSU_MT)
        return fail(s, "-t: not taken by %s under the OSU names", s->e->osu);
    snprintf(n, sizeof n, "%.*s", (int)len, v);
    if (len == 0 || len >= sizeof n || !is_count(n, 1) || (colon && strcmp(colon + 1, n) != 0))
        return fail(s, "-t %s: mpigauge_latency_mt runs as many threads on both ranks (-t N)", v);
    s->threads = atoi(n);
    pass(s, "-t", n);
    return 0;
}

/* OSU's -T element types: OSU's name, mpigauge's, the size in bytes. */
static const struct {
    const char *osu, *mg, *mpi;
    int size;
} types[] = {{"mpi_char", "char", "MPI_CHAR", 1},
             {"mpi_int", "int", "MPI_INT", 4},
             {"mpi_float", "float", "MPI_FLOAT", 4}};

/* -T mpi_char|mpi_int|mpi_float (OSU: any case). The collectives and the
 * one-sided accumulates and atomics take it as their element; latency and
 * bandwidth measure it beside their bytes (its variant is kept). */
static int element(state *s, const char *v)
{
    mg_osu_kind k = s->e->kind;
    if (k != MG_OSU_COLL && k != MG_OSU_ROOTED && k != MG_OSU_PERS && k != MG_OSU_NBC &&
        k != MG_OSU_LAT && k != MG_OSU_BW && !mg_osu_rma_typed(s->e))
        return refused(s, 'T');
    if (strcasecmp(v, "all") == 0)
        return fail(s, "-T all: mpigauge prints one table per launch under the OSU names; "
                       "launch once per type (-T mpi_char, mpi_int, mpi_float)");
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (strcasecmp(v, types[i].osu) == 0) {
            s->type = (int)i + 1;
            return 0;
        }
    return fail(s, "-T %s: Invalid data type. Valid types [mpi_char, mpi_int, mpi_float, all]", v);
}

/* Where OSU's -D meets mpigauge's: latency, bandwidth and the blocking
 * collectives that move blocks. */
static int takes_layout(const mg_osu_entry *e)
{
    static const char *const benches[] = {"latency",
                                          "bw",
                                          "bibw",
                                          "bcast",
                                          "scatter",
                                          "gather",
                                          "allgather",
                                          "alltoall",
                                          "neighbor_allgather",
                                          "neighbor_alltoall"};
    if (e->kind != MG_OSU_LAT && e->kind != MG_OSU_BW && e->kind != MG_OSU_COLL &&
        e->kind != MG_OSU_ROOTED)
        return 0;
    for (size_t i = 0; i < sizeof benches / sizeof benches[0]; ++i)
        if (strcmp(e->bench, benches[i]) == 0)
            return 1;
    return 0;
}

/* -D cont|vect:STRIDE:BLOCK (OSU's --ddt, any case): each message one
 * derived type of MPI_CHAR over OSU's size, contiguous or BLOCK bytes of
 * every STRIDE. indx:FILE (displacements from a file) is refused. */
static int layout(state *s, const char *v)
{
    const char *bench = s->e->bench, *colon = strchr(v, ':');
    char *end = NULL;
    if (!takes_layout(s->e))
        return fail(s,
                    "derived datatypes (-D): under the OSU names on osu_latency, osu_bw, "
                    "osu_bibw and the blocking bcast, scatter, gather, allgather, alltoall and "
                    "neighbourhood allgather and alltoall; run mpigauge_%s with its own options "
                    "(doc/osu.md)",
                    bench);
    if (strcasecmp(v, "cont") == 0) {
        s->ddt = 1;
        return 0;
    }
    if (strncasecmp(v, "indx", 4) == 0 && (v[4] == '\0' || v[4] == ':'))
        return fail(s,
                    "-D %s: indexed layouts read from a file are not taken under the OSU names; "
                    "mpigauge_%s -D indexed measures mpigauge's own (doc/osu.md)",
                    v, bench);
    if (strncasecmp(v, "vect", 4) != 0 || (v[4] != '\0' && v[4] != ':'))
        return fail(s, "-D %s: Invalid ddt type. Valid ddt types [cont, vect, indx]", v);
    if (colon != NULL) {
        s->stride = strtol(colon + 1, &end, 10);
        s->block = *end == ':' ? strtol(end + 1, &end, 10) : 0;
    }
    if (colon == NULL || *end != '\0' || s->stride < 1 || s->block < 1 || s->block > s->stride)
        return fail(s, "-D %s: a vector is vect:STRIDE:BLOCK, with 1 <= BLOCK <= STRIDE (bytes)",
                    v);
    s->ddt = 2;
    return 0;
}

/* -D's rows, layout and kept variant; MPI_CHAR only. */
static int ddt_setup(state *s, mg_osu *o)
{
    const kind_facts *k = &facts[s->e->kind];
    if (s->type > 1)
        return fail(s, "-D with -T %s: derived datatypes of MPI_CHAR only under the OSU names",
                    types[s->type - 1].osu);
    o->ddt_rows = mg_osu_ddt_rows(
        strtoull(s->min ? s->min : k->min, NULL, 10), strtoull(s->max ? s->max : k->max, NULL, 10),
        s->ddt == 2 ? s->stride : 0, s->block, o->ddt_size, o->ddt_sent, MG_OSU_DDT_MAX);
    if (o->ddt_rows == 0)
        return fail(s, "-D vect:%ld:%ld: no size of -m holds one stride (%ld bytes)", s->stride,
                    s->block, s->stride);
    if (s->ddt == 1)
        snprintf(o->layout, sizeof o->layout, "contiguous");
    else
        snprintf(o->layout, sizeof o->layout, "vector:%ld:%ld", s->block, s->stride);
    snprintf(o->keep, sizeof o->keep, "datatype=%s/char", o->layout);
    return 0;
}

/* One letter with its argument (NULL: none). */
static int letter(state *s, int c, const char *v)
{
    mg_osu_kind k = s->e->kind;
    switch (c) {
    case 'h':
        s->help = 1;
        pass(s, "-h", NULL);
        return 0;
    case 'v':
        s->help = 1;
        pass(s, "-v", NULL);
        return 0;
    case 'm': /* checked as OSU does everywhere; without sizes (barrier, the
               * one-element atomics) a good one changes nothing */
        if (k == MG_OSU_BARRIER || mg_osu_one_element(s->e)) {
            state probe = *s;
            return sizes(&probe, v) == 0 ? 0 : -1;
        }
        return sizes(s, v);
    case 'x':
        if (!in_range(v, 0, INT_MAX)) /* OSU reads its counts as int */
            return fail(s, "-x %s: Invalid Number of Warmup Iterations", v);
        s->warm = v;
        return 0;
    case 'i':
        if (!in_range(v, 1, INT_MAX))
            return fail(s, "-i %s: Invalid Number of Iterations", v);
        s->iters = v;
        return 0;
    case 'c': pass(s, "-c", NULL); return 0;
    case 'W':
        if (s->e->kind == MG_OSU_MBW && is_count(v, 1))
            s->window = atoi(v);
        pass(s, "-W", v);
        return 0;
    case 'w':
    case 's':
        s->win_given |= c == 'w';
        s->sync_given |= c == 's';
        pass(s, (const char[]){'-', (char)c, '\0'}, v);
        return 0;
    case 'M': pass(s, "-M", v); return 0;
    case 'b':
        if (k == MG_OSU_BW || k == MG_OSU_MBW || k == MG_OSU_FAN_IN || k == MG_OSU_FAN_OUT)
            pass(s, "-b", v);
        return 0;
    case 't': return threads(s, v);
    case 'f': s->full = 1; return 0;
    case 'k': return root(s, v);
    case 'l': pass(s, "--in-place", NULL); return 0;
    case 'z': pass(s, "-z", v ? v : "50,90,99"); return 0; /* OSU's default tail */
    case 'T': return element(s, v);
    case 'D': return layout(s, v);
    case 'R': /* osu_mbw_mr's Messages/s column: 0 or 1, as OSU */
        if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
            return fail(s, "-R %s: Invalid print rate (0 or 1)", v);
        s->rate = v[0] == '1';
        return 0;
    case 'a': /* a device array's size: nothing to do */
    case 'u': /* validation warm-up iterations */ return 0;
    default: return refused(s, c);
    }
}

/* OSU's long names that mean a letter here, or NULL. */
static const char *long_letter(const char *name, size_t len)
{
    static const char *const names[][2] = {
        {"message-size", "m"}, {"iterations", "i"},  {"warmup", "x"},    {"validation", "c"},
        {"full", "f"},         {"window-size", "W"}, {"mem-limit", "M"}, {"help", "h"},
        {"version", "v"},      {"type", "T"},        {"ddt", "D"},       {"tail-lat", "z"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (strlen(names[i][0]) == len && strncmp(names[i][0], name, len) == 0)
            return names[i][1];
    return NULL;
}

static int is_location(const char *a)
{
    return strcmp(a, "H") == 0 || strcmp(a, "D") == 0 || strcmp(a, "M") == 0 ||
           strcmp(a, "MH") == 0 || strcmp(a, "MD") == 0;
}

/* --NAME[=V] or --NAME V: OSU's long names as letters, the others passed on
 * (a next word that is no option and no buffer location is its value). */
static int long_option(state *s, int argc, char **argv, int *i)
{
    const char *a = argv[*i] + 2, *eq = strchr(a, '=');
    const size_t len = eq ? (size_t)(eq - a) : strlen(a);
    const char *l = long_letter(a, len);
    if (l) {
        const char *p = strchr(facts[s->e->kind].letters, l[0]);
        const char *v = eq ? eq + 1 : NULL;
        if (p && p[1] == ':' && p[2] != ':' && v == NULL) {
            if (*i + 1 >= argc)
                return fail(s, "--%.*s needs a value", (int)len, a);
            v = argv[++*i];
        }
        return p ? letter(s, l[0], v) : fail(s, "invalid option --%.*s", (int)len, a);
    }
    mg_argv_push(&s->opt, argv[*i]);
    if (!eq && *i + 1 < argc && argv[*i + 1][0] != '-' && !is_location(argv[*i + 1]))
        mg_argv_push(&s->opt, argv[++*i]);
    return 0;
}

/* mpigauge's -o FILE (or -oFILE) under an OSU name, where no OSU program
 * has a letter o: passed on as it is. */
static int own_output(state *s, int argc, char **argv, int *i)
{
    if (argv[*i][2] == '\0' && *i + 1 >= argc)
        return fail(s, "option requires an argument -- 'o'");
    mg_argv_push(&s->opt, argv[*i]);
    if (argv[*i][2] == '\0')
        mg_argv_push(&s->opt, argv[++*i]);
    return 0;
}

/* One cluster of letters ("-c", "-m8", "-cf"); *i moves past a separate
 * argument. */
static int letters(state *s, int argc, char **argv, int *i)
{
    for (const char *p = argv[*i] + 1; *p; ++p) {
        const char *spec = strchr(facts[s->e->kind].letters, *p);
        const char *v = NULL;
        if (*p == 'o' && spec == NULL && p == argv[*i] + 1) /* mpigauge's -o FILE, -oFILE */
            return own_output(s, argc, argv, i);
        if (*p == ':' || spec == NULL)
            return fail(s, "invalid option -- '%c'", *p);
        if (spec[1] == ':' && spec[2] == ':') /* an optional argument: attached */
            return letter(s, *p, p[1] ? p + 1 : NULL);
        if (spec[1] == ':') {
            if (p[1])
                v = p + 1;
            else if (*i + 1 < argc)
                v = argv[++*i];
            else
                return fail(s, "option requires an argument -- '%c'", *p);
            return letter(s, *p, v);
        }
        if (letter(s, *p, NULL) != 0)
            return -1;
    }
    return 0;
}

/* OSU's own window and synchronisation where they are not mpigauge's
 * (MPI_Win_allocate, MPI_Win_flush): osu_get_acc_latency leaves both at
 * their first values (MPI_Win_create, lock/unlock), osu_put_bibw
 * synchronises with post/start/complete/wait. */
static void rma_defaults(const state *s, mg_argv *out)
{
    const int get_acc = strcmp(s->e->bench, "get_acc_latency") == 0;
    if (get_acc && !s->win_given) {
        mg_argv_push(out, "-w");
        mg_argv_push(out, "create");
    }
    if ((get_acc || strcmp(s->e->bench, "put_bibw") == 0) && !s->sync_given) {
        mg_argv_push(out, "-s");
        mg_argv_push(out, get_acc ? "lock" : "pscw");
    }
}

/* mpigauge's command line from what the letters set. */
static void assemble(state *s, const mg_osu *o, const char *argv0, int given_columns, mg_argv *out)
{
    const kind_facts *k = &facts[s->e->kind];
    mg_argv_push(out, argv0);
    if (!s->help) {
        if (!given_columns) {
            mg_argv_push(out, "--columns");
            mg_argv_push(out, "osu");
        }
        if (o->ddt_rows) { /* the bytes each of OSU's sizes carries */
            char list[MG_OSU_DDT_MAX * 22] = "";
            for (int r = 0; r < o->ddt_rows; ++r)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%llu", r ? "," : "",
                         o->ddt_sent[r]);
            mg_argv_push(out, "-m");
            mg_argv_push(out, list);
        } else if (k->max && !mg_osu_sizeless(s->e) && !mg_osu_one_element(s->e)) {
            char m[80], least[16];
            const char *min = s->min ? s->min : k->min;
            if (s->type && atol(min) < types[s->type - 1].size) { /* OSU skips sizes below one */
                snprintf(least, sizeof least, "%d", types[s->type - 1].size);
                min = least;
            }
            snprintf(m, sizeof m, "%s:%s", min, s->max ? s->max : k->max);
            mg_argv_push(out, "-m");
            mg_argv_push(out, m);
        }
        if (k->iters) {
            mg_argv_push(out, "-i");
            mg_argv_push(out, s->iters ? s->iters : k->iters);
            mg_argv_push(out, "--iterations-large");
            mg_argv_push(out, s->iters ? s->iters : k->iters_large);
            mg_argv_push(out, "-x");
            mg_argv_push(out, s->warm ? s->warm : k->warm);
            mg_argv_push(out, "--warmup-large");
            mg_argv_push(out, s->warm ? s->warm : k->warm_large);
        }
        if (s->e->kind == MG_OSU_LAT_P || s->e->kind == MG_OSU_BW_P)
            mg_argv_push(out, "--persistent");
        if (s->e->kind == MG_OSU_FAN_IN || s->e->kind == MG_OSU_FAN_OUT) {
            mg_argv_push(out,
                         "--hubs"); /* OSU's: rank 0's node the hubs, one node each of the others */
            mg_argv_push(out, "node");
            mg_argv_push(out, "--direction");
            mg_argv_push(out, s->e->kind == MG_OSU_FAN_IN ? "in" : "out");
        }
        if (((s->e->kind == MG_OSU_COLL || s->e->kind == MG_OSU_ROOTED ||
              s->e->kind == MG_OSU_NBC || s->e->kind == MG_OSU_PERS) &&
             !mg_osu_sizeless(s->e)) ||
            mg_osu_rma_typed(s->e)) {
            mg_argv_push(out, "-T"); /* OSU's default element: MPI_CHAR */
            mg_argv_push(out, types[s->type ? s->type - 1 : 0].mg);
        } else if (s->type && !o->layout[0]) {
            mg_argv_push(out, "-T");
            mg_argv_push(out, types[s->type - 1].mg);
        }
        if (o->layout[0]) {
            mg_argv_push(out, "-D");
            mg_argv_push(out, o->layout);
        }
        rma_defaults(s, out);
    }
    for (int j = 0; j < s->opt.n; ++j)
        mg_argv_push(out, s->opt.v[j]);
}

int mg_osu_translate(const mg_osu_entry *e, int argc, char **argv, mg_osu *o, char *err,
                     size_t errlen)
{
    state s = {.e = e, .err = err, .errlen = errlen, .threads = 1, .window = 64, .rate = 1};
    mg_argv out = {0};
    int i = 1, nloc = 0, rc = 0, columns = 0;

    memset(o, 0, sizeof *o);
    o->e = e;
    o->given_argc = argc;
    o->given_argv = argv;
    for (; i < argc && rc == 0; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            ++i;
            break;
        }
        if (a[0] != '-' || a[1] == '\0')
            break;
        if (strncmp(a, "--columns", 9) == 0)
            columns = 1;
        rc = a[1] == '-' ? long_option(&s, argc, argv, &i) : letters(&s, argc, argv, &i);
    }
    for (; i < argc && rc == 0; ++i) {
        if (!is_location(argv[i]) || ++nloc > 2) {
            rc = fail(&s,
                      nloc > 2 ? "more than two buffer locations ('%s')"
                               : "unexpected argument '%s' (buffer locations: H, D, MH, MD)",
                      argv[i]);
            break;
        }
        snprintf(o->buffers + strlen(o->buffers), sizeof o->buffers - strlen(o->buffers), "%s%s",
                 nloc > 1 ? " " : "", argv[i]);
        o->substituted |= strcmp(argv[i], "H") != 0;
    }
    o->full = s.full;
    o->threads = s.threads;
    o->window = s.window;
    o->rate = s.rate;
    o->mpi_type = types[s.type ? s.type - 1 : 0].mpi;
    if (s.type && (e->kind == MG_OSU_LAT || e->kind == MG_OSU_BW))
        snprintf(o->keep, sizeof o->keep, "datatype=%s", types[s.type - 1].mg);
    if (rc == 0 && s.type && s.max && atol(s.max) < types[s.type - 1].size)
        rc = fail(&s, "-m %s: no size holds one %s (%d bytes)", s.max, o->mpi_type,
                  types[s.type - 1].size);
    if (rc == 0 && s.ddt)
        rc = ddt_setup(&s, o);
    if (rc == 0) {
        assemble(&s, o, argv[0], columns, &out);
        if (s.opt.failed || out.failed)
            rc = fail(&s, "out of memory");
    }
    mg_argv_free(&s.opt);
    if (rc != 0) {
        mg_argv_free(&out);
        return -1;
    }
    o->argc = out.n;
    o->argv = out.v;
    return 0;
}

void mg_osu_free(mg_osu *o)
{
    mg_argv a = {o->argv, o->argc, o->argc, 0};
    mg_argv_free(&a);
    o->argv = NULL;
    o->argc = 0;
}
