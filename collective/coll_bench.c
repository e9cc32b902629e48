/* SPDX-License-Identifier: BSD-3-Clause */
/* The one descriptor of every collective program (mg_collective.h, coll_int.h): an op of the
 * table in one form, timed per call by the driver (MG_TIME_CALL: a barrier or
 * a start window before each call, the slowest rank per call).
 *
 * -m is the block size in bytes: the whole buffer of bcast, reduce,
 * allreduce, scan; the block per rank of scatter, gather, allgather,
 * alltoall, reduce_scatter(_block) (OSU's convention). Blocks hold whole
 * elements of -T. v-variants use unequal blocks (mg_coll_vcount). Non-blocking
 * and persistent forms have two variants: phase=pure (start + wait) and
 * phase=overlap (start, a calibrated computation as long as the pure median,
 * with -t N MPI_Test calls spread through it, wait); extras give the overlap.
 * Validation checks values: reductions against mg_red_expected, data
 * movement block by block against patterns of (source, destination).
 */
#include "coll_int.h"

#include "config.h"
#include "mg_exit.h"
#include "mg_pattern.h"
#include "mg_size.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const phases[] = {"pure", "overlap", NULL};

static const mg_opt opts[] = {
    {.long_name = "root",
     .type = MG_OPT_STRING,
     .offset = offsetof(coll_params, root_spec),
     .arg_name = "R|rotate",
     .help =
         "rooted operations: the root rank, or rotate (call i has root i mod P, IMB's root shift; "
         "default 0)"},
    {.short_name = 'T',
     .long_name = "type",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(coll_params, type),
     .arg_name = "char|int|float|double|long",
     .help = "element type (default char; reductions float)",
     .choices = mg_elem_type_names},
    {.long_name = "op",
     .type = MG_OPT_CHOICE,
     .offset = offsetof(coll_params, red),
     .arg_name = "sum|prod|max|min",
     .help = "reductions: the operation",
     .choices = mg_red_op_names,
     .def = "sum"},
    {.long_name = "in-place",
     .type = MG_OPT_FLAG,
     .offset = offsetof(coll_params, in_place),
     .help = "use MPI_IN_PLACE where the operation allows it"},
    {.long_name = "off-cache",
     .type = MG_OPT_FLAG,
     .offset = offsetof(coll_params, off_cache),
     .help = "rotate through buffers covering twice the last-level cache (IMB's -off_cache)"},
    {.long_name = "topo",
     .type = MG_OPT_STRING,
     .offset = offsetof(coll_params, topo_spec),
     .arg_name = "cart[:DIMS]|graph:FILE",
     .help =
         "neighbourhood collectives: a periodic Cartesian grid, DIMS like 4x2 (product: the ranks; "
         "default a 2-D grid from MPI_Dims_create), or the undirected graph in FILE (lines "
         "\"R: NEIGHBOURS\", doc/collectives.md)"},
    {.long_name = "matrix",
     .type = MG_OPT_STRING,
     .offset = offsetof(coll_params, matrix_spec),
     .arg_name = "FILE|uniform|hotspot[:H]|sparse[:D]",
     .help =
         "alltoallv: what rank i sends rank j, from a CSV file of bytes (one row per rank) or a "
         "generator in multiples of the size (doc/collectives.md)"},
    {.long_name = "ranks-sweep",
     .type = MG_OPT_STRING,
     .offset = offsetof(coll_params, ranks_spec),
     .arg_name = "MIN:MAX[:STEP]|LIST",
     .help = "blocking collectives: run on ranks 0..n-1 for every count n (variant ranks=n): every "
             "count from MIN to MAX (or every STEP-th), or the counts listed"},
    {.long_name = "multi",
     .type = MG_OPT_LONG,
     .offset = offsetof(coll_params, multi),
     .arg_name = "P",
     .help = "run the collective in concurrent groups of P consecutive ranks, each on its own "
             "communicator (IMB's -multi): a call's time is the slowest group's; extras the "
             "fastest and slowest group; 0: one group of all ranks",
     .max = 1 << 24,
     .def = "0"},
    {.short_name = 'D',
     .long_name = "layout",
     .type = MG_OPT_STRING,
     .offset = offsetof(coll_params, layout),
     .arg_name = "contiguous|vector:B:S|indexed|resized",
     .help = "bcast, scatter, gather, allgather, alltoall and the neighbourhood allgather and "
             "alltoall, blocking: also measure each block as this derived datatype of -T's "
             "elements (variant datatype=ELEM|LAYOUT/ELEM; doc/collectives.md)"},
    {.short_name = 't',
     .long_name = "tests",
     .type = MG_OPT_LONG,
     .offset = offsetof(coll_params, tests),
     .arg_name = "N",
     .help = "non-blocking, persistent: N MPI_Test calls spread through the computation",
     .max = 1000000,
     .def = "0"},
    {.type = MG_OPT_END}};

/* --ranks-sweep and --multi: the ranks left out are not timed. */
static int mg_coll_idle(const mg_ctx *c) { return cidle(c); }

/* Every size of the sweep holds whole elements and int counts. */
/* Counts above INT_MAX: the large-count calls (collective/ops.c's FORMS_LC)
 * of an MPI-4 library, for the operations of one count per block. */
static int large_count_ok(const coll_params *p)
{
    return MG_HAVE_MPI_LARGE_COUNT && !p->matrix.m &&
           !(p->op->flags & (MG_COLL_VECTOR | MG_COLL_WTYPES | MG_COLL_NEIGHBOR | MG_COLL_NODATA));
}

static int check_sizes(const mg_ctx *c, const coll_params *p, char *err, size_t errlen)
{
    const size_t es = mg_elem_size((mg_elem_type)p->type);
    /* what one rank sends or receives, in blocks (--matrix: its busiest rank's) */
    const uint64_t per = p->matrix.m && p->matrix.scaled   ? mg_matrix_busiest(&p->matrix)
                         : (p->op->flags & MG_COLL_VECTOR) ? (uint64_t)c->nranks
                                                           : 1;
    const mg_sweep *sw = c->sizes; /* the plan's parse of -m */
    int rc = 0;
    for (size_t i = 0; sw != NULL && i < sw->n && rc == 0; ++i) {
        const uint64_t size = sw->sizes_bytes[i], count = size / es;
        if (size % es != 0) {
            snprintf(err, errlen, "-m: %llu bytes is not a whole number of %s elements (%zu bytes)",
                     (unsigned long long)size, mg_elem_type_names[p->type], es);
            rc = -1;
        } else if (!large_count_ok(p) &&
                   (count > (uint64_t)INT_MAX / per ||
                    ((p->op->flags & MG_COLL_WTYPES) && size > (uint64_t)INT_MAX / per))) {
            snprintf(err, errlen,
                     "-m: %llu bytes is %llu %s elements%s, above INT_MAX: %s; use a smaller "
                     "-m or a larger -T",
                     (unsigned long long)size, (unsigned long long)count,
                     mg_elem_type_names[p->type], per > 1 ? " per rank, times the ranks" : "",
                     MG_HAVE_MPI_LARGE_COUNT
                         ? "the v-, w- and neighbourhood collectives and --matrix take int "
                           "counts and displacements here"
                         : "this MPI library has no large-count calls (MPI-4 MPI_Bcast_c ...)");
            rc = -1;
        }
    }
    return rc;
}

/* --root: the rank, or ROOT_ROTATE (rooted operations; elsewhere check
 * refuses the option). */
static int resolve_root(const mg_ctx *c, coll_params *p, char *err, size_t errlen)
{
    char *end;
    long r;
    p->root = 0;
    if (p->root_spec == NULL || !(p->op->flags & MG_COLL_ROOTED))
        return 0;
    if (strcmp(p->root_spec, "rotate") == 0) {
        p->root = ROOT_ROTATE;
        return 0;
    }
    r = strtol(p->root_spec, &end, 10);
    if (end == p->root_spec || *end || r < 0 || r >= c->nranks) {
        snprintf(err, errlen, "--root: '%s' is not 'rotate' or a rank from 0 to %d", p->root_spec,
                 c->nranks - 1);
        return -1;
    }
    p->root = r;
    return 0;
}

/* The options made into what the kernel uses: the root, -T's default (it
 * depends on the operation), the topology, the sweep's rank counts, the
 * traffic matrix. */
static int resolve(mg_ctx *c, char *err, size_t errlen)
{
    coll_params *p = c->params;
    if (p->type < 0)
        p->type = p->op->flags & MG_COLL_REDUCE ? MG_ELEM_FLOAT : MG_ELEM_CHAR;
    if (resolve_root(c, p, err, errlen) != 0 || mg_coll_topo_resolve(c, p, err, errlen) != 0 ||
        mg_coll_sweep_resolve(c, p, err, errlen) != 0 || mg_coll_dt_resolve(c, p, err, errlen) != 0)
        return -1;
    return mg_coll_matrix_resolve(c, p, err, errlen);
}

/* What the resolved options do not allow (reads them only). */
static int check(const mg_ctx *c, char *err, size_t errlen)
{
    const coll_params *p = c->params;
    const unsigned f = p->op->flags;
    const char *name = p->op->name;
    const char *bad = p->root_spec && !(f & MG_COLL_ROOTED)             ? "--root: %s has no root"
                      : mg_ctx_given(c, "type") && (f & MG_COLL_NODATA) ? "-T: %s moves no data"
                      : mg_ctx_given(c, "op") && !(f & MG_COLL_REDUCE)
                          ? "--op: %s is not a reduction"
                      : p->in_place && !(f & (MG_COLL_IN_ALL | MG_COLL_IN_ROOT))
                          ? "--in-place: %s has no in-place form"
                      : p->tests > 0 && p->form == MG_FORM_BLOCKING
                          ? "-t: %s is blocking (the tests go into the computation of the "
                            "non-blocking forms)"
                          : NULL;
    if (bad) {
        snprintf(err, errlen, bad, name);
        return -1;
    }
    if (p->root == ROOT_ROTATE && p->form == MG_FORM_PERSISTENT) {
        snprintf(err, errlen, "--root rotate: a persistent request has one root");
        return -1;
    }
    if (c->cfg->arrival.kind != MG_ARRIVAL_NONE && (p->ranks_spec || p->multi > 0)) {
        /* the delays are by the launch's ranks, the last arrival a rank of the launch */
        snprintf(err, errlen, "--arrival: every rank of the launch calls (not with %s)",
                 p->ranks_spec ? "--ranks-sweep" : "--multi");
        return -1;
    }
    if (mg_coll_topo_check(c, p, err, errlen) != 0 || mg_coll_sweep_check(c, p, err, errlen) != 0 ||
        mg_coll_matrix_check(c, p, err, errlen) != 0 || mg_coll_dt_check(c, p, err, errlen) != 0 ||
        mg_coll_multi_check(c, p, err, errlen) != 0)
        return -1;
    return c->cfg->sizes_spec ? check_sizes(c, p, err, errlen) : 0;
}

static void figures(const mg_ctx *c, double *out)
{
    const coll_state *s = state(c);
    out[0] = s->comp_n ? s->comp_s / (double)s->comp_n : 0.0;
}

/* Per-rank spread (fastest and slowest rank's median call), late starts and,
 * for the non-blocking forms, the overlap. O(nranks) on rank 0. */
static void extras(const mg_ctx *c, uint64_t size, const mg_stats *st, const double *rank_s,
                   double *out)
{
    double lo = INFINITY, hi = 0.0;
    int k = 0;
    /* --ranks-sweep: the ranks that called; --multi: every group's */
    const int ncalled = csize(c) * mg_coll_groups(c);
    for (int r = 0; r < ncalled; ++r) {
        lo = fmin(lo, rank_s[r]);
        hi = fmax(hi, rank_s[r]);
    }
    if (prm(c)->form != MG_FORM_BLOCKING) {
        out[0] = c->variant_index == 0 ? st->median : c->ref->median;
        if (c->variant == OVERLAP) {
            out[1] = mg_ctx_figure_over_ranks(c, 0, 1).max * 1e6;
            out[2] = mg_coll_overlap_pct(out[0], out[1], st->median);
        }
        k = 3;
    }
    out[k] = lo * 1e6;
    out[k + 1] = hi * 1e6;
    if (c->cfg->sync == MG_SYNC_WINDOW)
        out[k + 2] = (double)c->late;
    if (prm(c)->form == MG_FORM_BLOCKING) /* nccl-tests' algbw and busbw of the median call */
        mg_coll_bus_bw(prm(c)->op->bus, size, csize(c), st->median, &out[3], &out[4]);
    k = prm(c)->form != MG_FORM_BLOCKING ? 6 : 5;
    if (mg_coll_typed_form(prm(c))) /* -D: the typed variant over the plain one */
        out[k++] = c->ref && c->ref->median > 0 ? st->median / c->ref->median : 1.0;
    if (prm(c)->multi > 0)
        mg_coll_multi_extras(c, rank_s, &out[k]);
}

/* The operation and form a program name means: allreduce, iallreduce,
 * allreduce_init. 0 when there is none. */
static int find_op(const char *name, coll_params *p)
{
    char opname[64];
    const char *base = name;
    size_t n = strlen(name);

    if (n > 5 && strcmp(name + n - 5, "_init") == 0) {
        p->form = MG_FORM_PERSISTENT;
        snprintf(opname, sizeof opname, "%.*s", (int)(n - 5), name);
        base = opname;
    }
    for (const mg_coll_op *op = mg_coll_ops; op->name && !p->op; ++op) {
        if (strcmp(op->name, base) == 0)
            p->op = op;
        else if (base[0] == 'i' && strcmp(op->name, base + 1) == 0 && !p->form) {
            p->op = op;
            p->form = MG_FORM_NONBLOCKING;
        }
    }
    /* reduce_local has the blocking form only */
    return p->op != NULL && !((p->op->flags & MG_COLL_LOCAL) && p->form != MG_FORM_BLOCKING);
}

/* --ranks-sweep, --matrix: the forms of coll_sweep.c. */
static int choose(const mg_ctx *c, const mg_bench *base, mg_form *out)
{
    return mg_coll_reshape(c, base, out);
}

int mg_coll_main(const char *name, int argc, char **argv)
{
    static const char *const forms[] = {"", " (non-blocking: start, wait)",
                                        " (persistent: MPI_Start, wait)"};
    char desc[320];
    coll_params dflt = {.form = MG_FORM_BLOCKING, .type = -1, .ndims = 2};
    mg_bench b = {
        .report.headline = "Latency (us)",
        .id.family = "collective",
        .id.facts = MG_FACT_NO_QUEUE_PVARS | MG_FACT_ALGORITHM,
        .layout.min_ranks = 1,
        .layout.max_ranks = 1 << 24,
        .timing.metric = MG_METRIC_LATENCY,
        .timing.time_mode = MG_TIME_CALL,
        .timing.time_scale = 1.0,
        .sizes.min_size = 1,
        .sizes.default_min_size = 8,
        .sizes.default_max_size = 1048576,
        .params.opts = opts,
        .params.params_size = sizeof(coll_params),
        .params.resolve = resolve,
        .params.check = check,
        .params.choose = choose,
        .kernel.state_size = sizeof(coll_state),
        .kernel.begin_size = mg_coll_begin_size,
        .kernel.end_size = mg_coll_end_size,
        .kernel.buf_bytes = mg_coll_buf_bytes,
        .kernel.rbuf_bytes = mg_coll_rbuf_bytes,
        .kernel.iterate = mg_coll_iterate,
        .kernel.idle = mg_coll_idle,
        .valid.fill = mg_coll_fill,
        .valid.verify = mg_coll_verify,
        .report.extra_names = mg_coll_extra_names(&dflt),
        .report.extras = extras,
    };

    if (!find_op(name, &dflt)) {
        snprintf(desc, sizeof desc,
                 "unknown collective '%s' (the names: mpigauge_coll --list-names)", name);
        return mg_main_refuse("coll", "usage", MG_EXIT_USAGE, desc, argc, argv);
    }
    if (dflt.form == MG_FORM_PERSISTENT && !MG_HAVE_PERSISTENT_COLL) {
        snprintf(desc, sizeof desc,
                 "this MPI library has no persistent collectives (MPI-4 "
                 "MPI_%c%s_init)",
                 (char)(dflt.op->name[0] - 'a' + 'A'), dflt.op->name + 1);
        return mg_main_refuse("coll", "skip", MG_EXIT_SKIP, desc, argc, argv);
    }
    snprintf(desc, sizeof desc,
             "MPI_%c%s%s: time per call in us, the slowest rank of each call; ranks "
             "synchronised before every call (--sync), not timed",
             (char)(dflt.op->name[0] - 'a' + 'A'), dflt.op->name + 1, forms[dflt.form]);
    b.id.name = name;
    b.report.description = desc;
    b.params.params_default = &dflt;
    if (dflt.op->flags & MG_COLL_NEIGHBOR) {
        b.kernel.setup = mg_coll_topo_setup;
        b.kernel.teardown = mg_coll_topo_teardown;
        b.report.describe = mg_coll_describe;
    }
    if (dflt.op->flags & MG_COLL_NODATA) {
        b.sizes.min_size = b.sizes.default_min_size = b.sizes.default_max_size = 0;
        b.sizes.none = 1;
    }
    if (dflt.form != MG_FORM_BLOCKING) {
        b.sweep.variant_name = "phase";
        b.sweep.variants = mg_coll_two_variants; /* PURE, OVERLAP */
        b.sweep.variant_labels = phases;
        b.kernel.compute = 1;
        b.report.nfigures = 1;
        b.report.figures = figures;
        b.report.extra_names = mg_coll_extra_names(&dflt);
    }
    return mg_main(&b, argc, argv);
}

void mg_coll_list_names(FILE *f)
{
    for (const mg_coll_op *op = mg_coll_ops; op->name; ++op) {
        fprintf(f, "%s\n", op->name);
        if (op->flags & MG_COLL_LOCAL)
            continue;
        fprintf(f, "i%s\n", op->name);
#if MG_HAVE_PERSISTENT_COLL
        fprintf(f, "%s_init\n", op->name);
#endif
    }
}
