/* SPDX-License-Identifier: BSD-3-Clause */
/* The all-pairs screen's schedule and verdict (tools/mpigauge_screen; the
 * method: doc/screen.md). Plain C, no MPI, pure.
 *
 * Schedule: units (nodes, or ranks) 0..n-1 meet in rounds of disjoint
 * pairs, a round-robin tournament by the circle method: with n even every
 * unit is busy in each of the n - 1 rounds; with n odd a dummy unit makes
 * it n + 1 and each round one unit sits out (n rounds). Every unordered
 * pair meets exactly once per repetition of the tournament.
 *
 * Verdict, for one metric (bandwidth: higher is better; latency: lower):
 * pair p's value in repetition r is x[p][r] (NaN: none). The repetition's
 * reference is the better median over the units of each unit's better
 * median over its pairs (a unit's "level"); a slow unit lowers its own
 * level only, so the reference stays that of the healthy units while fewer
 * than half of the units are slow. Pair p's goodness in repetition r is
 * x / reference (latency: reference / x), 1 when it is like the
 * reference. A pair is an outlier when its goodness is below 1 - threshold
 * in significantly many repetitions: a sign test (k of n repetitions below,
 * p = P(Binomial(n, 1/2) >= k)), Holm's step-down over all pairs at the
 * family-wise rate alpha. With a floor (expect > 0), a pair is below it
 * when its value is worse than the floor in significantly many repetitions
 * (the same test and correction, a family of its own).
 *
 * Naming: a unit is named (a slow node) when at least two of its pairs are
 * flagged (outlier or below the floor) and they are more than half of its
 * pairs with data; a flagged pair with neither end named is a slow link.
 */
#ifndef MG_SCREEN_H
#define MG_SCREEN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rounds per repetition for n >= 2 units: n - 1 (n even) or n (n odd). */
int mg_screen_rounds(int n);

/* Round r (0..rounds-1) of n units: partner[u] for every unit, -1 when u
 * sits out. Every unit meets every other once over the rounds. */
void mg_screen_round(int n, int r, int *partner);

/* Unordered pairs of n units, n (n - 1) / 2, and the index of pair (a, b),
 * a != b in either order: pairs of unit 0 first (0-1, 0-2, ...), then 1-2... */
long mg_screen_npairs(int n);
long mg_screen_pair_index(int n, int a, int b);
/* The units a < b of pair index p. */
void mg_screen_pair_units(int n, long p, int *a, int *b);

/* P(Binomial(n, 1/2) >= k): the one-sided sign test's p-value. */
double mg_screen_sign_p(int n, int k);

/* Repetitions needed before one pair can be flagged at all among npairs at
 * family-wise rate alpha: the smallest n with 2^-n <= alpha / npairs. */
int mg_screen_min_reps(long npairs, double alpha);

typedef struct {
    int nunits, reps;
    int higher_better; /* 1: bandwidth; 0: latency */
    double threshold;  /* an outlier is worse than the reference by more than
                        * this fraction (0.2) */
    double alpha;      /* family-wise error rate over the pairs (0.05) */
    double expect;     /* the floor (bandwidth at least, latency at most); 0: none */
} mg_screen_cfg;

typedef struct {
    int n;                               /* repetitions with a value */
    double median, ci_low, ci_high;      /* the value over repetitions, 95% CI */
    double ratio, ratio_low, ratio_high; /* goodness over repetitions, 95% CI */
    int worse;                           /* repetitions with goodness < 1 - threshold */
    double p;                            /* its sign test */
    int outlier;                         /* flagged after Holm's correction */
    int worse_floor;                     /* repetitions worse than the floor */
    double p_floor;
    int below_floor; /* flagged against the floor (after Holm) */
    int named_end;   /* flagged: the named unit that explains it (the lower
                      * one when both are named), or -1 (a slow link); -1
                      * when not flagged */
} mg_screen_pair;

typedef struct {
    double reference; /* median over repetitions of the repetition's reference */
    int outliers;     /* pairs flagged as outliers */
    int below_floor;  /* pairs flagged against the floor */
    int named;        /* units named */
    int links;        /* flagged pairs with no named end */
    int conclusive;   /* enough repetitions for the error control (and >= 3 units
                        * for outliers, which need a population) */
} mg_screen_summary;

/* The verdict. x: npairs x reps values (pair-major). Fills pairs[npairs],
 * unit_flagged[nunits] (flagged pairs of each unit), unit_named[nunits]
 * (0/1) and, when not NULL, ref[reps] (each repetition's reference, NaN when
 * it has no value). 0, or -1 when out of memory or cfg is unusable. */
int mg_screen_analyse(const mg_screen_cfg *cfg, const double *x, mg_screen_pair *pairs,
                      int *unit_flagged, int *unit_named, double *ref, mg_screen_summary *sum);

#ifdef __cplusplus
}
#endif

#endif
