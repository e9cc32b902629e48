/* SPDX-License-Identifier: BSD-3-Clause */
/* Pairing ranks for multi-pair point-to-point tests.
 *
 *  block:     rank i with rank i + P/2 (the first half are the initiators)
 *  cyclic:    rank 2i with rank 2i + 1
 *  internode: each rank, in rank order, with the lowest unpaired rank on
 *             another node; ranks left over (all on one node) are then paired
 *             in rank order on their node.
 * With an odd number of ranks the last unpaired rank stays idle (partner -1).
 * Pure and deterministic: every rank computes the same pairs.
 */
#ifndef MG_PAIRING_H
#define MG_PAIRING_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { MG_PAIR_BLOCK = 0, MG_PAIR_CYCLIC, MG_PAIR_INTERNODE } mg_pairing_mode;

/* Fill partner[0..nranks-1]; node_of[r] is rank r's node index (only used by
 * internode). Returns the number of pairs. */
int mg_pairing(mg_pairing_mode mode, int nranks, const int *node_of, int *partner);

/* 1 if partner[] is a valid symmetric pairing (or -1 for idle ranks). */
int mg_pairing_is_valid(int nranks, const int *partner);

/* Fan-in / fan-out hubs (pt2pt/fan.c): hub[r] is rank r's hub, -1 for a
 * hub or an idle rank. by_node 0: rank 0 is every other rank's hub;
 * 1 (OSU's osu_bw_fan_in/out): the ranks of rank 0's node are the hubs,
 * and the rank with local index l (its place among its node's ranks in
 * rank order) on any other node has the hub of local index l, if rank 0's
 * node has that many ranks (else it is idle). node_of[r] in 0..nnodes-1.
 * Returns the number of ranks that have a hub, or -1 when out of memory. */
int mg_fan_hubs(int by_node, int nranks, const int *node_of, int nnodes, int *hub);

#ifdef __cplusplus
}
#endif

#endif
