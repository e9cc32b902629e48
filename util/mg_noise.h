/* SPDX-License-Identifier: BSD-3-Clause */
/* Injected noise (--noise period:US,len:US, doc/collectives.md): while a
 * size's calls are timed, every rank takes a detour of len us every period
 * us (a timer signal whose handler spins), each rank's first detour at its
 * own offset in the period so that the ranks' detours do not line up, as
 * an operating system's daemons and interrupts do not. A collective that
 * needs every rank at every step pays for every rank's detours; one that
 * does not absorbs them. POSIX, no MPI.
 */
#ifndef MG_NOISE_H
#define MG_NOISE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double period_us; /* 0: no noise */
    double len_us;
} mg_noise;

/* Parse SPEC (NULL or "none": no noise): "period:US,len:US" with len below
 * the period. 0, or -1 with the reason in err. */
int mg_noise_parse(const char *spec, mg_noise *out, char *err, size_t errlen);

/* The first detour's offset in seconds of `rank` (in [0, period)). */
double mg_noise_phase_s(const mg_noise *n, int rank);

/* Start the detours of this process (rank: its phase). 0, or -1 (errno)
 * when the timer or the handler cannot be set. No-op without noise. */
int mg_noise_start(const mg_noise *n, int rank);

/* Stop them; the detours taken since the start. */
unsigned long mg_noise_stop(void);

#ifdef __cplusplus
}
#endif

#endif
