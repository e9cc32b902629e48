/* SPDX-License-Identifier: BSD-3-Clause */
/* A calibrated computation: real work the compiler cannot remove, for the
 * tests that put computation between communication calls (host overhead,
 * overlap, progress).
 *
 * mg_compute_spin(units) runs `units` steps of a 64-bit xorshift/multiply
 * chain and returns its final value; each step depends on the previous one,
 * so it cannot be vectorised or skipped, and it touches no memory. It never
 * yields the CPU (unlike sleep), so a library that needs the CPU to make
 * progress shows it.
 *
 * Calibration runs the spin for growing unit counts until one run lasts at
 * least target_s, then repeats that count `repeats` times. A busy loop can
 * only be slowed down by the machine, so the rate comes from the fastest
 * repeat; the calibration error is (slowest - fastest) / fastest, reported
 * in the run record: a busy machine shows up there.
 */
#ifndef MG_COMPUTE_H
#define MG_COMPUTE_H

#include "mg_policy.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double units_per_s; /* calibrated rate */
    double rel_error;   /* (slowest - fastest) / fastest repeat */
    uint64_t units;     /* unit count of one calibration run */
    double run_s;       /* duration of the fastest calibration run */
} mg_compute_calib;

/* The work itself; the seed makes the chain differ between calls. */
uint64_t mg_compute_spin(uint64_t units, uint64_t seed);

/* The spin to time: mg_compute_spin, or a stand-in for tests. */
typedef uint64_t (*mg_spin_fn)(uint64_t units, uint64_t seed);

/* Calibrate. 0, or -EINVAL if the clock never advanced. */
int mg_compute_calibrate(mg_compute_calib *c, mg_clock clock, mg_spin_fn spin, double target_s,
                         int repeats);

/* Units that take `seconds` at the calibrated rate (rounded, >= 0). */
uint64_t mg_compute_units(const mg_compute_calib *c, double seconds);

#ifdef __cplusplus
}
#endif

#endif
