#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Multirail acceptance measurement on the emulated two-node, two-rail cluster
# (tests/cluster/netns-cluster.sh: network namespaces, veth rails shaped to
# 1 Gbit/s = 119.5 MB/s of payload per rail and direction at most).
#
# At 4 MiB, with each MPI build given (Open MPI: pml ob1 + tcp BTL and pml
# ucx; MPICH: ch4:ucx), cases
#   bw-1rail, bibw-1rail, mbw_mr-1pair   one rail (rail0): the baselines
#   bw-library, bibw-library             both rails handed to the library
#                                        (--rail-mode library --rail-bind rail0,rail1:
#                                        UCX_NET_DEVICES=rail0,rail1 +
#                                        UCX_MAX_RNDV_RAILS=2; btl_tcp_if_include)
#   bibw-bind                            bind mode, one pair: A->B on rail0, B->A on
#                                        rail1 (rail groups, 2 processes per node)
#   mbw_mr-bind2                         bind mode: 2 pairs across the nodes,
#                                        local rank k on rail k (mpigauge-rails
#                                        bind, or the cluster's railbind)
#   bw-stripe2, bibw-stripe2             stripe mode, K=2, --rail-steer process
#                                        (4 processes; skipped while mpigauge_bw
#                                        --help lists no --rails)
# Rounds alternate: every round runs every case of every launch variant once,
# the case order reversed on even rounds. A case's figure is the median over
# rounds of each launch's median; the rail shares come from the veth byte
# counters around each launch (tx of both ends; the median over rounds).
#
# Acceptance (PASS/FAIL printed, exit 1 on a FAIL):
#   bw-1rail >= 110 MB/s and rail0 carries >= 90% of the rail bytes
#   mbw_mr-bind2 >= 1.8 x mbw_mr-1pair, each rail 40..60%
#   bw-stripe2 >= 1.8 x bw-1rail, bibw-stripe2 >= 1.8 x bibw-1rail, each rail 40..60%
#   library mode: reported with its ratio; each rail must carry >= 30%
#   every launch completed (a finalize hang after complete output counts as done)
# NOTE lines flag cases whose slowest launch is below 0.75 x their median.
#
# Usage: bench/multirail.sh [-r ROUNDS] [-b "BUILD..."] [-v "VARIANTS"] [-a ARGS] OUTDIR
#   -r N      rounds (default 3)
#   -b LIST   build trees (default MG_BENCH_BUILDS, else _build/openmpi _build/mpich)
#   -v LIST   launch variants to run among ompi ompi-ucx mpich (default all that
#             the builds allow)
#   -a ARGS   timing options of every launch (default "-i 10 -x 2 -W 16")
# OUTDIR receives runs/VARIANT/CASE.rN.jsonl (the JSON Lines of every launch),
# .rails (rail bytes and shares), .log, .line (the launch command), index.tsv (one
# line per launch), summary.txt and summary.json (the table and the checks),
# cluster.txt (the cluster's configuration and the machine's load).
# The cluster instance is MG_CLUSTER (default mgbench) with MG_CLUSTER_ID
# (default auto); an instance already up under that name is used and left up,
# otherwise one is brought up (2 rails, 1 Gbit/s) and torn down at the end.
set -uo pipefail
# The body is one { ... } group: bash parses it whole before running it, so
# editing this file during a measurement cannot change the running one.
{
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
H=$root/tests/cluster/netns-cluster.sh
rounds=3 builds=${MG_BENCH_BUILDS:-"$root/_build/openmpi $root/_build/mpich"} variants="" targs="-i 10 -x 2 -W 16"
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
while getopts "r:b:v:a:h" opt; do
    case $opt in
        r) rounds=$OPTARG ;;
        b) builds=$OPTARG ;;
        v) variants=$OPTARG ;;
        a) targs=$OPTARG ;;
        h) usage 0 ;;
        *) usage 2 >&2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { echo "multirail.sh: give one OUTDIR (-h for help)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "multirail.sh: -r wants a positive integer" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "multirail.sh: needs root (network namespaces)" >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd) || exit 2
mkdir -p "$out/runs"
size=4M
grace=10 limit=300

export MG_CLUSTER=${MG_CLUSTER:-mgbench}
export MG_CLUSTER_ID=${MG_CLUSTER_ID:-auto}
export MG_CLUSTER_OWNER=$$
own=0
if [ ! -f "/run/mgcluster-$MG_CLUSTER/config" ]; then
    "$H" up >"$out/up.log" 2>&1 || { cat "$out/up.log" >&2; "$H" down >/dev/null 2>&1; exit 2; }
    own=1
fi
finish() { [ $own = 0 ] || "$H" down >>"$out/up.log" 2>&1 || true; }
trap finish EXIT
trap 'exit 130' INT TERM HUP
{
    "$H" env
    echo "date_utc=$(date -u +%FT%TZ)"
    echo "host=$(uname -srm) cpus=$(nproc)"
    echo "load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/cluster.txt"
state=/run/mgcluster-$MG_CLUSTER

# variant -> build, flavour
declare -A build_of
for b in $builds; do
    b=$(cd "$b" 2>/dev/null && pwd) || { echo "multirail.sh: no build $b" >&2; exit 2; }
    p=$b/pt2pt/mpigauge_bw
    [ -x "$p" ] || { echo "multirail.sh: no $p (build it first)" >&2; exit 2; }
    if ldd "$p" | grep -q 'libmpich\.so'; then build_of[mpich]=$b
    else build_of[ompi]=$b; build_of[ompi-ucx]=$b; fi
done
if [ -z "$variants" ]; then
    for v in ompi ompi-ucx mpich; do [ -n "${build_of[$v]:-}" ] && variants="$variants $v"; done
fi
for v in $variants; do
    [ -n "${build_of[$v]:-}" ] || { echo "multirail.sh: variant $v: no build for it" >&2; exit 2; }
done
wrapper_for() { # build -> rail-binding wrapper command
    local w
    w=$(find "$1" -maxdepth 3 -name mpigauge-rails -type f -perm -u+x 2>/dev/null | head -n 1)
    [ -n "$w" ] || w=$(command -v mpigauge-rails 2>/dev/null || true)
    [ -n "$w" ] || w=$state/railbind
    echo "$w bind --rails 2 --devices rail0,rail1 --"
}
has_rails() { timeout 30 "$1/pt2pt/mpigauge_bw" --help 2>/dev/null | grep -q -- '--rails'; }

stripe="--rails 2 --rail-mode stripe --rail-steer process --rail-bind rail0,rail1"
library="--rails 2 --rail-mode library --rail-bind rail0,rail1"
bind="--rails 2 --rail-mode bind --rail-steer process --rail-bind rail0,rail1"
# case|program|ppn|devices|env|wrap|extra|needs --rails
cases="bw-1rail|bw|1|rail0||||0
bibw-1rail|bibw|1|rail0||||0
mbw_mr-1pair|mbw_mr|1|rail0|||--pairing internode|0
bw-library|bw|1|rail0,rail1|||$library|1
bibw-library|bibw|1|rail0,rail1|||$library|1
mbw_mr-bind2|mbw_mr|2|rail0,rail1||bind|--pairing internode|0
bibw-bind|bibw|2|rail0,rail1|||$bind|1
bw-stripe2|bw|2|rail0,rail1|||$stripe|1
bibw-stripe2|bibw|2|rail0,rail1|||$stripe|1"

printf 'variant\tcase\tround\trc\tseconds\tnote\tjsonl\n' >"$out/index.tsv"
echo "multirail: cluster $MG_CLUSTER, variants:$variants, $rounds rounds, $size, $targs; output $out"
t_start=$SECONDS
for ((r = 1; r <= rounds; r++)); do
    order=$cases
    [ $((r % 2)) = 0 ] && order=$(echo "$cases" | tac)
    for v in $variants; do
        b=${build_of[$v]}
        rails_ok=0; has_rails "$b" && rails_ok=1
        mkdir -p "$out/runs/$v"
        while IFS='|' read -r c prog ppn devices envs wrap extra needs; do
            base=$out/runs/$v/$c.r$r
            if [ "$needs" = 1 ] && [ $rails_ok = 0 ]; then
                printf '%s\t%s\t%d\tskip\t0\tnot built yet (no --rails)\t-\n' "$v" "$c" "$r" >>"$out/index.tsv"
                continue
            fi
            cmd=("$b/pt2pt/mpigauge_$prog")
            # shellcheck disable=SC2206
            [ "$wrap" = bind ] && cmd=($(wrapper_for "$b") "${cmd[@]}")
            # shellcheck disable=SC2206
            cmd+=($extra -m "$size:$size" $targs -o "$base.jsonl")
            ropt=(--mpi "$v" --np $((2 * ppn)) --ppn "$ppn" --devices "$devices")
            [ -n "$envs" ] && ropt+=(--env "$envs")
            rm -f "$base.jsonl"
            "$H" line "${ropt[@]}" -- "${cmd[@]}" >"$base.line"
            "$H" counters --env >"$base.before" </dev/null
            t0=$SECONDS
            "$H" run "${ropt[@]}" --timeout $limit --done "$base.jsonl" --grace $grace -- "${cmd[@]}" \
                </dev/null >"$base.log" 2>&1
            rc=$?
            dt=$((SECONDS - t0))
            "$H" counters --since "$base.before" --env >"$base.rails" </dev/null
            rm -f "$base.before"
            note=""
            if [ $rc = 124 ] && [ "$v" = mpich ] && [ -s "$base.jsonl" ] &&
               grep -q 'after its output .* was complete' "$base.log"; then
                note="finalize hang after complete output (openucx/ucx#8738)"; rc=0
            fi
            printf '%s\t%s\t%d\t%s\t%d\t%s\t%s\n' "$v" "$c" "$r" "$rc" "$dt" "$note" "${base#"$out"/}.jsonl" >>"$out/index.tsv"
            med=$(sed -n 's/.*"type":"result".*"median":\([0-9.e+-]*\).*/\1/p' "$base.jsonl" 2>/dev/null | head -n 1)
            printf '  round %d %-9s %-14s rc=%s %3ds %10s MB/s  %s %s\n' "$r" "$v" "$c" "$rc" "$dt" "${med:-?}" \
                "$(grep -E '^rail[0-9]_share=' "$base.rails" | tr '\n' ' ')" "$note"
        done <<<"$order"
    done
done
echo "load_at_end=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/cluster.txt"
echo "seconds=$((SECONDS - t_start))" >>"$out/cluster.txt"

python3 - "$out" <<'PY'
import csv, json, os, statistics, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "index.tsv")), delimiter="\t"))
order = ["bw-1rail", "bibw-1rail", "mbw_mr-1pair", "bw-library", "bibw-library",
         "mbw_mr-bind2", "bibw-bind", "bw-stripe2", "bibw-stripe2"]
base_of = {"bw-library": "bw-1rail", "bibw-library": "bibw-1rail", "mbw_mr-bind2": "mbw_mr-1pair",
           "bibw-bind": "bibw-1rail", "bw-stripe2": "bw-1rail", "bibw-stripe2": "bibw-1rail"}
variants = []
for r in rows:
    if r["variant"] not in variants:
        variants.append(r["variant"])
res = {}
for r in rows:
    key = (r["variant"], r["case"])
    e = res.setdefault(key, {"mbs": [], "share": {}, "runs": 0, "failed": 0, "skipped": 0, "notes": 0})
    if r["rc"] == "skip":
        e["skipped"] += 1
        continue
    e["runs"] += 1
    path = os.path.join(out, r["jsonl"])
    med = None
    if r["rc"] == "0" and os.path.exists(path):
        for line in open(path):
            rec = json.loads(line)
            if rec.get("type") == "result":
                med = rec.get("median", rec.get("stats", {}).get("median"))
    if med is None:
        e["failed"] += 1
        continue
    if r["note"]:
        e["notes"] += 1
    e["mbs"].append(med)
    for line in open(path[:-len(".jsonl")] + ".rails"):
        k, _, val = line.strip().partition("=")
        if k.endswith("_share"):
            e["share"].setdefault(k[:-len("_share")], []).append(float(val))
summary = {"rows": [], "checks": []}
lines = []
hdr = f"{'variant':9} {'case':14} {'MB/s':>8} {'min':>8} {'max':>8} {'x base':>7} {'rail0':>6} {'rail1':>6}  runs"
lines += [hdr, "-" * len(hdr)]
def fig(v, c):
    e = res.get((v, c))
    return statistics.median(e["mbs"]) if e and e["mbs"] else None
def share(v, c, d):
    e = res.get((v, c))
    s = e["share"].get(d) if e else None
    return statistics.median(s) if s else None
for v in variants:
    for c in order:
        e = res.get((v, c))
        if not e:
            continue
        m = fig(v, c)
        b = fig(v, base_of[c]) if c in base_of else None
        ratio = m / b if m and b else None
        s0, s1 = share(v, c, "rail0"), share(v, c, "rail1")
        row = {"variant": v, "case": c, "MB/s": m, "min": min(e["mbs"]) if e["mbs"] else None,
               "max": max(e["mbs"]) if e["mbs"] else None, "ratio": ratio, "base": base_of.get(c),
               "rail0_share": s0, "rail1_share": s1, "runs": e["runs"], "failed": e["failed"],
               "skipped": e["skipped"], "finalize_hangs": e["notes"]}
        summary["rows"].append(row)
        f = lambda x, w, p=1: f"{x:{w}.{p}f}" if x is not None else f"{'-':>{w}}"
        pc = lambda x: f"{100 * x:5.0f}%" if x is not None else f"{'-':>6}"
        runs = "skipped (not built yet)" if e["skipped"] and not e["runs"] else \
            f"{e['runs'] - e['failed']}/{e['runs']}" + (f" ({e['notes']} finalize hang)" if e["notes"] else "")
        lines.append(f"{v:9} {c:14} {f(m, 8)} {f(row['min'], 8)} {f(row['max'], 8)} "
                     f"{f(ratio, 7, 2) if c in base_of else f'{1:7.2f}' if m else f(None, 7)} {pc(s0)} {pc(s1)}  {runs}")
lines.append("")
def check(v, name, ok, text):
    verdict = "SKIP" if ok is None else "PASS" if ok else "FAIL"
    summary["checks"].append({"variant": v, "check": name, "verdict": verdict, "detail": text})
    lines.append(f"{verdict}  {v:9} {name}: {text}")
for v in variants:
    nrun = sum(e["runs"] for (vv, _), e in res.items() if vv == v)
    nbad = sum(e["failed"] for (vv, _), e in res.items() if vv == v)
    nhang = sum(e["notes"] for (vv, _), e in res.items() if vv == v)
    check(v, "every launch completed", nbad == 0,
          f"{nrun - nbad} of {nrun} with a result" + (f" ({nhang} after a finalize hang)" if nhang else "")
          + (f"; failed: see index.tsv and the .log files" if nbad else ""))
    m = fig(v, "bw-1rail"); s0 = share(v, "bw-1rail", "rail0")
    check(v, "one rail bw >= 110 MB/s", None if m is None and not res.get((v, "bw-1rail")) else (m or 0) >= 110,
          f"{m:.1f} MB/s" if m else "no result")
    check(v, "one rail: rail0 carries >= 90%", (s0 or 0) >= 0.9, f"rail0 {100 * (s0 or 0):.0f}%")
    for c in ("bw-library", "bibw-library"):
        m, b = fig(v, c), fig(v, base_of[c])
        s = [share(v, c, d) or 0 for d in ("rail0", "rail1")]
        check(v, f"{c}: both rails carry >= 30%", min(s) >= 0.3,
              f"{m:.1f} MB/s = {m / b:.3f} x one rail; rails {100 * s[0]:.0f}% / {100 * s[1]:.0f}%"
              if m and b else "no result")
    for c, want in (("mbw_mr-bind2", 1.8), ("bw-stripe2", 1.8), ("bibw-stripe2", 1.8)):
        e = res.get((v, c))
        if e and e["skipped"] and not e["runs"]:
            check(v, f"{c} >= {want} x {base_of[c]}", None, "not built yet (mpigauge_bw lists no --rails)")
            continue
        m, b = fig(v, c), fig(v, base_of[c])
        s = [share(v, c, d) or 0 for d in ("rail0", "rail1")]
        good = bool(m and b and m / b >= want and all(0.4 <= x <= 0.6 for x in s))
        check(v, f"{c} >= {want} x {base_of[c]}, rails 40..60% each", good,
              f"{m:.1f} / {b:.1f} MB/s = {m / b:.3f}; rails {100 * s[0]:.0f}% / {100 * s[1]:.0f}%"
              if m and b else "no result")
# Launch-to-launch spread: a case whose slowest launch is far below its
# median has a slow mode in some launches (a median over rounds hides it).
for row in summary["rows"]:
    if row["MB/s"] and row["min"] is not None and row["min"] < 0.75 * row["MB/s"]:
        lines.append(f"NOTE  {row['variant']:9} {row['case']}: launches from {row['min']:.1f} to "
                     f"{row['max']:.1f} MB/s (median {row['MB/s']:.1f}): a slow mode in some launches")
nfail = sum(c["verdict"] == "FAIL" for c in summary["checks"])
lines.append("")
lines.append(f"multirail: {sum(c['verdict'] == 'PASS' for c in summary['checks'])} PASS, {nfail} FAIL, "
             f"{sum(c['verdict'] == 'SKIP' for c in summary['checks'])} SKIP")
try:  # the seed-style bar chart: every case, every library, median of the rounds
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    shown = [c for c in order if any(fig(v, c) for v in variants)]
    width = 0.8 / max(1, len(variants))
    figure, ax = plt.subplots(figsize=(10, 4.5))
    for i, v in enumerate(variants):
        ax.bar([k + i * width for k in range(len(shown))], [fig(v, c) or 0 for c in shown], width,
               label=v)
    ax.set_xticks([k + width * (len(variants) - 1) / 2 for k in range(len(shown))])
    ax.set_xticklabels(shown, rotation=25, ha="right")
    ax.axhline(119.5, ls="--", c="gray", lw=0.8)
    ax.set_ylabel("MB/s (10^6 bytes/s), median of rounds")
    ax.set_title("4 MiB over 1 Gbit/s rails (dashed: one rail's ceiling, 119.5 MB/s)")
    ax.legend()
    figure.tight_layout()
    figure.savefig(os.path.join(out, "multirail.png"), dpi=110)
    lines.append(f"plot: {os.path.join(out, 'multirail.png')}")
except ImportError:
    lines.append("plot: skipped (no matplotlib)")
text = "\n".join(lines)
print(text)
open(os.path.join(out, "summary.txt"), "w").write(text + "\n")
json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=1)
sys.exit(1 if nfail else 0)
PY
exit $?
}
