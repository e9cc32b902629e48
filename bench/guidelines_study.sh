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
#   bench/guidelines_study.sh [OUT [LABEL...]]   (about 40 minutes here)
# With LABELs, only those libraries' guideline runs (no minimal programs).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-results/guidelines/study}
[ $# -le 1 ] || { shift; only="$*"; }
M=$top/frontend/mpigauge.py
cache=${MPIGAUGE_MPI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mpigauge/mpi}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# LABEL BINDIR PREFIX("" Debian's) RANKS...: a release of the catalogue
# runs the family's build under its own launcher, with its library first on
# the front-end's LD_LIBRARY_PATH too (which the launcher check reads), and
# the binding mpigauge gives its own launches (core, none when
# oversubscribed)
study() {
    local label=$1 bindir=$2 prefix=$3 n
    shift 3
    case " ${only:-$label} " in *" $label "*) ;; *) return 0 ;; esac
    for n in "$@"; do
        local how=() lib=${LD_LIBRARY_PATH:-}
        if [ -n "$prefix" ]; then
            lib=$prefix/lib
            case $label in
            openmpi*)
                local over=(--bind-to core)
                [ "$n" -le "$(nproc)" ] || over=(--map-by :OVERSUBSCRIBE --bind-to none)
                how=(--launcher "$prefix/bin/mpirun -x LD_LIBRARY_PATH ${over[*]} -n {n}") ;;
            *) how=(--launcher "$prefix/bin/mpiexec.hydra -bind-to core -n {n}") ;;
            esac
        fi
        echo "== $label, $n ranks"
        LD_LIBRARY_PATH=$lib python3 "$M" guidelines run --bindir "$bindir" "${how[@]}" -n "$n" \
            --rounds 10 -m 64:64K -o "$out/$label-np$n.jsonl" --force -q \
            --report "$out/$label-np$n.txt" >/dev/null 2>"$out/$label-np$n.err"
        echo "exit $?: $(grep -m1 -i 'hold' "$out/$label-np$n.txt")"
    done
}
study openmpi-4.1.4 "$top/_build/openmpi" "" 2 4 8
study mpich-4.0.2 "$top/_build/mpich" "" 2
study openmpi-5.0.11 "$top/_build/openmpi" "$cache/openmpi-5.0.11" 2 4 8
study mpich-5.0.2 "$cache/builds/mpich-3.4.3" "$cache/mpich-5.0.2" 2
[ -z "${only:-}" ] || exit 0

# the minimal programs: compiled with Debian's two compilers, run under the
# library each was compiled with; Open MPI 5.0.11 runs Debian's Open MPI
# build (the same libmpi.so.40), MPICH 5.0.2 a build with its own mpicc
# (Debian's is linked to libmpich.so.12, which the PyPI release does not
# have: it would load Debian's 4.0.2). Each launch's first line names the
# library it loaded.
mpicc.openmpi -O2 -o "$out/repro-openmpi" "$top/bench/guideline_repro.c" || exit 1
mpicc.mpich -O2 -o "$out/repro-mpich" "$top/bench/guideline_repro.c" || exit 1
"$cache/mpich-5.0.2/bin/mpicc" -O2 -o "$out/repro-mpich-5.0.2" "$top/bench/guideline_repro.c" ||
    exit 1
# each rule at each size, 3 launches in turns and 3 in blocks: LABEL
# PROGRAM "LAUNCHER ARGS" RANKS "RULE:BYTES..." [ENV...]
repro_at() {
    local label=$1 prog=$2 launcher=$3 np=$4 items=$5 item k order
    shift 5
    for item in $items; do
        for k in 1 2 3; do
            for order in turns blocks; do
                # shellcheck disable=SC2086 # the launcher's words
                env "$@" timeout 300 $launcher -n "$np" "$prog" "${item%%:*}" "${item#*:}" 1000 \
                    "$order" 2>/dev/null | sed "s|^|$label |"
            done
        done
    done
}
# the four rules at three sizes each, 2 ranks: LABEL PROGRAM LAUNCHER [ENV...]
repro() {
    local label=$1 prog=$2 launcher=$3 items="" rule n
    shift 3
    for rule in scan reduce gather allreduce; do
        for n in 64 4096 65536; do items="$items $rule:$n"; done
    done
    repro_at "$label" "$prog" "$launcher" 2 "$items" "$@"
}
{
    repro openmpi-4.1.4 "$out/repro-openmpi" mpirun.openmpi
    repro mpich-4.0.2 "$out/repro-mpich" mpiexec.mpich
    repro openmpi-5.0.11 "$out/repro-openmpi" "$cache/openmpi-5.0.11/bin/mpirun" \
        LD_LIBRARY_PATH="$cache/openmpi-5.0.11/lib"
    repro mpich-5.0.2 "$out/repro-mpich-5.0.2" "$cache/mpich-5.0.2/bin/mpiexec" \
        LD_LIBRARY_PATH="$cache/mpich-5.0.2/lib"
} | tee "$out/repro.txt"
# MPICH 5.0.2's violations, under both MPICH releases
mpich5="reduce:128 scatter-bcast:256 gather-reduce:256 allgather-allreduce:256 rsb-allreduce:256"
{
    repro_at openmpi-4.1.4 "$out/repro-openmpi" mpirun.openmpi 2 \
        "reduce:128 reduce:256 gather:256 allreduce:8192 allreduce:16384"
    repro_at openmpi-4.1.4 "$out/repro-openmpi" "mpirun.openmpi --oversubscribe" 4 \
        "allreduce:8192 allreduce:32768 allreduce:65536 scatter:256 scatter:1024 allgather:8192"
    repro_at mpich-4.0.2 "$out/repro-mpich" mpiexec.mpich 2 \
        "allreduce:256 reduce:32768 allgather:65536 $mpich5"
    repro_at mpich-5.0.2 "$out/repro-mpich-5.0.2" "$cache/mpich-5.0.2/bin/mpiexec" 2 "$mpich5" \
        LD_LIBRARY_PATH="$cache/mpich-5.0.2/lib"
} | tee "$out/repro-sizes.txt"

# the scan finding under every algorithm the two libraries can force for
# MPI_Scan (2 ranks, 8 rounds): does any hold?
scan_forced() { # LABEL BINDIR CONFIG...
    local label=$1 bindir=$2
    shift 2
    local cfg=() c
    for c in "$@"; do cfg+=(--config "$c"); done
    python3 "$M" guidelines run --bindir "$bindir" -n 2 --rounds 8 -m 64:64K \
        --rules scan_as_exscan_then_reduce_local "${cfg[@]}" -o "$out/scan-$label.jsonl" \
        --force -q --show all --report "$out/scan-$label.txt" >/dev/null 2>"$out/scan-$label.err"
    echo "scan, $label: exit $?"
}
dyn=OMPI_MCA_coll_tuned_use_dynamic_rules=1
scan_forced openmpi-4.1.4 "$top/_build/openmpi" default \
    "linear $dyn OMPI_MCA_coll_tuned_scan_algorithm=1" \
    "recursive_doubling $dyn OMPI_MCA_coll_tuned_scan_algorithm=2"
scan_forced mpich-4.0.2 "$top/_build/mpich" auto \
    "recursive_doubling MPIR_CVAR_SCAN_INTRA_ALGORITHM=recursive_doubling" \
    "nb MPIR_CVAR_SCAN_INTRA_ALGORITHM=nb"
