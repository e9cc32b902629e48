/* SPDX-License-Identifier: BSD-3-Clause */
/* The neighbourhood graph of --topo graph:FILE (neighbourhood collectives).
 *
 * The file has one line per rank, "R: A B C", the ranks R exchanges with
 * (spaces or commas between them; '#' starts a comment; blank lines are
 * skipped). Every rank 0..P-1 has exactly one line; a neighbour is another
 * rank, listed once; and the graph is undirected: A lists R when R lists
 * A. So every rank's sources and destinations are its list, in file order.
 * Plain C, no MPI. */
#ifndef MG_GRAPH_H
#define MG_GRAPH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_GRAPH_MAX_DEGREE 4096

typedef struct {
    int n;    /* ranks */
    int *off; /* n + 1 offsets into adj */
    int *adj; /* rank r's neighbours: adj[off[r] .. off[r + 1]) */
} mg_graph;

/* Parse the file's text for `nranks` ranks into *g (freed with
 * mg_graph_free, also after an error): 0, or -1 with a message naming
 * the line. */
int mg_graph_parse(const char *text, int nranks, mg_graph *g, char *err, size_t errlen);
void mg_graph_free(mg_graph *g);

static inline int mg_graph_degree(const mg_graph *g, int r) { return g->off[r + 1] - g->off[r]; }

/* The position of `who` in r's list, or -1. */
int mg_graph_index_of(const mg_graph *g, int r, int who);

/* Read a whole (small) file into a NUL-terminated buffer (free it);
 * NULL with a message. */
char *mg_graph_read_file(const char *path, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
