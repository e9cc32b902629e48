#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A tuning file from a knob sweep, confirmed (doc/tuning.md): for one build
# (openmpi or mpich, default openmpi), an interleaved sweep of the algorithms
# of allreduce, bcast and alltoall at 4 ranks (`mpigauge run --configs`, the
# library's own choice as configuration "default"), `mpigauge best --export`
# of the best algorithm per size, then a confirming run, default against
# tuned, interleaved, and its verdicts (`mpigauge compare`). Keeps its files
# in OUTDIR (default bench/_build/tuning-BUILD). MPICH 5 serves allreduce,
# bcast and reduce on one node with its POSIX module's own algorithms first,
# so its sweep and confirmation run with MPIR_CVAR_DEVICE_COLLECTIVES=none
# (doc/tuning.md).
#   bench/tuning.sh [openmpi|mpich|openmpi-5.0.11|mpich-5.0.2] [SWEEP_ROUNDS]
#                   [CONFIRM_ROUNDS] [OUTDIR]    (defaults 8 and 12)
# Environment: MG_TUNING_RANKS (default 4).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-openmpi}
sweep_rounds=${2:-8}
confirm_rounds=${3:-12}
out=${4:-$root/bench/_build/tuning-$build}
fe=$root/_build/$build/frontend/mpigauge
[ -x "$fe" ] || { echo "$0: build _build/$build first (scripts/build.sh $build)" >&2; exit 2; }
np=${MG_TUNING_RANKS:-4}
mkdir -p "$out"
common="" envline=""
case $build in
mpich-5* | mpich5*)
    common="MPIR_CVAR_DEVICE_COLLECTIVES=none"
    envline='env = { MPIR_CVAR_DEVICE_COLLECTIVES = "none" }'
    ;;
esac
case $build in
openmpi*)
    kind=ompi-rules
    sizes=8,64,512,4K,32K,256K,1M
    cat >"$out/sweep.toml" <<EOF
[defaults]
bindir = "$root/_build/$build"
[[config]]
label = "default"
[[sweep]]
label = "allreduce-{value}"
var = "OMPI_MCA_coll_tuned_allreduce_algorithm"
values = ["recursive_doubling", "ring", "nonoverlapping", "rabenseifner"]
env = { OMPI_MCA_coll_tuned_use_dynamic_rules = "1" }
[[sweep]]
label = "bcast-{value}"
var = "OMPI_MCA_coll_tuned_bcast_algorithm"
values = ["basic_linear", "binomial", "scatter_allgather"]
env = { OMPI_MCA_coll_tuned_use_dynamic_rules = "1" }
[[sweep]]
label = "alltoall-{value}"
var = "OMPI_MCA_coll_tuned_alltoall_algorithm"
values = ["linear", "pairwise", "modified_bruck"]
env = { OMPI_MCA_coll_tuned_use_dynamic_rules = "1" }
EOF
    ;;
mpich*)
    kind=mpich-json
    # MPICH 4 polls: four ranks on two cores crawl, so fewer sizes
    sizes=8,512,32K,256K
    cat >"$out/sweep.toml" <<EOF
[defaults]
bindir = "$root/_build/$build"
$envline
[[config]]
label = "default"
[[sweep]]
label = "allreduce-{value}"
var = "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM"
values = ["recursive_doubling", "reduce_scatter_allgather"]
[[sweep]]
label = "bcast-{value}"
var = "MPIR_CVAR_BCAST_INTRA_ALGORITHM"
values = ["binomial", "scatter_recursive_doubling_allgather", "scatter_ring_allgather"]
[[sweep]]
label = "alltoall-{value}"
var = "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM"
values = ["brucks", "pairwise", "scattered"]
EOF
    ;;
*) echo "$0: openmpi or mpich (a build of _build/)" >&2; exit 2 ;;
esac
for op in allreduce bcast alltoall; do
    echo "ranks=$np $op -m $sizes --time-budget 0.02"
done >"$out/suite.txt"
"$fe" run -q --suite "$out/suite.txt" --configs "$out/sweep.toml" --rounds "$sweep_rounds" \
    -o "$out/sweep.jsonl" --force >&2
"$fe" best "$out/sweep.jsonl" --export "$kind" "$out/tuned.$kind" | tee "$out/export.txt"
"$fe" run -q --suite "$out/suite.txt" --config "default bindir=$root/_build/$build $common" \
    --config "tuned bindir=$root/_build/$build tuning=$out/tuned.$kind $common" \
    --rounds "$confirm_rounds" -o "$out/confirm.jsonl" --force >&2
"$fe" compare "$out/confirm.jsonl" default tuned --format markdown 2>/dev/null \
    | tee "$out/confirm.md"
