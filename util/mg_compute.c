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
    double t[MG_COMPUTE_MAX_REPEATS], sorted[MG_COMPUTE_MAX_REPEATS], med, worst = 0.0;
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
        t[i] = clock.now_s(clock.ctx) - t0;
        sorted[i] = t[i];
    }
    qsort(sorted, (size_t)repeats, sizeof sorted[0], cmp_double);
    med = repeats % 2 ? sorted[repeats / 2]
                      : 0.5 * (sorted[repeats / 2 - 1] + sorted[repeats / 2]);
    if (!(med > 0.0))
        return -EINVAL;
    for (int i = 0; i < repeats; ++i)
        worst = fmax(worst, fabs(t[i] - med) / med);
    c->units = units;
    c->run_s = med;
    c->units_per_s = (double)units / med;
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
