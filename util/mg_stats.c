/* SPDX-License-Identifier: BSD-3-Clause */
/* Statistics on raw samples: see mg_stats.h for the definitions. */
#include "mg_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mg_percentile_sorted(const double *sorted, size_t n, double p)
{
    double h, frac;
    size_t lo;

    if (p <= 0.0 || n == 1)
        return sorted[0];
    if (p >= 1.0)
        return sorted[n - 1];
    h = (double)(n - 1) * p;
    lo = (size_t)floor(h);
    frac = h - (double)lo;
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/* log of the Binomial(n, 1/2) probability of k. */
static double log_binom_half(size_t n, size_t k)
{
    return lgamma((double)n + 1.0) - lgamma((double)k + 1.0) - lgamma((double)(n - k) + 1.0) -
           (double)n * log(2.0);
}

void mg_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi, double *coverage)
{
    double alpha_half = (1.0 - level) / 2.0, cdf = 0.0, best_cov = 0.0;
    size_t best_r = 0; /* 1-based rank of the lower bound; 0: none reaches the level */

    /* [x(r), x(n+1-r)] misses the median with probability 2 P(B <= r-1);
     * keep the largest r (the narrowest interval) that still has the level. */
    for (size_t r = 1; 2 * r <= n + 1; ++r) {
        cdf += exp(log_binom_half(n, r - 1));
        if (cdf > alpha_half)
            break;
        best_r = r;
        best_cov = 1.0 - 2.0 * cdf;
    }
    if (best_r == 0) {
        *lo = 0;
        *hi = n - 1;
        best_cov = 1.0 - 2.0 * exp(log_binom_half(n, 0));
        *coverage = best_cov > 0.0 ? best_cov : 0.0;
        return;
    }
    *lo = best_r - 1;
    *hi = n - best_r;
    *coverage = best_cov;
}

double mg_stats_rel_halfwidth(const mg_stats *s)
{
    if (s->median == 0.0)
        return INFINITY;
    return (s->ci95_high - s->ci95_low) / 2.0 / fabs(s->median);
}

int mg_stats_compute_sorted(const double *x, size_t n, mg_stats *out)
{
    double sum = 0.0, mean, m2 = 0.0;
    size_t lo, hi;
    double cov;

    if (n == 0)
        return -EINVAL;
    for (size_t i = 0; i < n; ++i) {
        if (!isfinite(x[i]))
            return -EINVAL;
        sum += x[i];
    }
    mean = sum / (double)n;
    for (size_t i = 0; i < n; ++i)
        m2 += (x[i] - mean) * (x[i] - mean);

    memset(out, 0, sizeof *out);
    out->n = n;
    out->min = x[0];
    out->max = x[n - 1];
    out->mean = mean;
    out->stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
    out->p50 = mg_percentile_sorted(x, n, 0.50);
    out->p90 = mg_percentile_sorted(x, n, 0.90);
    out->p99 = mg_percentile_sorted(x, n, 0.99);
    out->median = out->p50;
    mg_median_ci_ranks(n, 0.95, &lo, &hi, &cov);
    out->ci95_low = x[lo];
    out->ci95_high = x[hi];
    return 0;
}

int mg_stats_compute(const double *x, size_t n, mg_stats *out)
{
    return mg_stats_compute_pct(x, n, NULL, 0, NULL, out);
}

int mg_stats_compute_pct(const double *x, size_t n, const double *pct, int npct, double *pct_out,
                         mg_stats *out)
{
    double *s;
    int rc;

    if (n == 0)
        return -EINVAL;
    /* reject NaN before qsort: cmp_double is no total order with NaN */
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(x[i]))
            return -EINVAL;
    s = malloc(n * sizeof *s);
    if (s == NULL)
        return -ENOMEM;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    rc = mg_stats_compute_sorted(s, n, out);
    for (int i = 0; rc == 0 && i < npct; ++i)
        pct_out[i] = mg_percentile_sorted(s, n, pct[i] / 100.0);
    free(s);
    return rc;
}
