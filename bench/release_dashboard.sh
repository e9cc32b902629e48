#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The release study (results/releases/, bench/release_study.sh) as a history
# with one tag per release, its dashboard, and a screenshot of the
# point-to-point page's overview in headless Chromium (doc/releases.md).
#   bench/release_dashboard.sh [OUT]     (default results/releases/history)
# Tags, oldest first: mpich-4.0.2, mpich-5.0.2, impi-2021.19.0, openmpi-4.1.4,
# openmpi-5.0.11 (so that the grid shows the Open MPI upgrade).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
res=$top/results/releases
out=${1:-$res/history}
rm -rf "$out.sqlite"
specs=""
for s in pt2pt coll2 onesided overlap; do specs="$specs $res/mpich-$s.jsonl:mpich-4.0.2:mpich-4.0.2"; done
for s in pt2pt coll2 onesided overlap; do specs="$specs $res/mpich-$s.jsonl:mpich-5.0.2:mpich-5.0.2"; done
for s in pt2pt coll2 onesided overlap; do specs="$specs $res/impls-$s.jsonl:impi-2021.19.0:impi-2021.19.0"; done
for s in pt2pt coll2 onesided overlap; do specs="$specs $res/ompi-$s.jsonl:ompi-4.1.4:openmpi-4.1.4"; done
for s in pt2pt coll2 onesided overlap; do specs="$specs $res/ompi-$s.jsonl:ompi-5.0.11:openmpi-5.0.11"; done
# shellcheck disable=SC2086
python3 "$top/bench/release_history.py" --db "$out.sqlite" $specs >/dev/null
python3 "$top/frontend/mpigauge.py" history --db "$out.sqlite" list
python3 "$top/frontend/mpigauge.py" dashboard --db "$out.sqlite" -o "$out-site" \
    --title "mpigauge: five MPI libraries"
prof=$(mktemp -d)
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$prof" --hide-scrollbars --window-size=1100,900 \
    --screenshot="$out-pt2pt.png" "file://$out-site/pt2pt.html" >/dev/null 2>&1
rm -rf "$prof"
echo "release_dashboard: $out-site/index.html, screenshot $out-pt2pt.png"
