/* SPDX-License-Identifier: BSD-3-Clause */
/* Overlap and progress arithmetic: see mg_overlap.h. */
#include "mg_overlap.h"

static double clamp01(double x) { return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

double mg_overlap_compute(int m, double l0, double step) { return (double)m * step * l0; }

int mg_overlap_stop(double l0, double lm_ci_low, double factor) { return lm_ci_low >= factor * l0; }

double mg_overlap_ratio(double l0, double lm, double cm)
{
    return l0 > 0.0 ? clamp01((cm - (lm - l0)) / l0) : 0.0;
}

double mg_post_delay_work(double l0, double ld, double d)
{
    return l0 > 0.0 ? clamp01((ld - d) / l0) : 0.0;
}

int mg_progress_grows(double l0, double ld, double d) { return d > 0.0 && ld - l0 >= d / 2.0; }

/* The per-byte slope from point a to point b, never negative (0: flat). */
static double slope_of(const double *sizes, const double *lat, size_t a, size_t b)
{
    if (sizes[b] <= sizes[a] || lat[b] <= lat[a])
        return 0.0;
    return (lat[b] - lat[a]) / (sizes[b] - sizes[a]);
}

int mg_detect_steps(const double *sizes, const double *lat, size_t n, double min_ratio,
                    mg_switch *out, int max)
{
    int found = 0;
    for (size_t i = 1; i < n && found < max; ++i) {
        double gap = sizes[i] - sizes[i - 1];
        /* forward: the old path's trend, carried up to this point */
        double fwd = lat[i - 1] + (i >= 2 ? slope_of(sizes, lat, i - 2, i - 1) * gap : 0.0);
        double ratio = fwd > 0.0 ? lat[i] / fwd : 0.0;
        /* back: the new path's trend, carried down to the point before */
        if (i + 1 < n && lat[i - 1] > 0.0) {
            double back = lat[i] - slope_of(sizes, lat, i, i + 1) * gap;
            if (back / lat[i - 1] > ratio)
                ratio = back / lat[i - 1];
        }
        if (ratio >= min_ratio) {
            out[found].index = i;
            out[found].ratio = ratio;
            found++;
        }
    }
    return found;
}

size_t mg_detect_rise(const double *values, size_t n, double level)
{
    for (size_t i = 1; i < n; ++i)
        if (values[i - 1] < level && values[i] >= level)
            return i;
    return n;
}
