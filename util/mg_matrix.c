/* SPDX-License-Identifier: BSD-3-Clause */
/* alltoallv --matrix: see mg_matrix.h. */
#include "mg_matrix.h"
#include "mg_graph.h"
#include "mg_pattern.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mg_matrix_free(mg_matrix *x)
{
    free(x->m);
    x->m = NULL;
    x->n = 0;
}

uint64_t mg_matrix_row(const mg_matrix *x, int i)
{
    uint64_t s = 0;
    for (int j = 0; j < x->n; ++j)
        s += mg_matrix_at(x, i, j);
    return s;
}

uint64_t mg_matrix_col(const mg_matrix *x, int j)
{
    uint64_t s = 0;
    for (int i = 0; i < x->n; ++i)
        s += mg_matrix_at(x, i, j);
    return s;
}

uint64_t mg_matrix_busiest(const mg_matrix *x)
{
    uint64_t most = 0;
    for (int k = 0; k < x->n; ++k) {
        uint64_t r = mg_matrix_row(x, k), c = mg_matrix_col(x, k);
        most = r > most ? r : most;
        most = c > most ? c : most;
    }
    return most;
}

uint64_t mg_matrix_total(const mg_matrix *x)
{
    uint64_t s = 0;
    for (size_t k = 0; k < (size_t)x->n * (size_t)x->n; ++k)
        s += x->m[k];
    return s;
}

static int alloc(mg_matrix *x, int n, char *err, size_t errlen)
{
    x->n = n;
    x->m = calloc((size_t)n * (size_t)n, sizeof *x->m);
    if (x->m == NULL) {
        snprintf(err, errlen, "out of memory for a %d x %d matrix", n, n);
        return -1;
    }
    return 0;
}

/* Where the line that starts at s ends (its newline or the NUL). */
static const char *line_end(const char *s) { return s + strcspn(s, "\n"); }

int mg_matrix_parse(const char *text, int n, mg_matrix *out, char *err, size_t errlen)
{
    int row = 0, line = 1;
    memset(out, 0, sizeof *out);
    if (alloc(out, n, err, errlen) != 0)
        return -1;
    for (const char *s = text; *s; ++line) {
        const char *end = line_end(s), *p = s;
        int col = 0;
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
            ++p;
        if (p < end && *p != '#') {
            if (row == n) {
                snprintf(err, errlen, "line %d: more than %d rows (one per rank)", line, n);
                return -1;
            }
            while (p < end) {
                char *q;
                unsigned long long v;
                while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
                    ++p;
                errno = 0;
                q = (char *)p;
                v = *p >= '0' && *p <= '9' ? strtoull(p, &q, 10) : 0;
                if (q == p || errno != 0 || v > (1ull << 40) || col == n) {
                    snprintf(err, errlen,
                             "line %d: want %d whole numbers of bytes (at most 1 TiB) joined by "
                             "commas",
                             line, n);
                    return -1;
                }
                out->m[(size_t)row * (size_t)n + (size_t)col++] = v;
                p = q;
                while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
                    ++p;
                if (p < end && *p != ',') {
                    snprintf(err, errlen, "line %d: want numbers joined by commas", line);
                    return -1;
                } else if (p < end) {
                    ++p;
                }
            }
            if (col != n) {
                snprintf(err, errlen, "line %d: %d entries; a row has one per rank, %d", line, col,
                         n);
                return -1;
            }
            ++row;
        }
        s = *end ? end + 1 : end;
    }
    if (row != n) {
        snprintf(err, errlen, "%d rows; the matrix has one per rank, %d", row, n);
        return -1;
    }
    return 0;
}

/* sparse: row i sends to itself and to d others drawn without repeats. */
static void sparse(mg_matrix *x, long d)
{
    int n = x->n;
    for (int i = 0; i < n; ++i) {
        uint64_t *row = x->m + (size_t)i * (size_t)n, state = (uint64_t)i;
        row[i] = 1;
        for (long k = 0; k < d && k < n - 1;) {
            int j = (int)((state = mg_mix64(state)) % (uint64_t)n);
            if (row[j] == 0) {
                row[j] = 1;
                ++k;
            }
        }
    }
}

/* "NAME" or "NAME:ARG" with ARG a whole number in [lo, hi]. */
static int gen_arg(const char *spec, const char *name, long lo, long hi, long dflt, long *arg)
{
    size_t k = strlen(name);
    char *end;
    if (strncmp(spec, name, k) != 0 || (spec[k] != '\0' && spec[k] != ':'))
        return 0;
    *arg = dflt;
    if (spec[k] == '\0')
        return 1;
    errno = 0;
    *arg = strtol(spec + k + 1, &end, 10);
    return errno == 0 && end != spec + k + 1 && *end == '\0' && *arg >= lo && *arg <= hi ? 1 : -1;
}

int mg_matrix_make(const char *spec, int n, mg_matrix *out, char *err, size_t errlen)
{
    long a;
    int g;
    char *text;
    memset(out, 0, sizeof *out);
    if (strcmp(spec, "uniform") == 0 || (g = gen_arg(spec, "hotspot", 1, 1 << 20, 8, &a)) != 0 ||
        (g = gen_arg(spec, "sparse", 0, 1 << 24, n / 4 > 1 ? n / 4 : 1, &a)) != 0) {
        if (strcmp(spec, "uniform") != 0 && g < 0) {
            snprintf(err, errlen,
                     "--matrix %s: want hotspot:H (H from 1 to 1048576) or sparse:D (D >= 0)",
                     spec);
            return -1;
        }
        if (alloc(out, n, err, errlen) != 0)
            return -1;
        out->scaled = 1;
        if (strncmp(spec, "sparse", 6) == 0) {
            sparse(out, a);
            return 0;
        }
        for (size_t k = 0; k < (size_t)n * (size_t)n; ++k)
            out->m[k] = 1;
        if (strncmp(spec, "hotspot", 7) == 0)
            for (int i = 0; i < n; ++i)
                out->m[(size_t)i * (size_t)n] = (uint64_t)a;
        return 0;
    }
    if ((text = mg_graph_read_file(spec, err, errlen)) == NULL)
        return -1;
    g = mg_matrix_parse(text, n, out, err, errlen);
    free(text);
    return g;
}
