/* SPDX-License-Identifier: BSD-3-Clause */
/* --topo graph:FILE: see mg_graph.h. */
#include "mg_graph.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MG_GRAPH_MAX_FILE (64L << 20)

void mg_graph_free(mg_graph *g)
{
    free(g->off);
    free(g->adj);
    g->off = g->adj = NULL;
    g->n = 0;
}

int mg_graph_index_of(const mg_graph *g, int r, int who)
{
    for (int k = g->off[r]; k < g->off[r + 1]; ++k)
        if (g->adj[k] == who)
            return k - g->off[r];
    return -1;
}

/* One number of a line; 1 with *v, 0 at the line's end, -1 on junk. */
static int next_number(const char **s, long *v)
{
    char *end;
    while (**s == ' ' || **s == '\t' || **s == ',' || **s == '\r')
        ++*s;
    if (**s == '\0' || **s == '\n' || **s == '#')
        return 0;
    if (**s < '0' || **s > '9')
        return -1;
    errno = 0;
    *v = strtol(*s, &end, 10);
    if (errno != 0 || *v > 1L << 30)
        return -1;
    *s = end;
    return 1;
}

/* The edges read so far, line by line (rank r's list is contiguous). */
typedef struct {
    int *from, *to;
    size_t n, cap;
} edges;

static int push(edges *e, int r, int a)
{
    if (e->n == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 1024;
        int *f = realloc(e->from, cap * sizeof *f), *t;
        if (f == NULL)
            return -1;
        e->from = f;
        if ((t = realloc(e->to, cap * sizeof *t)) == NULL)
            return -1;
        e->to = t;
        e->cap = cap;
    }
    e->from[e->n] = r;
    e->to[e->n++] = a;
    return 0;
}

/* Line `line` (its text at s): "R:" and the neighbours, appended to e. */
static int parse_line(const char *s, int line, int nranks, int *deg, edges *e, char *err,
                      size_t errlen)
{
    long r, a;
    int got;
    size_t first = e->n;
    if ((got = next_number(&s, &r)) == 0)
        return 0; /* blank or comment */
    if (got < 0 || *s != ':' || r >= nranks) {
        snprintf(err, errlen, "line %d: want \"R: NEIGHBOURS\" with R a rank below %d", line,
                 nranks);
        return -1;
    }
    if (deg[r] >= 0) {
        snprintf(err, errlen, "line %d: rank %ld has a line already", line, r);
        return -1;
    }
    deg[r] = 0;
    ++s;
    while ((got = next_number(&s, &a)) == 1) {
        if (a >= nranks || a == r) {
            snprintf(err, errlen, "line %d: neighbour %ld of rank %ld is %s", line, a, r,
                     a == r ? "the rank itself" : "not a rank");
            return -1;
        }
        for (size_t k = first; k < e->n; ++k)
            if (e->to[k] == a) {
                snprintf(err, errlen, "line %d: rank %ld lists %ld twice", line, r, a);
                return -1;
            }
        if (deg[r] == MG_GRAPH_MAX_DEGREE) {
            snprintf(err, errlen, "line %d: more than %d neighbours", line, MG_GRAPH_MAX_DEGREE);
            return -1;
        }
        if (push(e, (int)r, (int)a) != 0) {
            snprintf(err, errlen, "out of memory for the graph");
            return -1;
        }
        ++deg[r];
    }
    if (got < 0) {
        snprintf(err, errlen, "line %d: a neighbour is not a whole number", line);
        return -1;
    }
    return 0;
}

/* Every rank has a line and every edge both ways. */
static int check_whole(const mg_graph *g, char *err, size_t errlen)
{
    for (int r = 0; r < g->n; ++r)
        for (int k = g->off[r]; k < g->off[r + 1]; ++k)
            if (mg_graph_index_of(g, g->adj[k], r) < 0) {
                snprintf(err, errlen,
                         "rank %d lists %d, but %d does not list %d (the graph is undirected)", r,
                         g->adj[k], g->adj[k], r);
                return -1;
            }
    return 0;
}

/* CSR from the edges: rank r's list in file order. */
static int build(mg_graph *g, const int *deg, const edges *e, char *err, size_t errlen)
{
    int *at = malloc((size_t)g->n * sizeof *at + 1);
    if (at == NULL || (g->adj = malloc(e->n * sizeof *g->adj + 1)) == NULL) {
        free(at);
        snprintf(err, errlen, "out of memory for the graph");
        return -1;
    }
    for (int r = 0; r < g->n; ++r) {
        g->off[r + 1] = g->off[r] + deg[r];
        at[r] = g->off[r];
    }
    for (size_t k = 0; k < e->n; ++k)
        g->adj[at[e->from[k]]++] = e->to[k];
    free(at);
    return 0;
}

int mg_graph_parse(const char *text, int nranks, mg_graph *g, char *err, size_t errlen)
{
    int *deg = malloc((size_t)nranks * sizeof *deg + 1);
    edges e = {NULL, NULL, 0, 0};
    int line = 1, rc = 0;
    memset(g, 0, sizeof *g);
    g->n = nranks;
    if (deg == NULL || (g->off = calloc((size_t)nranks + 1, sizeof *g->off)) == NULL) {
        snprintf(err, errlen, "out of memory for a graph of %d ranks", nranks);
        rc = -1;
    }
    for (int r = 0; rc == 0 && r < nranks; ++r)
        deg[r] = -1;
    for (const char *s = text; rc == 0 && *s; ++line) {
        rc = parse_line(s, line, nranks, deg, &e, err, errlen);
        s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s);
    }
    for (int r = 0; rc == 0 && r < nranks; ++r)
        if (deg[r] < 0) {
            snprintf(err, errlen, "rank %d has no line (every rank 0..%d needs one)", r,
                     nranks - 1);
            rc = -1;
        }
    if (rc == 0)
        rc = build(g, deg, &e, err, errlen);
    if (rc == 0)
        rc = check_whole(g, err, errlen);
    free(deg);
    free(e.from);
    free(e.to);
    return rc;
}

char *mg_graph_read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    long n;
    if (f == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || n > MG_GRAPH_MAX_FILE ||
        fseek(f, 0, SEEK_SET) != 0) {
        snprintf(err, errlen, "%s: not a regular file of at most 64 MiB", path);
        fclose(f);
        return NULL;
    }
    if ((buf = malloc((size_t)n + 1)) == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        snprintf(err, errlen, "%s: could not be read", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}
