#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The screenshot of the report page in the docs (doc/report.png): the main
# job's three programs on 2 ranks (Open MPI by default), `mpigauge report`,
# and headless Chromium on the page's first screen (headline figures, plots,
# table of contents).
#   bench/report_screenshot.sh [openmpi|mpich] [OUT.png]   (default doc/report.png)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-openmpi}
png=${2:-$top/doc/report.png}
bin=$top/_build/$flavour/pt2pt
[ -x "$bin/mpigauge_latency" ] || { echo "report_screenshot: build $flavour first" >&2; exit 2; }
case "$flavour" in
    openmpi) launch="mpirun.openmpi -n 2 --bind-to core"
             export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
    *) launch="mpiexec.mpich -n 2 -bind-to core" ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for spec in "latency -m 0:1M" "bw -m 1:4M" "bibw -m 1:4M"; do
    set -- $spec
    name=$1
    shift
    # shellcheck disable=SC2086
    timeout -k 10 300 $launch "$bin/mpigauge_$name" "$@" --time-budget 0.25 -o "$work/$name.jsonl" >/dev/null
    cat "$work/$name.jsonl" >>"$work/results.jsonl"
done
python3 "$top/frontend/mpigauge.py" report -o "$work/report.html" "$work/results.jsonl"
prof=$work/profile
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$prof" --hide-scrollbars --window-size=1100,1300 \
    --screenshot="$png" "file://$work/report.html" >/dev/null 2>&1
[ -s "$png" ] || { echo "report_screenshot: chromium wrote no screenshot" >&2; exit 1; }
echo "report_screenshot: $png"
