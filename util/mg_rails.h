/* SPDX-License-Identifier: BSD-3-Clause */
/* Multirail arithmetic (no MPI): how a message is cut into stripes, which
 * rail a bound message takes, and the parsing of the rail options.
 *
 * A rail is a communicator whose traffic goes to one network device; the MPI
 * side lives in mpi/transport/mg_multirail.c and mg_mr_*.c (doc/multirail.md).
 */
#ifndef MG_RAILS_H
#define MG_RAILS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MG_RAILS_MAX 16

enum { MG_RAIL_STRIPE = 0, MG_RAIL_BIND, MG_RAIL_LIBRARY }; /* --rail-mode */
enum { MG_STEER_PROCESS = 0, MG_STEER_HINT };               /* --rail-steer */
enum { MG_WEIGHTS_EVEN = 0, MG_WEIGHTS_GIVEN, MG_WEIGHTS_AUTO };

/* Cut `bytes` into k stripes in proportion to the weights w[0..k) (NULL:
 * even). Stripe j is [off[j], off[j] + len[j]); the stripes are contiguous,
 * in rail order, and cover the message exactly. Inner boundaries are rounded
 * down to a multiple of `align` when the message has at least k x align
 * bytes (whole cache lines or pages per rail), else placed byte-exactly, so a
 * message smaller than k leaves some stripes empty (len 0). */
void mg_stripe_split(uint64_t bytes, int k, const double *w, uint64_t align, uint64_t *off,
                     uint64_t *len);

/* --rail-weights: "even", "auto" or k positive numbers "3,1". Fills w[0..k)
 * normalised to sum 1 and *source (MG_WEIGHTS_*). 0 or -1 with a message. */
int mg_rail_weights_parse(const char *spec, int k, double *w, int *source, char *err,
                          size_t errlen);

/* Weights in proportion to measured per-rail bandwidths (MB/s); a rail that
 * measured nothing (<= 0 or not finite) gets none unless all did, then even. */
void mg_rail_weights_from_bw(const double *mbs, int k, double *w);

/* --rail-mode bind: the rail of a message of pair `pair` (0, 1, ...) sent by
 * the pair's higher rank (high = 1) or lower rank (high = 0): the two
 * directions of a pair take neighbouring rails and consecutive pairs start
 * on consecutive rails ((pair + high) mod k). */
static inline int mg_rail_bound(int pair, int high, int k) { return (pair + high) % k; }

/* --rail-hint "KEY=VALUE[;KEY=VALUE...]": up to max pairs; keys 1..63
 * characters of [A-Za-z0-9_.:-], values up to 255 characters (may hold %d,
 * replaced by the rail index). Returns the count or -1 with a message. */
int mg_rail_hints_parse(const char *spec, char (*keys)[64], char (*vals)[256], int max, char *err,
                        size_t errlen);

/* A hint value for rail r: every "%d" replaced by r, "%%" by "%". */
void mg_rail_hint_value(const char *tmpl, int r, char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
