#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The guidelines study of doc/collectives.md: `mpigauge guidelines run` for
# Debian's Open MPI 4.1.4 at 2, 4 and 8 ranks and MPICH 4.0.2 at 2 ranks
# (MPICH busy-polls: more ranks than the 2 cores measure the scheduler),
# and the newest releases of the catalogue the same way (Open MPI 5.0.11
# at 2, 4, 8 through the 4.1.4 build; MPICH 5.0.2 at 2 through the family
# build made with 3.4.3), 10 rounds each, 64 B - 64 KiB; then each
# violation's minimal program (bench/guideline_repro.c, plain MPI) for the
# four rules it covers at 64 B, 4 KiB and 64 KiB, 3 launches each with the
# sides alternating call by call and 3 with them in blocks (mpigauge's
# order), under every library at 2 ranks. Results and reports in OUT.
#   bench/guidelines_study.sh [OUT]     (about 40 minutes here)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-results/guidelines/study}
M=$top/frontend/mpigauge.py
cache=${MPIGAUGE_MPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mpigauge/mpi}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# LABEL BINDIR INSTALL("" Debian's) RANKS...
study() {
    local label=$1 bindir=$2 install=$3 n
    shift 3
    for n in "$@"; do
        local cfg=()
        [ -z "$install" ] || cfg=(--config "$label install=$install")
        echo "== $label, $n ranks"
        python3 "$M" guidelines run --bindir "$bindir" "${cfg[@]}" -n "$n" --rounds 10 \
            -m 64:64K -o "$out/$label-np$n.jsonl" --force -q \
            --report "$out/$label-np$n.txt" >/dev/null 2>"$out/$label-np$n.err"
        echo "exit $?: $(grep -m1 -i 'hold' "$out/$label-np$n.txt")"
    done
}
study openmpi-4.1.4 "$top/_build/openmpi" "" 2 4 8
study mpich-4.0.2 "$top/_build/mpich" "" 2
study openmpi-5.0.11 "$top/_build/openmpi" openmpi-5.0.11 2 4 8
study mpich-5.0.2 "$cache/builds/mpich-3.4.3" mpich-5.0.2 2

# the minimal programs: compiled with Debian's two compilers, run under the
# library each was compiled with and the newer release of its family
mpicc.openmpi -O2 -o "$out/repro-openmpi" "$top/bench/guideline_repro.c" || exit 1
mpicc.mpich -O2 -o "$out/repro-mpich" "$top/bench/guideline_repro.c" || exit 1
repro() { # LABEL PROGRAM LAUNCHER [ENV...]
    local label=$1 prog=$2 launcher=$3 rule n k order
    shift 3
    for rule in scan reduce gather allreduce; do
        for n in 64 4096 65536; do
            for k in 1 2 3; do
                for order in turns blocks; do
                    echo "$label $(env "$@" timeout 300 "$launcher" -n 2 "$prog" "$rule" "$n" 1000 \
                        "$order" 2>/dev/null)"
                done
            done
        done
    done
}
{
    repro openmpi-4.1.4 "$out/repro-openmpi" mpirun.openmpi
    repro mpich-4.0.2 "$out/repro-mpich" mpiexec.mpich
    repro openmpi-5.0.11 "$out/repro-openmpi" "$cache/openmpi-5.0.11/bin/mpirun" \
        LD_LIBRARY_PATH="$cache/openmpi-5.0.11/lib"
    repro mpich-5.0.2 "$out/repro-mpich" "$cache/mpich-5.0.2/bin/mpiexec" \
        LD_LIBRARY_PATH="$cache/mpich-5.0.2/lib"
} | tee "$out/repro.txt"
