/* SPDX-License-Identifier: BSD-3-Clause */
/* Calibrated computation: see mg_compute.h. */
#include "mg_compute.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#define MG_COMPUTE_MAX_REPEATS 64

uint64_t mg_compute_spin(uint64_t units, uint64_t seed)
{
    uint64_t x = seed | 1;
    for (uint64_t i = 0; i < units; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x *= UINT64_C(0x2545F4914F6CDD1D);
    }
    return x;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int mg_compute_calibrate(mg_compute_calib *c, mg_clock clock, mg_spin_fn spin, double target_s,
                         int repeats)
{
    double sorted[MG_COMPUTE_MAX_REPEATS], best, worst;
    uint64_t units = 1, sink = 0;
    double dt = 0.0;

    if (repeats < 1)
        repeats = 1;
    if (repeats > MG_COMPUTE_MAX_REPEATS)
        repeats = MG_COMPUTE_MAX_REPEATS;
    for (;;) {
        double t0 = clock.now_s(clock.ctx);
        sink += spin(units, sink + units);
        dt = clock.now_s(clock.ctx) - t0;
        if (dt >= target_s)
            break;
        if (units > (UINT64_C(1) << 50))
            return -EINVAL; /* the clock does not advance */
        units *= 2;
    }
    for (int i = 0; i < repeats; ++i) {
        double t0 = clock.now_s(clock.ctx);
        sink += spin(units, sink + (uint64_t)i);
        sorted[i] = clock.now_s(clock.ctx) - t0;
    }
    qsort(sorted, (size_t)repeats, sizeof sorted[0], cmp_double);
    /* A busy loop is only ever slowed down (preemption, a noisy neighbour):
     * the fastest repeat is the best estimate of its rate. */
    best = sorted[0];
    if (!(best > 0.0))
        return -EINVAL;
    worst = (sorted[repeats - 1] - best) / best;
    c->units = units;
    c->run_s = best;
    c->units_per_s = (double)units / best;
    c->rel_error = worst;
    /* keep the result observable so the spins cannot be removed */
    if (sink == UINT64_C(0x5eed))
        c->rel_error += 0.0;
    return 0;
}

uint64_t mg_compute_units(const mg_compute_calib *c, double seconds)
{
    double u = seconds * c->units_per_s;
    if (!(u > 0.0))
        return 0;
    return (uint64_t)llround(u);
}
