#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The instrument's own error rates on this machine, for both MPI builds:
# `mpigauge selftest` (A/A false alarms; detection of an injected 10% and 3%
# slowdown per size; the rounds 19 detections in 20 need), every trial an
# interleaved run of four configurations of one build with bench/libmgslow.so.
#   bench/selftest.sh [openmpi|mpich ...]       (default: both)
# Environment: MG_SELFTEST_ARGS (default "--trials 20 --rounds 20"),
# MG_SELFTEST_OUT (default bench/_build/selftest). Takes 27 (MPICH) to 32
# (Open MPI) minutes per build at the default on 2 cores. Results: OUT/<mpi>/selftest.json and the
# printed tables (doc/compare.md has this machine's).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${MG_SELFTEST_OUT:-$root/bench/_build/selftest}
args=${MG_SELFTEST_ARGS:---trials 20 --rounds 20}
status=0
for mpi in ${*:-openmpi mpich}; do
    "$root/scripts/build.sh" "$mpi" >/dev/null
    echo "== $mpi"
    # shellcheck disable=SC2086
    python3 "$root/frontend/mpigauge.py" selftest --bindir "$root/_build/$mpi" \
        -o "$out/$mpi" $args || status=1
done
exit $status
