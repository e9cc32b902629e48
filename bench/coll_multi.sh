#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Collectives' --multi (IMB's -multi) on the emulated two-node cluster
# (tests/cluster/netns-cluster.sh: one rail shaped to 1 Gbit/s, 119.5 MB/s
# of payload per direction), doc/collectives.md "Concurrent groups":
#   alone      bcast of 4 MiB, 2 ranks, one per node: the rail to itself
#   span       4 ranks dealt round the nodes (--cyclic), --multi 2: two
#              groups, each with a rank on each node, broadcast at once
#              over the one rail (each should take about twice as long)
#   local      4 ranks, 2 per node in order, --multi 2: each group on one
#              node (shared memory), the rail unused
# with Debian's Open MPI 4.1.4 (ob1/tcp) and MPICH 4.0.2 (ch4:ucx), every
# case of every library once per round, rounds in alternating order.
# Prints a markdown table: per library and case the median over launches
# (range) of the median call (the slowest group's, per call), the fastest
# and the slowest group's median, and the ratio to the same round's alone.
#   bench/coll_multi.sh [ROUNDS]      (default 5)
set -uo pipefail
{
root=$(cd "$(dirname "$0")/.." && pwd)
H=$root/tests/cluster/netns-cluster.sh
rounds=${1:-5}
[ "$(id -u)" = 0 ] || { echo "coll_multi.sh: needs root (network namespaces)" >&2; exit 2; }
work=$(mktemp -d)
export MG_CLUSTER=${MG_CLUSTER:-mgmulti} MG_CLUSTER_ID=${MG_CLUSTER_ID:-auto} MG_CLUSTER_OWNER=$$
own=0
if [ ! -f "/run/mgcluster-$MG_CLUSTER/config" ]; then
    "$H" up --rails 1 >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; "$H" down >/dev/null 2>&1; exit 2; }
    own=1
fi
finish() { [ $own = 0 ] || "$H" down >/dev/null 2>&1 || true; rm -rf "$work"; }
trap finish EXIT
trap 'exit 130' INT TERM HUP
args=(-m 4M:4M -i 10 -x 2 -c --format json)
declare -A opts=([alone]="--np 2 --ppn 1" [span]="--np 4 --ppn 2 --cyclic" [local]="--np 4 --ppn 2")
declare -A multi=([alone]="" [span]="--multi 2" [local]="--multi 2")
cases=(alone span local)
for r in $(seq 1 "$rounds"); do
    order=("${cases[@]}")
    [ $((r % 2)) = 0 ] && order=(local span alone)
    for lib in ompi mpich; do
        b=$root/_build/openmpi
        [ $lib = mpich ] && b=$root/_build/mpich
        for c in "${order[@]}"; do
            f=$work/$lib.$c.$r.jsonl
            # shellcheck disable=SC2086
            "$H" run --mpi $lib ${opts[$c]} --timeout 120 --done "$f" --grace 10 -- \
                "$b/collective/mpigauge_bcast" "${args[@]}" ${multi[$c]} -o "$f" >"$f.log" 2>&1 ||
                echo "coll_multi.sh: $lib $c round $r: exit $? (see the table)" >&2
        done
    done
done
python3 - "$work" "$rounds" <<'PY'
import json, os, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])

def result(path):
    try:
        rs = [json.loads(l) for l in open(path) if l.strip()]
    except (OSError, ValueError):
        return None
    rs = [r for r in rs if r.get("type") == "result" and r.get("validation") == "passed"]
    return rs[-1] if rs else None

def cell(v, d=1):
    return f"{statistics.median(v):.{d}f} ({min(v):.{d}f}-{max(v):.{d}f})" if v else "-"

print("| library | case | ranks | call ms | fastest group ms | slowest group ms | call / alone |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for lib, name in (("ompi", "Open MPI 4.1.4"), ("mpich", "MPICH 4.0.2")):
    for c, n in (("alone", 2), ("span", 4), ("local", 4)):
        med, hi, lo, ratio = [], [], [], []
        for r in range(1, rounds + 1):
            x = result(os.path.join(work, f"{lib}.{c}.{r}.jsonl"))
            a = result(os.path.join(work, f"{lib}.alone.{r}.jsonl"))
            if not x:
                continue
            ex = x.get("extra") or {}
            med.append(x["median"] / 1e3)
            if "group_max_us" in ex:
                hi.append(ex["group_max_us"] / 1e3)
                lo.append(ex["group_min_us"] / 1e3)
            if a:
                ratio.append(x["median"] / a["median"])
        print(f"| {name} | {c} | {n} | {cell(med)} | {cell(lo)} | {cell(hi)} | {cell(ratio, 2)} |")
PY
}
