#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The profiler's own cost (libmgprofile, `mpigauge profile`,
# doc/applications.md), measured side by side in one run:
#  1. LAMMPS's melt (bench/apps/in.melt, 1000 steps, 2 ranks) with and
#     without the profiler in the program, launch by launch in randomised
#     rounds (`mpigauge app`): the ratio of LAMMPS's Loop time with its
#     95% CI, the median of each side and its spread;
#  2. the cost per call: mpigauge_latency at 8 B with and without it,
#     interleaved (`mpigauge run`), the one-way latency's difference.
#   bench/profile_overhead.sh [BUILD] [ROUNDS]   (default _build/openmpi, 12)
# Installs LAMMPS from Debian when missing (bench/apps/install.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build/openmpi}" && pwd)
rounds=${2:-12}
fe="$build/frontend/mpigauge"
lib="$build/profile/libmgprofile.so"
[ -f "$lib" ] || { echo "profile_overhead: no $lib (make in $build)" >&2; exit 1; }
"$top/bench/apps/install.sh" lammps
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$top/bench/apps/in.melt" "$work/"
mkdir "$work/prof"
cd "$work"
echo "== LAMMPS melt, 2 ranks, $rounds rounds: Loop time without and with the profiler"
"$fe" app -o "$work/melt.jsonl" -K "$rounds" --figure lammps -q --timeout 300 \
    --config plain --config "profiled MG_BENCH_PRELOAD=$lib MG_PROFILE_DIR=$work/prof" \
    -- mpirun.openmpi -n 2 "$top/bench/apps/preload.sh" lmp -in in.melt -log none \
    >"$work/melt.txt" || true
grep -E "^(benchmark|lmp)" "$work/melt.txt"
python3 - "$work/melt.jsonl" <<'PY'
import json, statistics, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
cfg = {r["launch_id"]: r["config"] for r in recs if r["type"] == "launch"}
by = {}
for r in recs:
    if r["type"] == "result":
        by.setdefault(cfg[r["launch_id"]], []).append(r["median"])
for k, v in sorted(by.items()):
    print(f"  {k:<9} Loop time median {statistics.median(v):.3f} s, range {min(v):.3f}-{max(v):.3f} "
          f"s over {len(v)} launches")
PY
echo "== the profile of one profiled run: calls per second"
"$fe" profile --bindir "$build" -o "$work/p.jsonl" -q -- mpirun.openmpi -n 2 lmp -in in.melt \
    -log none -screen none -echo none
python3 - "$work/p.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
ranks = [r for r in recs if r["type"] == "profile_rank"]
calls = sum(c["count"] for r in ranks for c in r["calls"]) / len(ranks)
run = sum(r["run_s"] for r in ranks) / len(ranks)
print(f"  {calls:.0f} MPI calls per rank in {run:.2f} s: {calls / run:.0f} calls/s")
PY
echo "== mpigauge_latency 8 B, $rounds rounds: one-way latency without and with the profiler"
printf 'ranks=2 latency -m 8:8 --time-budget 0.2\n' >"$work/lat.txt"
"$fe" run --suite "$work/lat.txt" --bindir "$build" --repeat "$rounds" -q -o "$work/lat.jsonl" \
    --config plain --config "profiled LD_PRELOAD=$lib MG_PROFILE_DIR=$work/prof" || true
"$fe" compare "$work/lat.jsonl" plain profiled | grep -E "^(benchmark|latency)"
