#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The main job: install what is missing, build, run the default suite
# (latency, bw, bibw) on 2 local ranks, print the tables, write the results
# (JSON Lines), a plot (PNG) and a report page (HTML) under
# results/<UTC time>-<mpi>/, and end with the headline figures (latency at
# the smallest message, peak bandwidths, each with its 95% CI) and where
# the files are.
#   scripts/run.sh [openmpi|mpich]      (default openmpi)
# Environment: MG_RUN_ARGS adds options to every benchmark (for example
# MG_RUN_ARGS="--time-budget 2 --precision 0.5%" for a longer, tighter run).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-openmpi}
"$root/scripts/setup-deps.sh"
. "$root/scripts/python-env.sh"
"$root/scripts/build.sh" "$flavour"

case "$flavour" in
    openmpi)
        launch="mpirun.openmpi -n 2 --bind-to core"
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM ;;
    mpich) launch="mpiexec.mpich -n 2 -bind-to core" ;;
esac
bin="$root/_build/$flavour/pt2pt"
out="$root/results/$(date -u +%Y%m%dT%H%M%SZ)-$flavour"
mkdir -p "$out"
args=${MG_RUN_ARGS:---time-budget 0.25}

status=0
for spec in "latency -m 0:1M" "bw -m 1:4M" "bibw -m 1:4M"; do
    set -- $spec
    name=$1
    shift
    echo
    # shellcheck disable=SC2086
    timeout -k 10 600 $launch "$bin/mpigauge_$name" "$@" $args -o "$out/$name.jsonl" ||
        { echo "run.sh: mpigauge_$name failed (exit $?)" >&2; status=1; }
done
for name in latency bw bibw; do   # in the order they ran (a failed one has no file)
    if [ -f "$out/$name.jsonl" ]; then cat "$out/$name.jsonl"; fi
done >"$out/results.jsonl"
mg="$root/frontend/mpigauge.py"
python3 "$mg" plot -o "$out/pt2pt.png" "$out/results.jsonl" || status=1
echo
python3 "$mg" report --summary -o "$out/report.html" "$out/results.jsonl" || status=1
echo "results: $out/results.jsonl"
echo "plot:    $out/pt2pt.png"
echo "report:  $out/report.html"
exit $status
