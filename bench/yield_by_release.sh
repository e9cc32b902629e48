#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A change a series walk pinned, reproduced without mpigauge (doc/releases.md,
# "MPICH's series"): bench/bare_pt2pt.c (the simplest MPI ping-pong) built
# with each installation's own mpicc, 2 ranks on one node, 8-byte messages;
# for each installation, launch by launch, alternating: the one-way latency,
# and under `strace -f -c` the sched_yield system calls per message received.
#   bench/yield_by_release.sh LAUNCHES [NAME=]PREFIX...
#   e.g. bench/yield_by_release.sh 5 ~/.cache/mpigauge/mpi/mpich-4.3.2 ~/.cache/mpigauge/mpi/mpich-5.0.0
# A prefix holds bin/mpicc and bin/mpiexec (an MPICH-based installation,
# Intel MPI's too: I_MPI_ROOT is set to it; `mpigauge mpi list` shows where
# the catalogue's are); NAME (default the prefix's folder name) labels its
# rows. Needs strace.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/release_cc.sh"
n=$1
shift
iters=20000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix() { echo "${1#*=}"; }
label() { case $1 in *=*) echo "${1%%=*}" ;; *) basename "$1" ;; esac; }
k=0
for a in "$@"; do
    k=$((k + 1))
    p=$(prefix "$a")
    release_cc yield_by_release.sh "$p" -O2 -o "$work/b$k" "$top/bench/bare_pt2pt.c" -lm
done
echo "installation,launch,latency_us,sched_yield_per_message"
for i in $(seq "$n"); do
    k=0
    for a in "$@"; do
        k=$((k + 1))
        p=$(prefix "$a")
        export I_MPI_ROOT="$p"
        lat=$(timeout 120 "$p/bin/mpiexec" -n 2 -bind-to core "$work/b$k" lat "$iters" 1000 1 8 |
              awk -F, '$1 == "latency" {print $3}')
        rm -f "$work/st"
        timeout 300 "$p/bin/mpiexec" -n 2 strace -f -c -o "$work/st" "$work/b$k" lat "$iters" 1000 1 8 \
            >/dev/null 2>&1
        y=$(awk '$NF == "sched_yield" {print $4}' "$work/st")
        # messages received: both ranks, timed and warm-up iterations
        echo "$(label "$a"),$i,$lat,$(awk -v y="${y:-0}" -v m=$((2 * (iters + 1000))) 'BEGIN {printf "%.2f", y / m}')"
    done
done
