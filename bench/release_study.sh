#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The release study of doc/releases.md: one comparison (a TOML file of
# bench/releases/) over one or more study suites (bench/releases/*.txt),
# measured with mpigauge itself: the configurations take turns (interleaved
# launch by launch), rounds are added until every series of the first
# configuration against each other one is decided, or MAX_ROUNDS. Prints the
# wall time, the share of decided series per pair and the markdown tables;
# keeps the results under results/releases/.
#   bench/release_study.sh ompi|mpich|impls|abi SUITE... [-- RUN_OPTIONS]
#   e.g. bench/release_study.sh ompi pt2pt coll2
# Needs the builds (scripts/build.sh openmpi openmpi-5.0.11 ...).
# MG_STUDY_ROUNDS: the cap (default 20); MG_STUDY_FIXED=1: exactly that many
# rounds (no early stop; the ABI comparison pairs other configurations than
# the first).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
study=$1; shift
suites=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do suites="$suites $1"; shift; done
[ $# -gt 0 ] && shift
cfg=$top/bench/releases/$study.toml
[ -f "$cfg" ] || { echo "release_study: no comparison $cfg" >&2; exit 2; }
fe="python3 $top/frontend/mpigauge.py"
out=$top/results/releases
mkdir -p "$out"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
rounds=${MG_STUDY_ROUNDS:-20}
labels=$(sed -n 's/^label = "\(.*\)"/\1/p' "$cfg" | tr '\n' ' ')
for s in $suites; do
    res=$out/$study-$s.jsonl
    rm -f "$res"
    if [ "${MG_STUDY_FIXED:-0}" = 1 ]; then
        how="--repeat $rounds"
    else
        how="--until-decided --max-rounds $rounds"
    fi
    t0=$(date +%s)
    # shellcheck disable=SC2086
    $fe run -q --suite "$top/bench/releases/$s.txt" --configs "$cfg" $how --seed 2026 \
        -o "$res" "$@" || true
    t1=$(date +%s)
    echo "## $study / $s: $(( (t1 - t0) / 60 )) min $(( (t1 - t0) % 60 )) s"
    # shellcheck disable=SC2086
    $fe compare "$res" $labels --format json -o "$out/$study-$s.cmp.jsonl" >/dev/null 2>&1 || true
    python3 - "$out/$study-$s.cmp.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "comparison":
        s = r.get("summary", {})
        decided = sum(v for k, v in s.items() if not k.startswith(("unclear", "unstable")))
        print(f"* {r['new']['label']} vs {r['base']['label']}: {decided} of {r['series']} "
              f"series decided ({', '.join(f'{k} {v}' for k, v in sorted(s.items()))})")
PY
    # shellcheck disable=SC2086
    $fe compare "$res" $labels --format markdown || true
done
