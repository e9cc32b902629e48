#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Reproducer of doc/releases.md's MPICH 5.0.2 finding, without mpigauge:
# bench/bare_pt2pt.c (the simplest MPI ping-pong) built with each MPICH-based
# library, 2 ranks on one node, 8-byte messages. For each library, launch
# by launch, alternating: the one-way latency, and under `strace -f -c` the
# sched_yield system calls per message received. MPICH 5.0.2 (PyPI) calls
# sched_yield about ten times per message while it waits in MPI_Recv; MPICH
# 4.0.2 and Intel MPI 2021.19.0 never do.
#   bench/mpich5_yield.sh [LAUNCHES]        (default 5 per library)
# Needs _mpi/ (scripts/setup-releases.sh), mpicc.mpich and strace.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-5}
iters=20000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
impi=$top/_mpi/impi-2021.19.0
mpich5=$top/_mpi/mpich-5.0.2
mpicc.mpich -O2 -o "$work/b-mpich-4.0.2" "$top/bench/bare_pt2pt.c" -lm 2>/dev/null
"$mpich5/bin/mpicc" -O2 -o "$work/b-mpich-5.0.2" "$top/bench/bare_pt2pt.c" -lm 2>/dev/null
I_MPI_ROOT=$impi "$impi/bin/mpicc" -O2 -o "$work/b-impi-2021.19.0" "$top/bench/bare_pt2pt.c" -lm 2>/dev/null
launcher() {
    case $1 in
    mpich-4.0.2) echo /usr/bin/mpiexec.mpich ;;
    mpich-5.0.2) echo "$mpich5/bin/mpiexec" ;;
    impi-2021.19.0) echo "$impi/bin/mpiexec" ;;
    esac
}
echo "library,launch,latency_us,sched_yield_per_message"
for i in $(seq "$n"); do
    for lib in mpich-4.0.2 mpich-5.0.2 impi-2021.19.0; do
        l=$(launcher $lib)
        lat=$(timeout 120 "$l" -n 2 -bind-to core "$work/b-$lib" lat "$iters" 1000 1 8 |
              awk -F, '$1 == "latency" {print $3}')
        rm -f "$work/st"
        timeout 300 "$l" -n 2 strace -f -c -o "$work/st" "$work/b-$lib" lat "$iters" 1000 1 8 \
            >/dev/null 2>&1
        y=$(awk '$NF == "sched_yield" {print $4}' "$work/st")
        # messages received: both ranks, timed and warm-up iterations
        echo "$lib,$i,$lat,$(awk -v y="${y:-0}" -v m=$((2 * (iters + 1000))) 'BEGIN {printf "%.2f", y / m}')"
    done
done
