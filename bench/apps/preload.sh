#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Run "$@" with MG_BENCH_PRELOAD added to LD_PRELOAD when it is set: a
# configuration of `mpigauge app` that differs from another only by the
# profiler in the program (not in the launcher), for bench/profile_overhead.sh.
if [ -n "${MG_BENCH_PRELOAD:-}" ]; then
    LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD }$MG_BENCH_PRELOAD"
    export LD_PRELOAD
fi
exec "$@"
