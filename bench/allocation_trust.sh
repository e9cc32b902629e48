#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Allocations as a level, proven (doc/slurm.md, "Allocations as a level"):
# on the emulated two-node Slurm (tests/cluster/netns-cluster.sh and
# slurm_cluster.sh, started here and torn down at the end), each trial runs
# the same interleaved suite of two identical configurations a and b in
# four allocations (salloc -N 2, one rank per node, `mpigauge run --append`
# into one file: four sessions); in one of the four, drawn at random, nodeB
# is slow (its links shaped to RATE for that allocation only). Then
# `mpigauge compare --by-allocation FILE a b`. Per trial it prints whether
# the verdict said nothing (no series slower or faster: a and b are the
# same) and which allocation it named slow; at the end the two counts.
#
#   bench/allocation_trust.sh BUILD [TRIALS [ROUNDS [RATE]]]
#   bench/allocation_trust.sh _build/openmpi 20 3 20mbit
# Root, namespaces and slurm-wlm/munge (scripts/setup-deps.sh) needed.
set -u
build=$(cd "${1:?usage: $0 BUILD [TRIALS [ROUNDS [RATE]]]}" && pwd)
trials=${2:-20}
rounds=${3:-3}
rate=${4:-20mbit}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
H=$top/tests/cluster/netns-cluster.sh
PY=${PYTHON:-python3}
[ -x "$top/_venv/bin/python3" ] && PY=$top/_venv/bin/python3
fe=$top/frontend/mpigauge.py
[ "$(id -u)" = 0 ] || { echo "$0: needs root" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mg-alloctrust.XXXXXX") || exit 2
chmod 755 "$work"
export MG_CLUSTER_OWNER=$$ MG_CLUSTER_ID=auto
# shellcheck source=tests/cluster/claim.sh
. "$top/tests/cluster/claim.sh"
mg_claim_cluster mgalloc || { echo "$0: no free cluster name" >&2; exit 2; }
export MG_CLUSTER
cleanup() {
    bash "$top/tests/cluster/slurm_cluster.sh" stop "$work/slurm" >/dev/null 2>&1
    "$H" down >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
"$H" up --rails 1 --rate none >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; exit 1; }
bash "$top/tests/cluster/slurm_cluster.sh" start "$work/slurm" >"$work/slurm.log" 2>&1 ||
    { cat "$work/slurm.log" >&2; exit 1; }
export SLURM_CONF=$work/slurm/slurm.conf
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
printf 'ranks=2 latency -m 1:1K -i 50\n' >"$work/suite.txt"
cd "$work" || exit 2
quiet=0 named=0
t0=$(date +%s)
echo "latency 1 B-1 KiB, a and b identical, $rounds rounds an allocation, 4 allocations a trial, nodeB at $rate in one"
for t in $(seq "$trials"); do
    slow=$(( (RANDOM % 4) + 1 ))
    out=$work/t$t.jsonl
    for k in 1 2 3 4; do
        [ "$k" = "$slow" ] && "$H" shape nodeB "$rate" >/dev/null 2>&1
        app=--append
        [ "$k" = 1 ] && app=--force
        timeout 600 salloc -N 2 -n 2 --ntasks-per-node=1 "$PY" "$fe" run --suite "$work/suite.txt" \
            --bindir "$build" -K "$rounds" --timeout 120 --exit-grace 5 -q $app -o "$out" \
            --config a --config b >"$work/run.log" 2>&1
        rc=$?
        [ "$k" = "$slow" ] && "$H" shape nodeB none >/dev/null 2>&1
        [ $rc -eq 0 ] || { echo "trial $t allocation $k: mpigauge run failed ($rc)"; tail -5 "$work/run.log"; exit 1; }
    done
    verdict=$("$PY" "$fe" compare --by-allocation "$out" a b --format json 2>/dev/null |
        "$PY" -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
said = [str(r["size_bytes"]) + " " + r["verdict"] for r in recs
        if r.get("type") == "series" and r.get("verdict") in ("slower", "faster")]
alloc = next(r for r in recs if r.get("type") == "allocations")
ids = [a["session_id"] for a in alloc["allocations"]]
slow = [ids.index(s["session_id"]) + 1 for s in alloc["slow"]]
print("said:" + (",".join(said) or "nothing"), "named:" + (",".join(map(str, slow)) or "none"))')
    case $verdict in *said:nothing*) quiet=$((quiet + 1)) ;; esac
    case $verdict in *"named:$slow") named=$((named + 1)) ;; esac
    echo "trial $t: slow allocation $slow; $verdict ($(( $(date +%s) - t0 )) s)"
done
echo "a against b said nothing in $quiet of $trials; the slow allocation named (alone) in $named of $trials; $(( $(date +%s) - t0 )) s"
