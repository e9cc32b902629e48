#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The software cost of one call in each MPI library, in instructions
# (valgrind's callgrind counts instructions, not seconds: the same on a busy
# or a quiet machine): rank 0 of `mpigauge_bw -m 8` (MPI_Isend, and the
# ack's MPI_Recv) and of `mpigauge_put_latency -m 8` (MPI_Put, and
# MPI_Win_flush), per call, inclusive of what each calls. doc/releases.md
# explains the small-message differences between the libraries with it.
#   bench/call_cost.sh [BUILD...]   (default: openmpi-5.0.11 mpich-5.0.2 impi-2021.19.0)
# Needs the builds (scripts/build.sh NAME) and valgrind.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
builds=${*:-openmpi-5.0.11 mpich-5.0.2 impi-2021.19.0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fe="python3 $top/frontend/mpigauge.py"
echo "build,call,calls,instructions_per_call"
for b in $builds; do
    for prog in bw put_latency; do
        p=$top/_build/$b/pt2pt/mpigauge_$prog
        [ -x "$p" ] || p=$top/_build/$b/onesided/mpigauge_$prog
        # the launcher of the library the program loads (as mpigauge run finds it)
        launcher=$($fe run --dry-run --suite "$top/frontend/suites/quick.txt" --bindir \
                   "$top/_build/$b" 2>/dev/null | head -n 1 | awk '{print $1}')
        rm -f "$work"/cg.*
        timeout 900 "$launcher" -n 2 valgrind --tool=callgrind --callgrind-out-file="$work/cg.%p" \
            "$p" -m 8 -i 2000 -x 10 >/dev/null 2>&1 || true
        # both ranks: the sender's MPI_Isend / MPI_Put, the receiver's MPI_Irecv
        for f in $(ls "$work"/cg.* | sort -t. -k2 -n); do
        callgrind_annotate --inclusive=yes "$f" 2>/dev/null | awk -v b="$b" '
            /PMPI_Isend |PMPI_Irecv |PMPI_Put |PMPI_Win_flush |MPI_Isend |MPI_Irecv |MPI_Put |MPI_Win_flush / &&
            /=>/ {
                gsub(",", "", $1); n = $0; sub(/.*\(/, "", n); sub(/x\).*/, "", n); gsub(",", "", n)
                name = $0; sub(/.*=> [^:]*:/, "", name); sub(/ .*/, "", name)
                if (n + 0 > 0 && !seen[name]++) printf "%s,%s,%d,%.0f\n", b, name, n, $1 / n
            }'
        done
    done
done
