#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# One progress poll's cost per release, without mpigauge (doc/releases.md,
# MPICH's one-sided series): bench/progress_poll.c built with each
# installation's own mpicc, run on 2 ranks, the installations taking turns
# launch by launch for R rounds. Prints one line per launch:
#   NAME  flush_empty NS  iprobe NS  put8_flush NS  put8_of_64 NS  mallocs_per_put M
#   bench/progress_by_release.sh R PREFIX...
#   e.g. bench/progress_by_release.sh 5 ~/.cache/mpigauge/mpi/mpich-4.2.3 ~/.cache/mpigauge/mpi/mpich-4.3.1
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/release_cc.sh"
case ${1:-} in '' | *[!0-9]*) echo "usage: progress_by_release.sh ROUNDS PREFIX..." >&2; exit 2 ;; esac
rounds=$1
shift
[ $# -ge 1 ] || { echo "usage: progress_by_release.sh ROUNDS PREFIX..." >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for p in "$@"; do
    release_cc progress_by_release.sh "$p" -O2 -o "$work/$(basename "$p")" "$top/bench/progress_poll.c"
done
r=1
while [ "$r" -le "$rounds" ]; do
    for p in "$@"; do
        out=$(I_MPI_ROOT=$p timeout 120 "$p/bin/mpiexec" -n 2 "$work/$(basename "$p")" | grep '^flush') ||
            out="failed"
        printf '%-16s %s\n' "$(basename "$p")" "$out"
    done
    r=$((r + 1))
done
