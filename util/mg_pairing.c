/* SPDX-License-Identifier: BSD-3-Clause */
/* Rank pairing: see mg_pairing.h. */
#include "mg_pairing.h"

#include <stdlib.h>

static int pair_up(int *partner, int a, int b)
{
    partner[a] = b;
    partner[b] = a;
    return 1;
}

int mg_pairing(mg_pairing_mode mode, int nranks, const int *node_of, int *partner)
{
    int pairs = 0, half = nranks / 2;

    for (int r = 0; r < nranks; ++r)
        partner[r] = -1;
    switch (mode) {
    case MG_PAIR_BLOCK:
        for (int r = 0; r < half; ++r)
            pairs += pair_up(partner, r, r + half);
        break;
    case MG_PAIR_CYCLIC:
        for (int r = 0; r + 1 < nranks; r += 2)
            pairs += pair_up(partner, r, r + 1);
        break;
    case MG_PAIR_INTERNODE:
        for (int pass = 0; pass < 2; ++pass) {
            /* pass 0: across nodes only; pass 1: whatever is left */
            for (int r = 0; r < nranks; ++r) {
                if (partner[r] >= 0)
                    continue;
                for (int s = r + 1; s < nranks; ++s) {
                    if (partner[s] < 0 && (pass == 1 || node_of[s] != node_of[r])) {
                        pairs += pair_up(partner, r, s);
                        break;
                    }
                }
            }
        }
        break;
    }
    return pairs;
}

int mg_pairing_is_valid(int nranks, const int *partner)
{
    for (int r = 0; r < nranks; ++r) {
        int p = partner[r];
        if (p == -1)
            continue;
        if (p < 0 || p >= nranks || p == r || partner[p] != r)
            return 0;
    }
    return 1;
}

int mg_fan_hubs(int by_node, int nranks, const int *node_of, int nnodes, int *hub)
{
    const int node0 = nranks > 0 ? node_of[0] : 0;
    int n = 0, nfirst = 0;
    int *seen = calloc((size_t)nnodes + 1, sizeof *seen);
    int *first = malloc(((size_t)nranks + 1) * sizeof *first); /* node0's rank of index l */
    if (seen == NULL || first == NULL) {
        free(seen);
        free(first);
        return -1;
    }
    for (int r = 0; r < nranks; ++r)
        if (node_of[r] == node0)
            first[nfirst++] = r;
    for (int r = 0; r < nranks; ++r) {
        const int local = seen[node_of[r]]++;
        if (!by_node)
            hub[r] = r == 0 ? -1 : 0;
        else
            hub[r] = node_of[r] == node0 || local >= nfirst ? -1 : first[local];
        n += hub[r] >= 0;
    }
    free(seen);
    free(first);
    return n;
}
