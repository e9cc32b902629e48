/* SPDX-License-Identifier: BSD-3-Clause */
/* Message sizes and size sweeps.
 *
 * Sizes are byte counts written in decimal with an optional binary suffix
 * (K = 2^10, M = 2^20, G = 2^30, upper or lower case). A sweep is either
 * OSU's "[MIN:]MAX" range (MIN, then doubling while <= MAX; from 0 the next
 * size is 1) or an explicit comma-separated list ("8,64,1K,1M") kept in the
 * order given. Every malformed input is an error with a message: nothing is
 * silently clamped or skipped.
 *
 * Functions return 0 on success or a negative errno value and write a
 * one-line message into err. They never print or exit.
 */
#ifndef MG_SIZE_H
#define MG_SIZE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest size accepted anywhere (2^48 bytes): far above any real message,
 * far below anything that can overflow size arithmetic. */
#define MG_SIZE_LIMIT (UINT64_C(1) << 48)

typedef struct {
    uint64_t *sizes_bytes; /* owned; free with mg_sweep_free */
    size_t n;
} mg_sweep;

/* Parse one size ("4096", "4K", "1m"). */
int mg_size_parse(const char *text, uint64_t *out_bytes, char *err, size_t errlen);

/* Parse a sweep. min_allowed is the smallest legal size (0 or 1);
 * default_min/default_max fill a missing MIN or MAX ("1M", "4:"). */
int mg_sweep_parse(const char *spec, uint64_t min_allowed, uint64_t default_min,
                   uint64_t default_max, mg_sweep *out, char *err, size_t errlen);

/* The largest size in the sweep (0 for an empty sweep). */
uint64_t mg_sweep_max(const mg_sweep *sw);

void mg_sweep_free(mg_sweep *sw);

/* Human form of a size: exact binary multiples get a suffix ("4K", "1M"),
 * anything else is plain decimal. Returns snprintf's result. */
int mg_size_format(uint64_t bytes, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
