/* SPDX-License-Identifier: BSD-3-Clause */
/* Neighbourhood collectives (coll_int.h): the periodic Cartesian grid of
 * --topo cart[:AxB...] (default a 2-D grid from MPI_Dims_create), made once
 * before the run record (kernel.setup) with MPI_Cart_create (no reordering:
 * ranks stay) and freed after the sweep. A call's blocks are the grid's
 * 2 x ndims neighbours in MPI's order (per dimension the -1 and the +1
 * neighbour); with a dimension of 1 or 2 a neighbour can be this rank or
 * appear twice, which MPI allows. Block k sent to neighbour k arrives there
 * as block k ^ 1 (the +1 neighbour's -1 side), which validation checks.
 *
 * --topo graph:FILE: the undirected graph of util/mg_graph.h, read by every
 * rank, made with MPI_Dist_graph_create_adjacent (sources = destinations =
 * the rank's list, in file order; no reordering). Block k goes to and comes
 * from neighbour k; it arrives there as the block at this rank's place in
 * that neighbour's list. */
#include "coll_int.h"

#include "mg_exit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_coll_blocks(const mg_ctx *c)
{
    if (!(flags(c) & MG_COLL_NEIGHBOR))
        return csize(c);
    return prm(c)->is_graph ? mg_graph_degree(&prm(c)->graph, c->rank) : 2 * prm(c)->ndims;
}

int mg_coll_block_rank(const mg_ctx *c, int k)
{
    const coll_params *p = prm(c);
    if (!(flags(c) & MG_COLL_NEIGHBOR))
        return k;
    return p->is_graph ? p->graph.adj[p->graph.off[c->rank] + k] : state(c)->nbr[k];
}

int mg_coll_sender_block(const mg_ctx *c, int j)
{
    const coll_params *p = prm(c);
    if (p->is_graph)
        return mg_graph_index_of(&p->graph, mg_coll_block_rank(c, j), c->rank);
    return j ^ 1;
}

int mg_coll_twin_block(const mg_ctx *c, int j)
{
    if (prm(c)->is_graph || mg_coll_block_rank(c, j ^ 1) != mg_coll_block_rank(c, j))
        return -1;
    return j ^ 1;
}

/* "graph:FILE": read and checked on every rank. */
static int parse_graph(const char *spec, int nranks, coll_params *p, char *err, size_t errlen)
{
    char msg[400];
    char *text;
    if (p->is_graph)
        return 0;
    if ((text = mg_graph_read_file(spec + 6, msg, sizeof msg)) == NULL) {
        snprintf(err, errlen, "--topo graph: %s", msg);
        return -1;
    }
    if (mg_graph_parse(text, nranks, &p->graph, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "--topo %s: %s", spec, msg);
        mg_graph_free(&p->graph);
        free(text);
        return -1;
    }
    free(text);
    p->is_graph = 1;
    return 0;
}

/* "cart" or "cart:AxBxC": the dimensions (0: chosen by MPI_Dims_create). */
static int parse_topo(const char *spec, int nranks, coll_params *p, char *err, size_t errlen)
{
    const char *s;
    long product = 1;
    p->ndims = 2;
    memset(p->dims, 0, sizeof p->dims);
    if (spec == NULL || strcmp(spec, "cart") == 0)
        return 0;
    if (strncmp(spec, "graph:", 6) == 0 && spec[6] != '\0')
        return parse_graph(spec, nranks, p, err, errlen);
    if (strncmp(spec, "cart:", 5) != 0 || spec[5] == '\0') {
        snprintf(err, errlen, "--topo: '%s' is not cart, cart:DIMS (like cart:4x2) or graph:FILE",
                 spec);
        return -1;
    }
    p->ndims = 0;
    for (s = spec + 5; *s;) {
        char *end;
        long d = strtol(s, &end, 10);
        if (end == s || d < 1 || d > 1 << 24 || (*end && *end != 'x') || p->ndims == MAX_DIMS ||
            (*end == 'x' && end[1] == '\0')) {
            snprintf(err, errlen,
                     "--topo: '%s' is not cart:DIMS, up to %d positive sizes joined by x", spec,
                     MAX_DIMS);
            return -1;
        }
        p->dims[p->ndims++] = (int)d;
        product *= d;
        if (product > nranks)
            break;
        s = *end ? end + 1 : end;
    }
    if (product != nranks) {
        snprintf(err, errlen, "--topo: the grid %s has %s%ld places for %d ranks", spec + 5,
                 product > nranks ? "more than " : "", product, nranks);
        return -1;
    }
    return 0;
}

int mg_coll_topo_resolve(const mg_ctx *c, coll_params *p, char *err, size_t errlen)
{
    if (!(p->op->flags & MG_COLL_NEIGHBOR))
        return 0;
    if (parse_topo(p->topo_spec, c->nranks, p, err, errlen) != 0)
        return -1;
    if (!p->is_graph)
        MG_MPI_CHECK(MPI_Dims_create(c->nranks, p->ndims, p->dims));
    return 0;
}

int mg_coll_topo_check(const mg_ctx *c, const coll_params *p, char *err, size_t errlen)
{
    (void)c;
    if (!(p->op->flags & MG_COLL_NEIGHBOR) && p->topo_spec) {
        snprintf(err, errlen, "--topo: %s is not a neighbourhood collective", p->op->name);
        return -1;
    }
    return 0;
}

void mg_coll_topo_setup(mg_ctx *c, uint64_t max_size)
{
    coll_state *s = state(c);
    const coll_params *p = prm(c);
    int dims[MAX_DIMS], periods[MAX_DIMS];
    (void)max_size;
    if (p->is_graph) {
        int deg = mg_graph_degree(&p->graph, c->rank), none = 0;
        const int *list = deg ? p->graph.adj + p->graph.off[c->rank] : &none;
#pragma GCC diagnostic push /* Open MPI's MPI_UNWEIGHTED is a marker address, not an array */
#pragma GCC diagnostic ignored "-Wstringop-overread"
        MG_MPI_CHECK(MPI_Dist_graph_create_adjacent(c->comm, deg, list, MPI_UNWEIGHTED, deg, list,
                                                    MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &s->topo));
#pragma GCC diagnostic pop
        MG_MPI_CHECK(MPI_Comm_set_errhandler(s->topo, MPI_ERRORS_RETURN));
        return;
    }
    memcpy(dims, p->dims, sizeof dims);
    for (int d = 0; d < p->ndims; ++d)
        periods[d] = 1;
    MG_MPI_CHECK(MPI_Cart_create(c->comm, p->ndims, dims, periods, 0, &s->topo));
    MG_MPI_CHECK(MPI_Comm_set_errhandler(s->topo, MPI_ERRORS_RETURN));
    for (int d = 0; d < p->ndims; ++d)
        MG_MPI_CHECK(MPI_Cart_shift(s->topo, d, 1, &s->nbr[2 * d], &s->nbr[2 * d + 1]));
}

void mg_coll_topo_teardown(mg_ctx *c)
{
    coll_state *s = state(c);
    if (flags(c) & MG_COLL_NEIGHBOR)
        MG_MPI_CHECK(MPI_Comm_free(&s->topo));
    mg_graph_free(&((coll_params *)c->params)->graph);
}

/* The run record's "topology": the grid and this (rank 0's) neighbours. */
void mg_coll_describe(const mg_ctx *c, mg_kvlist *out)
{
    const coll_params *p = prm(c);
    mg_kv_object(out, "topology");
    if (p->is_graph) {
        mg_kv_string(out, "kind", "graph (undirected, MPI_Dist_graph_create_adjacent)");
        mg_kv_string(out, "file", p->topo_spec + 6);
        mg_kv_number(out, "edges", p->graph.off[p->graph.n] / 2);
        mg_kv_array(out, "rank0_neighbors");
        for (int k = 0; k < mg_graph_degree(&p->graph, 0); ++k)
            mg_kv_number(out, NULL, p->graph.adj[k]);
        mg_kv_end(out);
        mg_kv_end(out);
        return;
    }
    mg_kv_string(out, "kind", "cart (periodic)");
    mg_kv_array(out, "dims");
    for (int d = 0; d < p->ndims; ++d)
        mg_kv_number(out, NULL, p->dims[d]);
    mg_kv_end(out);
    mg_kv_array(out, "rank0_neighbors");
    for (int k = 0; k < 2 * p->ndims; ++k)
        mg_kv_number(out, NULL, state(c)->nbr[k]);
    mg_kv_end(out);
    mg_kv_end(out);
}
