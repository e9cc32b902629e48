#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Two more rail shapes on the emulated two-node cluster
# (tests/cluster/netns-cluster.sh), beside bench/multirail.sh's two equal rails:
#
#   four   4 rails shaped to 250 mbit (so that the two cores keep up with
#          8 processes): bw at 4 MiB over one rail, and striped over all four
#          (--rails 4 --rail-mode stripe --rail-steer process, 4 processes per
#          node). PASS when stripe4 >= 3.6 x one rail. Both cases run with
#          OMPI_MCA_mpi_yield_when_idle=1: 8 processes on 2 cores are
#          oversubscribed, and ranks spinning in MPI_Waitall starve the
#          kernel's TCP work (without it stripe4 reaches 3.3-3.5 x).
#   uneq   2 unequal rails, 1 gbit and 500 mbit: bw over each rail alone, and
#          striped with --rail-weights auto (and even, for reference). PASS
#          when auto >= 95% of the two one-rail figures summed.
#
# Every round runs every case of a shape once, in reversed order on even
# rounds (the machine's slow periods fall on all cases alike); a case's
# figure is the median over rounds of each launch's median, shown with the
# slowest and fastest launch. Rail shares come from the veth byte counters.
#
# Usage: bench/multirail_shapes.sh [-r ROUNDS] [-b BUILD] [-v ompi|ompi-ucx|mpich]
#                                  [-s "four uneq"] OUTDIR
#   -r N    rounds (default 3)   -b DIR  build tree (default _build/openmpi)
#   -v V    launch variant (default ompi: Open MPI ob1 + TCP)
#   -s LIST shapes to run (default "four uneq")
# OUTDIR receives SHAPE/CASE.rN.{jsonl,log,rails,line}, index.tsv and
# summary.txt / summary.json. Exit 1 on a FAIL, 2 on a usage or set-up error.
set -uo pipefail
{
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
H=$root/tests/cluster/netns-cluster.sh
rounds=3 build=$root/_build/openmpi variant=ompi shapes="four uneq"
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "r:b:v:s:h" opt; do
    case $opt in
        r) rounds=$OPTARG ;;
        b) build=$OPTARG ;;
        v) variant=$OPTARG ;;
        s) shapes=$OPTARG ;;
        h) usage 0 ;;
        *) usage 2 >&2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { echo "multirail_shapes.sh: give one OUTDIR (-h for help)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "multirail_shapes.sh: -r wants a positive integer" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "multirail_shapes.sh: needs root (network namespaces)" >&2; exit 2; }
build=$(cd "$build" 2>/dev/null && pwd) || { echo "multirail_shapes.sh: no build $build" >&2; exit 2; }
[ -x "$build/pt2pt/mpigauge_bw" ] || { echo "multirail_shapes.sh: no $build/pt2pt/mpigauge_bw" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd) || exit 2
printf 'shape\tcase\tround\trc\tseconds\tjsonl\n' >"$out/index.tsv"

export MG_CLUSTER_ID=${MG_CLUSTER_ID:-auto}
export MG_CLUSTER_OWNER=$$
up=""
finish() { [ -z "$up" ] || MG_CLUSTER=$up "$H" down >>"$out/up.log" 2>&1 || true; }
trap finish EXIT
trap 'exit 130' INT TERM HUP

# shape -> "up options|timing options|environment" and its cases:
# case|ppn|devices|extra
stripe="--rail-mode stripe --rail-steer process"
declare -A setup cases
setup[four]="--rails 4 --rate 250mbit --slots 4|-i 10 -x 2 -W 4|OMPI_MCA_mpi_yield_when_idle=1"
cases[four]="bw-1rail|1|rail0|
bw-stripe4|4|rail0,rail1,rail2,rail3|--rails 4 $stripe --rail-bind rail0,rail1,rail2,rail3"
setup[uneq]="--rails 2 --rate 1gbit,500mbit|-i 10 -x 2 -W 8|"
cases[uneq]="bw-rail0|1|rail0|
bw-rail1|1|rail1|
bw-stripe-auto|2|rail0,rail1|--rails 2 $stripe --rail-bind rail0,rail1 --rail-weights auto
bw-stripe-even|2|rail0,rail1|--rails 2 $stripe --rail-bind rail0,rail1"

run_shape() { # shape
    local s=$1 upopts targs envs r order c ppn devices extra base cmd rc t0
    IFS='|' read -r upopts targs envs <<<"${setup[$s]}"
    export MG_CLUSTER=mgs$s
    # shellcheck disable=SC2086
    "$H" up $upopts >>"$out/up.log" 2>&1 || { cat "$out/up.log" >&2; "$H" down >/dev/null 2>&1; return 2; }
    up=$MG_CLUSTER
    mkdir -p "$out/$s"
    "$H" env >"$out/$s/cluster.txt"
    for ((r = 1; r <= rounds; r++)); do
        order=${cases[$s]}
        [ $((r % 2)) = 0 ] && order=$(echo "$order" | tac)
        while IFS='|' read -r c ppn devices extra; do
            base=$out/$s/$c.r$r
            # shellcheck disable=SC2206
            cmd=("$build/pt2pt/mpigauge_bw" $extra -m 4M:4M $targs -o "$base.jsonl")
            rm -f "$base.jsonl"
            # shellcheck disable=SC2086
            { [ -z "$envs" ] || printf '%s ' $envs
              env $envs "$H" line --mpi "$variant" --np $((2 * ppn)) --ppn "$ppn" \
                --devices "$devices" -- "${cmd[@]}"; } >"$base.line"
            "$H" counters --env >"$base.before" </dev/null
            t0=$SECONDS
            # shellcheck disable=SC2086
            env $envs "$H" run --mpi "$variant" --np $((2 * ppn)) --ppn "$ppn" --devices "$devices" \
                --timeout 300 --done "$base.jsonl" --grace 10 -- "${cmd[@]}" </dev/null >"$base.log" 2>&1
            rc=$?
            "$H" counters --since "$base.before" --env >"$base.rails" </dev/null
            rm -f "$base.before"
            printf '%s\t%s\t%d\t%s\t%d\t%s\n' "$s" "$c" "$r" "$rc" $((SECONDS - t0)) \
                "${base#"$out"/}.jsonl" >>"$out/index.tsv"
            printf '  %s round %d %-15s rc=%s %3ds %s\n' "$s" "$r" "$c" "$rc" $((SECONDS - t0)) \
                "$(sed -n 's/.*"type":"result".*"median":\([0-9.e+-]*\).*/\1 MB\/s/p' "$base.jsonl" 2>/dev/null | head -n 1)"
        done <<<"$order"
    done
    "$H" down >>"$out/up.log" 2>&1
    up=""
}

echo "multirail_shapes: $shapes, $rounds rounds, variant $variant, build $build; output $out"
for s in $shapes; do
    [ -n "${setup[$s]:-}" ] || { echo "multirail_shapes.sh: unknown shape $s (four, uneq)" >&2; exit 2; }
    run_shape "$s" || exit 2
done

python3 - "$out" <<'PY'
import csv, json, os, statistics, sys
out = sys.argv[1]
figs, shares, bad = {}, {}, []
for r in csv.DictReader(open(os.path.join(out, "index.tsv")), delimiter="\t"):
    key = (r["shape"], r["case"])
    path = os.path.join(out, r["jsonl"])
    med = None
    if r["rc"] == "0" and os.path.exists(path):
        for line in open(path):
            rec = json.loads(line)
            if rec.get("type") == "result":
                med = rec["median"]
    if med is None:
        bad.append(f"{r['shape']} {r['case']} round {r['round']} (rc {r['rc']})")
        continue
    figs.setdefault(key, []).append(med)
    for line in open(path[:-len(".jsonl")] + ".rails"):
        k, _, v = line.strip().partition("=")
        if k.endswith("_share"):
            shares.setdefault(key, {}).setdefault(k[:-6], []).append(float(v))
med = lambda k: statistics.median(figs[k]) if figs.get(k) else None
lines, checks = [f"{'shape':6} {'case':15} {'MB/s':>8} {'min':>8} {'max':>8}  rail shares (median)"], []
for k in figs:
    sh = " ".join(f"{d} {100 * statistics.median(v):.0f}%" for d, v in sorted(shares.get(k, {}).items()))
    lines.append(f"{k[0]:6} {k[1]:15} {med(k):8.1f} {min(figs[k]):8.1f} {max(figs[k]):8.1f}  {sh}")
def check(name, ok, detail):
    v = "SKIP" if ok is None else "PASS" if ok else "FAIL"
    checks.append({"check": name, "verdict": v, "detail": detail})
    lines.append(f"{v}  {name}: {detail}")
lines.append("")
check("every launch completed", not bad, "all" if not bad else "failed: " + ", ".join(bad))
one, four = med(("four", "bw-1rail")), med(("four", "bw-stripe4"))
if one or four:
    check("four rails: stripe4 >= 3.6 x one rail", bool(one and four and four / one >= 3.6),
          f"{four or 0:.1f} / {one or 0:.1f} MB/s = {(four or 0) / (one or 1):.2f} x")
r0, r1 = med(("uneq", "bw-rail0")), med(("uneq", "bw-rail1"))
auto, even = med(("uneq", "bw-stripe-auto")), med(("uneq", "bw-stripe-even"))
if r0 or r1:
    tot = (r0 or 0) + (r1 or 0)
    check("unequal rails: auto >= 95% of the rails' sum", bool(auto and tot and auto >= 0.95 * tot),
          f"auto {auto or 0:.1f} MB/s = {100 * (auto or 0) / (tot or 1):.1f}% of {r0 or 0:.1f} + "
          f"{r1 or 0:.1f} = {tot:.1f}; even {even or 0:.1f} ({100 * (even or 0) / (tot or 1):.1f}%)")
nfail = sum(c["verdict"] == "FAIL" for c in checks)
lines.append(f"multirail_shapes: {sum(c['verdict'] == 'PASS' for c in checks)} PASS, {nfail} FAIL")
text = "\n".join(lines)
print(text)
open(os.path.join(out, "summary.txt"), "w").write(text + "\n")
json.dump({"figures": {f"{s}/{c}": v for (s, c), v in figs.items()}, "checks": checks},
          open(os.path.join(out, "summary.json"), "w"), indent=1)
sys.exit(1 if nfail else 0)
PY
exit $?
}
