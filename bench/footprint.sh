#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The MPI libraries' memory per rank on this machine (doc/footprint.md):
# mpigauge_footprint at 2, 4 and 8 ranks under Debian's Open MPI 4.1.4 and
# MPICH 4.0.2 and the newer releases that are built (scripts/build.sh
# openmpi-5.0.11 / mpich-5.0.2), every library's launches interleaved in
# randomized rounds by `mpigauge run`, one launch at a time (a shared
# library's pages count in PSS split among every process that maps them, so
# launches side by side would lower each other's PSS). Prints a markdown
# table: per library and rank count the mean PSS per rank before MPI_Init,
# after it, after every peer was contacted and after the window, what
# MPI_Init added, the heaviest rank after the window, malloc's heap and the
# whole job's PSS: medians over launches (range); and draws
# OUTDIR/footprint.png (plot --against ranks).
#   bench/footprint.sh [ROUNDS] [OUTDIR]     (default 3, bench/_build/footprint)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
out=${2:-$root/bench/_build/footprint}
fe=$root/_build/openmpi/frontend/mpigauge
[ -x "$fe" ] || { echo "$0: build _build/openmpi first (scripts/build.sh openmpi)" >&2; exit 2; }
mkdir -p "$out"
for n in 2 4 8; do echo "ranks=$n footprint"; done >"$out/suite.txt"
set --
for b in openmpi mpich openmpi-5.0.11 mpich-5.0.2; do
    [ -x "$root/_build/$b/pt2pt/mpigauge_footprint" ] && set -- "$@" --config "$b bindir=$root/_build/$b"
done
"$fe" run -q --suite "$out/suite.txt" "$@" --rounds "$rounds" --interleave launches \
    --max-ranks 8 -o "$out/footprint.jsonl" --force >&2
# plots need matplotlib: the project's virtual environment has it (scripts/setup-deps.sh)
py=python3
[ -x "$root/_venv/bin/python3" ] && py=$root/_venv/bin/python3
labels=$(printf '%s\n' "$@" | sed -n 's/^\([^ -][^ ]*\) bindir=.*/\1/p')
# shellcheck disable=SC2086
"$py" "$root/frontend/mpigauge.py" plot "$out/footprint.jsonl" $labels --against ranks \
    -o "$out/footprint.png" >&2 || echo "$0: no plot (matplotlib?)" >&2
python3 - "$out/footprint.jsonl" <<'PY'
import json, statistics, sys
from collections import defaultdict

def cell(v, d=2):
    return f"{statistics.median(v):.{d}f} ({min(v):.{d}f}-{max(v):.{d}f})" if v else "-"

cols = [("before_init", "pss_mean_mib", "PSS before MPI_Init"), ("init", "pss_mean_mib", "after MPI_Init"),
        ("peers", "pss_mean_mib", "after every peer"), ("window", "pss_mean_mib", "after the window"),
        ("init", "added_pss_mean_mib", "added by MPI_Init"), ("window", "median", "heaviest rank"),
        ("window", "heap_max_mib", "heap (malloc)"), ("window", "pss_sum_mib", "whole job")]
vals = defaultdict(list)
cur, configs = None, []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "run":
        cur = (r["config"], r["nranks"])
        if r["config"] not in configs:
            configs.append(r["config"])
    elif r["type"] == "result" and cur:
        stage = r["variant"].split("=")[1]
        for s, k, _ in cols:
            if s == stage:
                vals[cur + (s, k)].append(r["median"] if k == "median" else r["extra"][k])
print("| library | ranks | " + " | ".join(t for _, _, t in cols) + " |")
print("| --- | ---: |" + " ---: |" * len(cols))
for c in configs:
    for n in (2, 4, 8):
        print(f"| {c} | {n} | " + " | ".join(cell(vals[(c, n, s, k)]) for s, k, _ in cols) + " |")
PY
