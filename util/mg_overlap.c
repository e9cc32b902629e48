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

int mg_detect_steps(const double *sizes, const double *lat, size_t n, double min_ratio,
                    mg_switch *out, int max)
{
    int found = 0;
    for (size_t i = 1; i < n && found < max; ++i) {
        double pred = lat[i - 1];
        if (i >= 2 && sizes[i - 1] > sizes[i - 2]) {
            double slope = (lat[i - 1] - lat[i - 2]) / (sizes[i - 1] - sizes[i - 2]);
            if (slope > 0.0)
                pred += slope * (sizes[i] - sizes[i - 1]);
        }
        if (pred > 0.0 && lat[i] >= min_ratio * pred) {
            out[found].index = i;
            out[found].ratio = lat[i] / pred;
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
