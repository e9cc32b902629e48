#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Where mpigauge_protocol finds the eager/rendezvous switch on this machine
# (doc/overlap.md), Debian's Open MPI 4.1.4 and MPICH 4.0.2, each with its
# default limit and with the limit lowered (btl_vader_eager_limit=1024,
# UCX_RNDV_THRESH=4096): the four cases' launches interleaved, in a new
# random order every round. Prints a markdown table: the one-way latency
# (median over launches, range) around the switches, and in how many
# launches each size was found as a switch.
#   bench/protocol_switch.sh [ROUNDS]     (default 5)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-5}
for b in openmpi mpich; do
    [ -x "$root/_build/$b/overlap/mpigauge_protocol" ] ||
        { echo "$0: build _build/$b first (scripts/build.sh $b)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cases="openmpi -
openmpi OMPI_MCA_btl_vader_eager_limit=1024
mpich -
mpich UCX_RNDV_THRESH=4096"
r=0
while [ "$r" -lt "$rounds" ]; do
    r=$((r + 1))
    printf '%s\n' "$cases" | shuf | while read -r build var; do
        case $build in openmpi) launcher="mpirun.openmpi --bind-to core" ;; *) launcher=mpiexec.mpich ;; esac
        if [ "$var" = - ]; then set -- env; else set -- env "$var"; fi
        # shellcheck disable=SC2086
        timeout -k 10 300 "$@" $launcher -n 2 "$root/_build/$build/overlap/mpigauge_protocol" \
            -m 512:64K --time-budget 0.2 --format json </dev/null 2>/dev/null |
            sed "s/^/$build $var /" >>"$work/all.txt" || echo "$0: $build $var failed in round $r" >&2
    done
done
python3 - "$work/all.txt" "$rounds" <<'PY'
import json, statistics, sys
from collections import Counter, defaultdict

lat, found, launches = defaultdict(list), defaultdict(Counter), Counter()
for line in open(sys.argv[1]):
    build, var, text = line.split(" ", 2)
    r, key = json.loads(text), (build, var)
    if r.get("type") == "result" and r["variant"] == "phase=pingpong":
        lat[key + (r["size_bytes"],)].append(r["extra"]["latency_us"])
    elif r.get("type") == "summary":
        launches[key] += 1
        for s in r["latency_steps"]:
            found[key][int(s["above_bytes"])] += 1

def cell(v):
    return f"{statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f})" if v else "-"

sizes = [1024, 2048, 4096, 8192, 16384]
print(f"One-way latency in us, median over {sys.argv[2]} interleaved launches (range); "
      "switches found: size (launches).\n")
print("| library | limit | " + " | ".join(f"{s // 1024} KiB" for s in sizes) + " | switches found |")
print("| --- | --- |" + " ---: |" * len(sizes) + " --- |")
for key in sorted(launches, key=lambda k: (k[0] != "openmpi", k[1] != "-")):
    steps = ", ".join(f"{s} ({n} of {launches[key]})" for s, n in sorted(found[key].items()))
    print(f"| {key[0]} | {'default' if key[1] == '-' else key[1]} | "
          + " | ".join(cell(lat[key + (s,)]) for s in sizes) + f" | {steps or 'none'} |")
PY
