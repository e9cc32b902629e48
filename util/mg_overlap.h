/* SPDX-License-Identifier: BSD-3-Clause */
/* The pure arithmetic of the overlap and progress tests (seed 003, Rashti &
 * Afsahi; doc/overlap.md). All times in the same unit.
 */
#ifndef MG_OVERLAP_H
#define MG_OVERLAP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Computation of step m: m x step x l0 (step 0.1: 10% of l0 per step). */
double mg_overlap_compute(int m, double l0, double step);

/* Stepping rule: stop once l_m >= factor x l0 (factor 1.1). It is judged on
 * the lower 95% CI bound of l_m's median, so one noisy measurement does not
 * end the search early. */
int mg_overlap_stop(double l0, double lm_ci_low, double factor);

/* overlap_ratio = (c_m - (l_m - l0)) / l0, clamped to [0, 1]: 1 when the
 * computation hides completely behind the communication, 0 when it adds up. */
double mg_overlap_ratio(double l0, double lm, double cm);

/* Post-delay work = (L(d) - d) / l0 clamped to [0, 1]: the share of the
 * original latency still to do after a delay d (0: the message moved during
 * the delay, independent progress; 1: nothing happened until MPI was called). */
double mg_post_delay_work(double l0, double ld, double d);

/* The latency grows with the delay: L(d) - l0 >= d / 2 (d > 0). */
int mg_progress_grows(double l0, double ld, double d);

typedef struct {
    size_t index; /* the step lies between sizes[index - 1] and sizes[index] */
    double ratio; /* the jump seen from the trend before or after (mg_detect_steps) */
} mg_switch;

/* Steps in a latency curve (sizes ascending) between a point and the one
 * before it, where either the old path's trend carried forward or the new
 * path's carried back shows a jump of at least min_ratio (e.g. 1.5): the
 * point's latency over the prediction from the two points before it, or the
 * prediction from the point and the one after it over the point before
 * (per-byte slopes never negative; flat where there is no second point). The
 * second catches a switch to a path with a higher start-up cost and a lower
 * per-byte cost, whose step the old path's slope hides. Writes up to max
 * steps (ratio: the larger of the two), returns how many. */
int mg_detect_steps(const double *sizes, const double *lat, size_t n, double min_ratio,
                    mg_switch *out, int max);

/* First index whose value is >= level while the one before is < level (a
 * change of protocol in post-delay work); n if none. */
size_t mg_detect_rise(const double *values, size_t n, double level);

#ifdef __cplusplus
}
#endif

#endif
