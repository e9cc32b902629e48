/* SPDX-License-Identifier: BSD-3-Clause */
/* Options that reshape a collective's run: --ranks-sweep, alltoallv
 * --matrix (below), -D and --multi (their forms in coll_dtype.c and
 * coll_multi.c).
 *
 * --ranks-sweep LIST|MIN:MAX[:STEP] for the blocking collectives: the
 * operation on ranks 0..n-1 for every count n, inside one launch
 * (open-mpi/ompi#8186: a bcast ten times slower at 128 ranks than at 127).
 * The counts are the second sweep dimension, variant ranks=n, so every
 * size is measured at every count one after the other. The
 * sub-communicators are made once before the run record with MPI_Comm_split
 * (key: the rank, so ranks keep their numbers) and freed after the sweep;
 * ranks left out of a count skip its calls, but keep to the driver's
 * synchronisation (MG_TIME_CALL), so a sample is the slowest calling
 * rank's time. */
#include "coll_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "A:B[:S]" every S-th count from A to B, or "a,b,c". */
static int parse(const char *spec, int nranks, coll_params *p, char *err, size_t errlen)
{
    long a, b, step = 1;
    char *end;
    p->nsweep = 0;
    errno = 0;
    a = strtol(spec, &end, 10);
    if (end != spec && *end == ':') {
        const char *s = end + 1;
        b = strtol(s, &end, 10);
        if (end != s && *end == ':') {
            s = end + 1;
            step = strtol(s, &end, 10);
        }
        if (errno || end == s || *end || a < 1 || b < a || step < 1 || b > nranks) {
            snprintf(err, errlen,
                     "--ranks-sweep %s: want MIN:MAX[:STEP] with 1 <= MIN <= MAX <= %d (the "
                     "ranks of the launch)",
                     spec, nranks);
            return -1;
        }
        for (long n = a; n <= b; n += step) {
            if (p->nsweep == MG_COLL_MAX_SWEEP) {
                snprintf(err, errlen, "--ranks-sweep %s: more than %d counts", spec,
                         MG_COLL_MAX_SWEEP);
                return -1;
            }
            p->sweep[p->nsweep++] = n;
        }
        return 0;
    }
    for (const char *s = spec;;) {
        errno = 0;
        a = strtol(s, &end, 10);
        if (errno || end == s || a < 1 || a > nranks || (*end && *end != ',') ||
            p->nsweep == MG_COLL_MAX_SWEEP) {
            snprintf(err, errlen,
                     "--ranks-sweep %s: want counts from 1 to %d (the ranks of the launch) "
                     "joined by commas, at most %d, or MIN:MAX[:STEP]",
                     spec, nranks, MG_COLL_MAX_SWEEP);
            return -1;
        }
        for (int k = 0; k < p->nsweep; ++k)
            if (p->sweep[k] == a) {
                snprintf(err, errlen, "--ranks-sweep %s: %ld is given twice", spec, a);
                return -1;
            }
        p->sweep[p->nsweep++] = a;
        if (*end == '\0')
            return 0;
        s = end + 1;
    }
}

int mg_coll_sweep_resolve(const mg_ctx *c, coll_params *p, char *err, size_t errlen)
{
    if (p->ranks_spec == NULL || p->form != MG_FORM_BLOCKING || (p->op->flags & MG_COLL_NEIGHBOR))
        return 0; /* check refuses the option here */
    return parse(p->ranks_spec, c->nranks, p, err, errlen);
}

int mg_coll_sweep_check(const mg_ctx *c, const coll_params *p, char *err, size_t errlen)
{
    long least;
    (void)c;
    if (p->ranks_spec == NULL)
        return 0;
    if (p->form != MG_FORM_BLOCKING || (p->op->flags & MG_COLL_NEIGHBOR)) {
        snprintf(err, errlen,
                 "--ranks-sweep: %s%s is not a blocking collective on all ranks (the sweep "
                 "takes MPI_%s's blocking form)",
                 p->form == MG_FORM_NONBLOCKING ? "i" : "", p->op->name, p->op->name);
        return -1;
    }
    least = p->sweep[0];
    for (int k = 1; k < p->nsweep; ++k)
        least = p->sweep[k] < least ? p->sweep[k] : least;
    if (p->root != ROOT_ROTATE && p->root >= least) {
        snprintf(err, errlen, "--root %ld: the sweep's smallest count, %ld, has no such rank",
                 p->root, least);
        return -1;
    }
    return 0;
}

static int variants(const mg_ctx *c, long *values, int max)
{
    const coll_params *p = prm(c);
    int n = p->nsweep < max ? p->nsweep : max;
    for (int k = 0; k < n; ++k)
        values[k] = p->sweep[k];
    return n;
}

static void setup(mg_ctx *c, uint64_t max_size)
{
    coll_state *s = state(c);
    const coll_params *p = prm(c);
    (void)max_size;
    for (int k = 0; k < p->nsweep; ++k) {
        MG_MPI_CHECK(MPI_Comm_split(c->comm, c->rank < p->sweep[k] ? 0 : MPI_UNDEFINED, c->rank,
                                    &s->subs[k]));
        if (s->subs[k] != MPI_COMM_NULL)
            MG_MPI_CHECK(MPI_Comm_set_errhandler(s->subs[k], MPI_ERRORS_RETURN));
    }
}

static void teardown(mg_ctx *c)
{
    coll_state *s = state(c);
    for (int k = 0; k < prm(c)->nsweep; ++k)
        if (s->subs[k] != MPI_COMM_NULL)
            MG_MPI_CHECK(MPI_Comm_free(&s->subs[k]));
}

mg_bench mg_coll_sweep_form(mg_bench b)
{
    b.sweep.variant_name = "ranks";
    b.sweep.variants = variants;
    b.sweep.variant_labels = NULL;
    b.kernel.setup = setup;
    b.kernel.teardown = teardown;
    return b;
}

/* ------------------------------------------------------------------ */
/* alltoallv --matrix FILE|uniform|hotspot[:H]|sparse[:D] (mg_matrix.h):
 * rank i sends row i of the matrix and receives column i; each rank's
 * counts and packed displacements come from it (coll_kernel.c), and
 * validation checks every block of the column. A generator's entries are
 * multiples of the sweep's size N; a file gives bytes, and the run then
 * has the one size 0, "the file's bytes" (-m does not apply). */

int mg_coll_matrix_resolve(const mg_ctx *c, coll_params *p, char *err, size_t errlen)
{
    char msg[400];
    if (p->matrix_spec == NULL || strcmp(p->op->name, "alltoallv") != 0 || p->in_place ||
        p->ranks_spec)
        return 0; /* check refuses the option here */
    if (mg_matrix_make(p->matrix_spec, c->nranks, &p->matrix, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "--matrix %s", msg);
        mg_matrix_free(&p->matrix);
        return -1;
    }
    return 0;
}

int mg_coll_matrix_check(const mg_ctx *c, const coll_params *p, char *err, size_t errlen)
{
    const size_t es = mg_elem_size((mg_elem_type)p->type);
    if (p->matrix_spec == NULL)
        return 0;
    if (strcmp(p->op->name, "alltoallv") != 0) {
        snprintf(err, errlen, "--matrix: %s is not alltoallv", p->op->name);
        return -1;
    }
    if (p->in_place || p->ranks_spec) {
        snprintf(err, errlen, "--matrix does not combine with %s",
                 p->in_place ? "--in-place" : "--ranks-sweep");
        return -1;
    }
    if (!p->matrix.scaled && c->cfg->sizes_spec) {
        snprintf(err, errlen, "-m does not apply with --matrix FILE: the file gives the bytes");
        return -1;
    }
    for (int i = 0; i < c->nranks; ++i)
        for (int j = 0; j < c->nranks; ++j)
            if (!p->matrix.scaled && mg_matrix_at(&p->matrix, i, j) % es != 0) {
                snprintf(err, errlen,
                         "--matrix: rank %d sends %llu bytes to rank %d, not a whole number of "
                         "%s elements",
                         i, (unsigned long long)mg_matrix_at(&p->matrix, i, j), j,
                         mg_elem_type_names[p->type]);
                return -1;
            }
    if (!p->matrix.scaled && mg_matrix_busiest(&p->matrix) / es > (uint64_t)INT_MAX) {
        snprintf(err, errlen, "--matrix: a rank sends or receives more than INT_MAX elements");
        return -1;
    }
    return 0;
}

void mg_coll_matrix_describe(const mg_ctx *c, mg_kvlist *out)
{
    const coll_params *p = prm(c);
    mg_kv_object(out, "matrix");
    mg_kv_string(out, "spec", p->matrix_spec);
    mg_kv_string(out, "entries", p->matrix.scaled ? "multiples of the size" : "bytes");
    mg_kv_number(out, "total", (double)mg_matrix_total(&p->matrix));
    mg_kv_number(out, "busiest_rank", (double)mg_matrix_busiest(&p->matrix));
    mg_kv_number(out, "rank0_sends", (double)mg_matrix_row(&p->matrix, 0));
    mg_kv_number(out, "rank0_receives", (double)mg_matrix_col(&p->matrix, 0));
    mg_kv_end(out);
}

static void matrix_teardown(mg_ctx *c) { mg_matrix_free(&((coll_params *)c->params)->matrix); }

static int is_generator(const char *spec)
{
    return strcmp(spec, "uniform") == 0 || strncmp(spec, "hotspot", 7) == 0 ||
           strncmp(spec, "sparse", 6) == 0;
}

mg_bench mg_coll_matrix_form(mg_bench b, int from_file)
{
    b.report.describe = mg_coll_matrix_describe;
    b.kernel.teardown = matrix_teardown;
    if (from_file)
        b.sizes.min_size = b.sizes.default_min_size = b.sizes.default_max_size = 0;
    return b;
}

int mg_coll_reshape(const mg_ctx *c, const mg_bench *b, mg_form *out)
{
    const coll_params *p = prm(c);
    mg_bench form;
    if (p->layout != NULL && p->form == MG_FORM_BLOCKING && !p->ranks_spec) {
        mg_coll_dt_labels(p, out);
        form = mg_coll_dt_form(*b, p, out->labels);
    } else if (p->form == MG_FORM_BLOCKING && p->ranks_spec && !p->matrix_spec)
        form = mg_coll_sweep_form(*b);
    else if (p->matrix_spec != NULL)
        form = mg_coll_matrix_form(*b, !is_generator(p->matrix_spec));
    else if (p->multi > 0)
        form = *b;
    else
        return 0;
    if (p->multi > 0) /* checked against the others by mg_coll_multi_check */
        form = mg_coll_multi_form(form, p);
    mg_form_take(out, &form);
    return 1;
}
