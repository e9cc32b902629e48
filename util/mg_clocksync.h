/* SPDX-License-Identifier: BSD-3-Clause */
/* Clock offsets from ping-pong probes (the --sync window mode of the
 * driver, ReproMPI/SKaMPI style).
 *
 * A probe is one round trip from the reference rank: it reads its clock
 * (send_s), the remote rank answers with its own clock (remote_s), the
 * reference reads its clock again (recv_s). Assuming the remote read happened
 * half-way through the round trip, the remote clock is ahead of the reference
 * by remote_s - (send_s + recv_s) / 2, with an error of at most half the round
 * trip. The probe with the smallest round trip bounds the error most tightly
 * (the minimum-RTT method), so that one is used. Pure C, no MPI.
 */
#ifndef MG_CLOCKSYNC_H
#define MG_CLOCKSYNC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double send_s, remote_s, recv_s;
} mg_clock_probe;

/* Offset (remote clock minus reference clock) and round trip of the probe
 * with the smallest round trip. 0, or -EINVAL (n == 0, or every probe has a
 * negative or non-finite round trip). */
int mg_clock_offset(const mg_clock_probe *probes, size_t n, double *offset_s, double *rtt_s);

#ifdef __cplusplus
}
#endif

#endif
