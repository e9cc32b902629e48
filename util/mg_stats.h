/* SPDX-License-Identifier: BSD-3-Clause */
/* Statistics on raw samples, in double precision.
 *
 * Percentiles use linear interpolation between closest ranks (Hyndman & Fan
 * type 7, the default of R and NumPy): on the sorted samples x[0..n-1] the
 * p-quantile is x[h] interpolated at h = (n - 1) p. The median is p50.
 *
 * The 95% confidence interval of the median comes from order statistics: the
 * number of samples below the true median is Binomial(n, 1/2), so
 * [x(l), x(n+1-l)] (1-based) covers the median with probability
 * 1 - 2 P(B <= l - 1). l is the largest rank for which that coverage is at
 * least 95%. Below n = 6 no pair of order statistics reaches 95% and the
 * interval is [min, max] (its coverage is reported by mg_median_ci_ranks).
 *
 * The standard deviation is the sample standard deviation (n - 1 in the
 * denominator), 0 for one sample.
 */
#ifndef MG_STATS_H
#define MG_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t n;
    double min, max, mean, median, stddev;
    double p50, p90, p99;
    double ci95_low, ci95_high;
} mg_stats;

/* Statistics of x[0..n-1] (left unchanged). -EINVAL for n == 0 or a
 * non-finite sample, -ENOMEM if the sorted copy cannot be made. */
int mg_stats_compute(const double *x, size_t n, mg_stats *out);

/* Same, and the percentiles pct[0..npct-1] (in percent, 0..100) into
 * pct_out[0..npct-1]. */
int mg_stats_compute_pct(const double *x, size_t n, const double *pct, int npct, double *pct_out,
                         mg_stats *out);

/* Same, on samples already sorted ascending (no copy is made). */
int mg_stats_compute_sorted(const double *sorted, size_t n, mg_stats *out);

/* The p-quantile (0 <= p <= 1) of sorted[0..n-1], n >= 1. */
double mg_percentile_sorted(const double *sorted, size_t n, double p);

/* 0-based indices lo <= hi of the order statistics bounding the median's
 * confidence interval at the given level (0.95), and the exact coverage of
 * that interval. n >= 1. */
void mg_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi, double *coverage);

/* Half-width of the median CI relative to the median: the precision used by
 * the iteration policy. Infinite when the median is 0. */
double mg_stats_rel_halfwidth(const mg_stats *s);

#ifdef __cplusplus
}
#endif

#endif
