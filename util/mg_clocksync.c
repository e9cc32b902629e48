/* SPDX-License-Identifier: BSD-3-Clause */
/* Clock offsets from ping-pong probes: see mg_clocksync.h. */
#include "mg_clocksync.h"

#include <errno.h>
#include <math.h>

int mg_clock_offset(const mg_clock_probe *probes, size_t n, double *offset_s, double *rtt_s)
{
    size_t best = n;
    double best_rtt = INFINITY;
    for (size_t i = 0; i < n; ++i) {
        double rtt = probes[i].recv_s - probes[i].send_s;
        if (isfinite(rtt) && rtt >= 0.0 && isfinite(probes[i].remote_s) && rtt < best_rtt) {
            best_rtt = rtt;
            best = i;
        }
    }
    if (best == n)
        return -EINVAL;
    *rtt_s = best_rtt;
    *offset_s = probes[best].remote_s - 0.5 * (probes[best].send_s + probes[best].recv_s);
    return 0;
}
