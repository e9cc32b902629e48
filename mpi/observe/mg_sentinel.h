/* SPDX-License-Identifier: BSD-3-Clause */
/* Noise sentinels: a short fixed probe and the state of every node, taken
 * before and after a benchmark's sweep (--sentinel), so that a launch that
 * ran while the machine was slow or busy can be recognised and explained.
 *
 * The probe is an 8-byte ping-pong between rank 0 and its partner (the
 * benchmark's own pair; rank 1 when the benchmark has no pairing), 10 blocks
 * of 100 round trips after 100 warm-up ones, reported as the median block's
 * one-way time; and the rate of the calibrated computation (mg_compute_spin)
 * on every rank (mg_compute_calibrate: runs doubled until one lasts 2 ms,
 * then the fastest of 3), reported as its minimum
 * and maximum over ranks. The node state (util/mg_nodestate.h) is read by
 * the first rank of every node. Rank 0 hands one record
 *   {"type":"sentinel","phase":"before"|"after", ...}
 * to each of the given sinks (JSON ones write it; doc/output.md).
 * Collective over ctx->comm.
 */
#ifndef MG_SENTINEL_H
#define MG_SENTINEL_H

#include "mg_bench.h"
#include "mg_sink.h"

/* sink[0..nsinks): where rank 0 hands the record. */
void mg_sentinel_take(const mg_ctx *ctx, const char *phase, mg_sink *const *sink, int nsinks);

#endif
