#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# MPI_Bcast after a whole MPI_T session, per release, without mpigauge
# (doc/releases.md): bench/mpit_finalize_bcast.c built with each
# installation's own mpicc and run on 2 ranks, plain and with a second
# MPI_T reference open ("nested"). Prints one line per installation:
#   NAME  plain: ok|crash  nested: ok|crash
#   bench/mpit_bcast_by_release.sh PREFIX...
#   e.g. bench/mpit_bcast_by_release.sh ~/.cache/mpigauge/mpi/mpich-*
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/release_cc.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
one() { # launcher program [arg]
    if timeout 60 "$@" 2>&1 | grep -q "bcast ok"; then echo ok; else echo crash; fi
}
for p in "$@"; do
    exe=$work/$(basename "$p")
    release_cc mpit_bcast_by_release.sh "$p" -o "$exe" "$top/bench/mpit_finalize_bcast.c"
    printf '%-16s plain: %-5s  nested: %s\n' "$(basename "$p")" \
        "$(I_MPI_ROOT=$p one "$p/bin/mpiexec" -n 2 "$exe")" \
        "$(I_MPI_ROOT=$p one "$p/bin/mpiexec" -n 2 "$exe" nested)"
done
