#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# check-cluster: mpigauge's multirail modes on an emulated two-node, two-rail
# cluster (tests/cluster/netns-cluster.sh: network namespaces, veth rails shaped
# to 1 Gbit/s with tbf). Brings its own cluster instance up, runs short 4 MiB
# launches with every build given (Open MPI: pml ob1 + tcp BTL and pml ucx;
# MPICH: ch4:ucx), checks exit codes, the JSON Lines (complete, validated with
# -c, two nodes) and the byte counters of the rails, and always tears the
# cluster down (also on failure or interruption). Never asserts performance
# numbers (bench/multirail.sh does); prints them.
#
# Cases per launch variant: one rail (rail0 carries >= 90% of the rail bytes),
# library mode (both rails handed to the library: each carries >= 30%), bind
# mode (mbw_mr, 2 pairs across the nodes, local rank k on rail k through
# mpigauge-rails bind, or the cluster's railbind where the build has none: each
# rail >= 30%), and with mpigauge's own rail options (skipped while
# mpigauge_bw --help lists no --rails): stripe K=2 with --rail-steer process
# (bw and bibw, 4 processes), --rail-mode library (launched on rail0 only, so
# that the second rail's bytes prove mpigauge's own steering) and --rail-mode
# bind (bibw, 4 processes); each rail >= 30%; --rail-steer hint (bw, stripes
# on two hinted communicators in one process per node: runs and validates, the
# rails' shares are the library's choice, not asserted); fan-in (Open MPI) and
# fan-out (MPICH) with --hubs node, OSU's fan: the two ranks of nodeA the
# hubs of nodeB's two, one rail; with Open MPI, collectives' --multi 2 (two
# bcast groups whose ranks are dealt round the nodes load the rail, two
# groups each on its own node leave it idle). Every case also checks
# that the rails carried at least the bytes the benchmark moved and that the
# management net carried little.
#
# TAP output; exit 0 when all pass, 1 on a failure, 77 when it cannot run here
# (not root, no network namespaces, veth or tbf).
#   tests/cluster/check_cluster.sh BUILD...    (default: MG_CLUSTER_BUILDS, else
#                                               _build/openmpi _build/mpich)
# Environment: MG_CLUSTER (instance name, default mgcheck; mgcheck1.. when taken
# by a running check; an instance whose owner PID is gone is removed first),
# MG_CLUSTER_ID (address block 0..7, default auto: the highest free one),
# MG_CLUSTER_ITERS (timed iterations, default 5), MG_CLUSTER_KEEP=1 (keep the
# work folder: launch lines, logs, JSON Lines, rail counters of every case).
set -u
# The body is one { ... } group: bash parses it whole before running it, so
# editing this file during a run cannot change the running check.
{
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
H=$here/netns-cluster.sh
# shellcheck disable=SC2086
[ $# -gt 0 ] || set -- ${MG_CLUSTER_BUILDS:-$top/_build/openmpi $top/_build/mpich}
iters=${MG_CLUSTER_ITERS:-5}
warmup=1
window=8
size=4194304
bargs="-m 4M:4M -i $iters -x $warmup -W $window -c"
grace=5         # seconds allowed after a complete output file (MPICH finalize hang)
limit=90        # seconds per launch

skip() { echo "1..0 # SKIP $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "check-cluster needs root (network namespaces)"
for c in ip tc nsenter unshare flock timeout python3; do
    command -v $c >/dev/null 2>&1 || skip "$c missing"
done
# namespaces, veth and tbf, tried in a throw-away network namespace
unshare --net sh -c 'ip link add mgt0 type veth peer name mgt1 &&
    tc qdisc add dev mgt0 root tbf rate 1gbit burst 256kb latency 50ms' >/dev/null 2>&1 ||
    skip "no network namespaces, veth or tbf here (unshare --net; ip link add type veth; tc tbf)"

work=$(mktemp -d "${TMPDIR:-/tmp}/mg-cluster.XXXXXX") || exit 99
started=$SECONDS

# A free instance name: ours, or one whose owner (a check-cluster) is gone.
export MG_CLUSTER_OWNER=$$
export MG_CLUSTER_ID=${MG_CLUSTER_ID:-auto}
# shellcheck source=tests/cluster/claim.sh
. "$here/claim.sh"
MG_CLUSTER_BASE=${MG_CLUSTER:-mgcheck}
mg_claim_cluster "$MG_CLUSTER_BASE"
if [ -z "$MG_CLUSTER" ]; then
    echo "1..1"; echo "not ok 1 - no free cluster instance name ${MG_CLUSTER_BASE:-mgcheck}[1-7] (see /run/mgcluster-*)"
    rm -rf "$work"; exit 1
fi
export MG_CLUSTER

cleanup() {
    "$H" down >"$work/down.log" 2>&1 || cat "$work/down.log" >&2
    if [ "${MG_CLUSTER_KEEP:-0}" = 1 ]; then echo "# kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
    n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
    shift
    for f in "$@"; do [ -s "$f" ] && sed 's/^/#   /' "$f" | tail -n 20; done
}

# Cases: variant|label|program|ppn|devices|env|wrap|extra args|flows|expect|needs --rails
# flows: streams of the message size per iteration (bibw and 2 pairs: 2)
cases_for() { # flavour
    local stripe="--rails 2 --rail-mode stripe --rail-steer process --rail-bind rail0,rail1"
    local library="--rails 2 --rail-mode library --rail-bind rail0,rail1"
    local bind="--rails 2 --rail-mode bind --rail-steer process --rail-bind rail0,rail1"
    local hint="--rails 2 --rail-steer hint --rail-bind rail0,rail1"
    case $1 in
        openmpi) cat <<EOF
ompi|one rail, ob1/tcp|bw|1|rail0||||1|one|0
ompi-ucx|one rail, pml ucx|bw|1|rail0||||1|one|0
ompi|library, 2 rails, ob1/tcp|bw|1|rail0,rail1||||1|both|0
ompi-ucx|library, 2 rails, pml ucx|bw|1|rail0,rail1|UCX_MAX_RNDV_RAILS=2|||1|both|0
ompi|bind, 2 pairs, ob1/tcp|mbw_mr|2|rail0,rail1||bind|--pairing internode|2|both|0
ompi|fan-in, hubs by node (OSU's), ob1/tcp|fan|2|rail0|||--hubs node|2|one|0
ompi|stripe K=2, ob1/tcp|bw|2|rail0,rail1|||$stripe|1|both|1
ompi-ucx|stripe K=2, pml ucx|bibw|2|rail0,rail1|||$stripe|2|both|1
ompi-ucx|--rail-mode library (launched on rail0), pml ucx|bw|1|rail0|||$library|1|both|1
ompi|--rail-mode bind, ob1/tcp|bibw|2|rail0,rail1|||$bind|2|both|1
ompi-ucx|--rail-steer hint (stripes on 2 hinted communicators), pml ucx|bw|1|rail0,rail1|||$hint|1|any|1
EOF
        ;;
        mpich) cat <<EOF
mpich|one rail|bw|1|rail0||||1|one|0
mpich|library, 2 rails|bw|1|rail0,rail1|UCX_MAX_RNDV_RAILS=2|||1|both|0
mpich|bind, 2 pairs|mbw_mr|2|rail0,rail1||bind|--pairing internode|2|both|0
mpich|fan-out, hubs by node (OSU's)|fan|2|rail0|||--hubs node --direction out|2|one|0
mpich|stripe K=2|bw|2|rail0,rail1|||$stripe|1|both|1
mpich|stripe K=2|bibw|2|rail0,rail1|||$stripe|2|both|1
mpich|--rail-mode library (launched on rail0)|bw|1|rail0|||$library|1|both|1
mpich|--rail-mode bind|bibw|2|rail0,rail1|||$bind|2|both|1
mpich|--rail-steer hint (stripes on 2 hinted communicators)|bw|1|rail0,rail1|||$hint|1|any|1
EOF
        ;;
        # MPICH 5 with UCX connects every pair of processes in MPI_Init: a
        # process steered to rail0 cannot reach one steered to rail1 (two
        # subnets, as two planes of a fabric), "Destination is unreachable";
        # the cases that steer processes to one rail each use its OFI netmod
        mpich5) cat <<EOF
mpich|one rail|bw|1|rail0||||1|one|0
mpich|library, 2 rails|bw|1|rail0,rail1|UCX_MAX_RNDV_RAILS=2|||1|both|0
mpich-ofi|bind, 2 pairs, ofi tcp|mbw_mr|2|rail0,rail1||bind|--pairing internode|2|both|0
mpich-ofi|stripe K=2, ofi tcp|bw|2|rail0,rail1|||$stripe|1|both|1
mpich-ofi|stripe K=2, ofi tcp|bibw|2|rail0,rail1|||$stripe|2|both|1
mpich|--rail-mode library (launched on rail0)|bw|1|rail0|||$library|1|both|1
mpich-ofi|--rail-mode bind, ofi tcp|bibw|2|rail0,rail1|||$bind|2|both|1
mpich|--rail-steer hint (stripes on 2 hinted communicators)|bw|1|rail0,rail1|||$hint|1|any|1
EOF
        ;;
        # libfabric's tcp provider takes one device (FI_TCP_IFACE): no case
        # where the library itself spreads over both rails
        impi) cat <<EOF
impi|one rail, ofi tcp|bw|1|rail0||||1|one|0
impi|bind, 2 pairs, ofi tcp|mbw_mr|2|rail0,rail1||bind|--pairing internode|2|both|0
impi|stripe K=2, ofi tcp|bw|2|rail0,rail1|||$stripe|1|both|1
impi|--rail-mode bind, ofi tcp|bibw|2|rail0,rail1|||$bind|2|both|1
EOF
        ;;
    esac
}
# a build's library and launcher, as its configure found them (the Makefile's
# MG_MPI_LIBRARY, "openmpi 5.0.11", and MPIEXEC: the launcher of the
# installation its mpicc belongs to)
build_var() { # build NAME
    sed -n "s/^$2 = //p" "$1/Makefile" 2>/dev/null | head -n 1
}
flavour_of() { # build -> openmpi | mpich | mpich5 | impi | ""
    [ -x "$1/pt2pt/mpigauge_bw" ] || return 0
    case $(build_var "$1" MG_MPI_LIBRARY) in
    openmpi*) echo openmpi ;;
    impi*) echo impi ;;
    "mpich "[5-9]*) echo mpich5 ;;
    *) echo mpich ;;
    esac
}
wrapper_for() { # build -> the rail-binding wrapper command
    local w
    w=$(find "$1" -maxdepth 3 -name mpigauge-rails -type f -perm -u+x 2>/dev/null | head -n 1)
    [ -n "$w" ] || w=$(command -v mpigauge-rails 2>/dev/null || true)
    [ -n "$w" ] || w=/run/mgcluster-$MG_CLUSTER/railbind
    echo "$w bind --rails 2 --devices rail0,rail1 --"
}

# plan
: >"$work/plan"
for b in "$@"; do
    fl=$(flavour_of "$b")
    if [ -z "$fl" ]; then echo "$b|missing" >>"$work/plan"; continue; fi
    has_rails=0
    timeout 30 "$b/pt2pt/mpigauge_bw" --help 2>/dev/null | grep -q -- '--rails' && has_rails=1
    cases_for "$fl" | while IFS= read -r l; do printf '%s|%s|%s|%s\n' "$b" "$fl" "$has_rails" "$l"; done >>"$work/plan"
    launcher=$(build_var "$b" MPIEXEC)
    echo "$b=${launcher%% *}" >>"$work/launchers"
done
# --multi: two cases per Open MPI build (multi_case below)
nmulti=0
for b in "$@"; do [ "$(flavour_of "$b")" = openmpi ] && nmulti=$((nmulti + 2)); done
total=$(($(wc -l <"$work/plan") + 2 + nmulti))
echo "1..$total"
echo "# instance $MG_CLUSTER (MG_CLUSTER_ID=$MG_CLUSTER_ID), builds: $*; benchmark options: $bargs"

if "$H" up >"$work/up.log" 2>&1; then
    ok "cluster $MG_CLUSTER up: $(tail -n 1 "$work/up.log" | sed 's/^netns-cluster up: //')"
else
    notok "cluster $MG_CLUSTER up" "$work/up.log"
    while [ $n -lt $((total - 1)) ]; do notok "not run: the cluster is not up"; done
    # the last test: cleaned
    cleanup; trap - EXIT
    if ip netns list | grep -q "^$MG_CLUSTER-"; then notok "cluster down"; else ok "cluster down (after a failed up)"; fi
    exit 1
fi

check_run() { # jsonl rails-env nranks expect flows -> summary line; exit 1 with reasons
    python3 - "$@" "$size" "$iters" "$warmup" "$window" <<'PY'
import json, sys
path, rails_path, nranks, expect, flows, size, iters, warmup, window = sys.argv[1:]
nranks, flows, size, iters, warmup, window = map(int, (nranks, flows, size, iters, warmup, window))
bad = []
try:
    recs = [json.loads(l) for l in open(path)]
except (OSError, ValueError) as e:
    print(f"FAIL: output {path}: {e}")
    sys.exit(1)
runs = [r for r in recs if r.get("type") == "run"]
res = [r for r in recs if r.get("type") == "result"]
med = None
if len(runs) != 1:
    bad.append(f"{len(runs)} run records")
else:
    run = runs[0]
    rails = run.get("rails") or {}
    rmap = rails.get("map") or []
    # with rail groups (--rail-steer process) the benchmark's ranks are the
    # first process of each group; the map lists every process
    procs = len(rmap) if rails.get("rail_groups") else run.get("nranks")
    if procs != nranks:
        bad.append(f"{procs} processes (want {nranks})")
    if rmap:
        used = sorted({m.get("device") for m in rmap})
        if rails.get("k", 1) > 1 and rails.get("mode") != "library" and \
                rails.get("steer") != "hint" and len(used) < 2:
            bad.append(f"rail map uses only {used}")
    if run.get("nnodes") != 2 or sorted(set(run.get("hosts", []))) != ["nodeA", "nodeB"]:
        bad.append(f"nodes {run.get('nnodes')} hosts {run.get('hosts')}")
    if not run.get("options", {}).get("validate"):
        bad.append("validation (-c) not on")
    for p in run.get("pairs", []):
        if p.get("same_node"):
            bad.append(f"pair {p.get('ranks')} on one node")
if len(res) != 1 or res[0].get("size_bytes") != size:
    bad.append(f"results {[r.get('size_bytes') for r in res]} (want one of {size} B)")
else:
    r = res[0]
    med = r.get("median", r.get("stats", {}).get("median"))
    if r.get("validation", "passed") != "passed":
        bad.append(f"validation {r.get('validation')!r}")
    if not isinstance(med, (int, float)) or not med > 0:
        bad.append(f"median {med!r}")
ctr = {}
for line in open(rails_path):
    k, _, v = line.strip().partition("=")
    ctr[k] = float(v)
names = sorted(k[:-len("_bytes")] for k in ctr if k.startswith("rail") and k.endswith("_bytes"))
total = sum(ctr[f"{d}_bytes"] for d in names)
want = 0.95 * (iters + warmup) * window * size * flows
if total < want:
    bad.append(f"rails carried {total / 1e6:.0f} MB, the benchmark moved >= {want / 0.95 / 1e6:.0f} MB")
share = {d: ctr[f"{d}_share"] for d in names}
if expect == "any":
    pass  # hint steering: the library decides (doc/multirail.md)
elif expect == "one":
    if share.get("rail0", 0) < 0.90:
        bad.append(f"rail0 carried {100 * share.get('rail0', 0):.0f}% (want >= 90%)")
else:
    for d in ("rail0", "rail1"):
        if share.get(d, 0) < 0.30:
            bad.append(f"{d} carried {100 * share.get(d, 0):.0f}% (want >= 30%)")
if ctr.get("mgmt0_bytes", 0) > max(0.05 * total, 4e6):
    bad.append(f"the management net carried {ctr['mgmt0_bytes'] / 1e6:.1f} MB")
shares = " ".join(f"{d} {100 * share[d]:.0f}%" for d in names)
summary = (f"{med:.1f} MB/s" if isinstance(med, (int, float)) else "no result") + \
    f", {total / 1e6:.0f} MB on the rails: {shares}, mgmt0 {ctr.get('mgmt0_bytes', 0) / 1e3:.0f} kB"
print(summary)
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
}

k=0
while IFS='|' read -r b fl has_rails variant label prog ppn devices envs wrap extra flows expect needs; do
    k=$((k + 1))
    name=$(basename "$b")
    if [ "$fl" = missing ]; then
        echo "no $b/pt2pt/mpigauge_bw: build it first" >"$work/err"
        notok "$name: no mpigauge_bw (build $b first)" "$work/err"
        continue
    fi
    desc="$name ($variant, $(build_var "$b" MG_MPI_LIBRARY)) $prog 4 MiB, $label"
    if [ "$needs" = 1 ] && [ "$has_rails" = 0 ]; then
        echo "ok $((n += 1)) - $desc # SKIP not built yet (mpigauge_bw --help lists no --rails)"
        continue
    fi
    np=$((2 * ppn))
    out=$work/case$k.jsonl
    snap=$work/case$k.before
    cmd=("$b/pt2pt/mpigauge_$prog")
    if [ "$wrap" = bind ]; then
        # shellcheck disable=SC2206
        cmd=($(wrapper_for "$b") "${cmd[@]}")
        desc="$desc ($(basename "${cmd[0]}"))"
    fi
    # shellcheck disable=SC2206
    cmd+=($extra $bargs -o "$out")
    envopt=(--launcher "$(sed -n "s|^$b=||p" "$work/launchers" | head -n 1)")
    [ -n "$envs" ] && envopt+=(--env "$envs")
    "$H" counters --env >"$snap" </dev/null
    t0=$SECONDS
    "$H" run --mpi "$variant" --np "$np" --ppn "$ppn" --devices "$devices" ${envopt[@]+"${envopt[@]}"} \
        --timeout "$limit" --done "$out" --grace "$grace" -- "${cmd[@]}" \
        </dev/null >"$work/case$k.out" 2>"$work/case$k.err"
    rc=$?
    dt=$((SECONDS - t0))
    "$H" counters --since "$snap" --env >"$work/case$k.rails" </dev/null
    "$H" line --mpi "$variant" --np "$np" --ppn "$ppn" --devices "$devices" ${envopt[@]+"${envopt[@]}"} \
        -- "${cmd[@]}" >"$work/case$k.line" 2>&1
    note=""
    if [ $rc = 124 ] && [ "${fl#mpich}" != "$fl" ] && [ -s "$out" ] &&
       grep -q 'after its output .* was complete' "$work/case$k.err"; then
        note=" (killed ${grace}s after complete output: known MPICH 4.0.2 + UCX MPI_Finalize hang, openucx/ucx#8738)"
        rc=0
    fi
    if [ $rc != 0 ]; then
        echo "exit status $rc after ${dt}s" >"$work/case$k.why"
        notok "$desc: exit $rc" "$work/case$k.why" "$work/case$k.line" "$work/case$k.err" "$work/case$k.out"
        continue
    fi
    if summary=$(check_run "$out" "$work/case$k.rails" "$np" "$expect" "$flows"); then
        ok "$desc: $(echo "$summary" | head -n 1), ${dt}s$note"
    else
        echo "$summary" >"$work/case$k.why"
        notok "$desc: $(echo "$summary" | head -n 1)" "$work/case$k.why" "$work/case$k.line" "$work/case$k.err"
    fi
done <"$work/plan"

# Collectives' --multi 2: two bcast groups of 2 ranks at once, with the
# ranks dealt round the nodes (span: every group crosses the rail) or in
# order (local: each group on one node, the rail idle). Checks the exit,
# the validation, where the ranks ran, and the rail bytes: span >= 95% of 2
# groups x the timed and warm-up calls x 4 MiB, local < 5% of one call.
multi_case() { # build shape
    local b=$1 shape=$2 out=$work/multi-$2.jsonl snap=$work/multi-$2.before place=()
    [ "$shape" = span ] && place=(--cyclic)
    local desc="$(basename "$b") (ompi) bcast 4 MiB --multi 2, $shape"
    "$H" counters --env >"$snap" </dev/null
    "$H" run --mpi ompi --np 4 --ppn 2 "${place[@]}" --devices rail0 --timeout "$limit" \
        -- "$b/collective/mpigauge_bcast" --multi 2 -m 4M:4M -i "$iters" -x "$warmup" -c \
        --format json -o "$out" </dev/null >"$work/multi-$shape.out" 2>"$work/multi-$shape.err"
    local rc=$?
    "$H" counters --since "$snap" --env >"$work/multi-$shape.rails" </dev/null
    if [ $rc != 0 ]; then
        echo "exit status $rc" >"$work/multi-$shape.why"
        notok "$desc: exit $rc" "$work/multi-$shape.why" "$work/multi-$shape.err"
        return
    fi
    if summary=$(python3 - "$out" "$work/multi-$shape.rails" "$shape" "$size" "$iters" "$warmup" <<'PY'
import json, sys
path, rails, shape, size, iters, warmup = sys.argv[1:]
size, calls = int(size), int(iters) + int(warmup)
recs = [json.loads(l) for l in open(path)]
run = [r for r in recs if r["type"] == "run"][0]
res = [r for r in recs if r["type"] == "result"]
ctr = dict(l.strip().split("=", 1) for l in open(rails) if "=" in l)
rail = float(ctr.get("rail0_bytes", 0))
h = run["hosts"]
bad = []
if len(res) != 1 or res[0].get("validation") != "passed":
    bad.append(f"results {[(r['size_bytes'], r.get('validation')) for r in res]}")
if shape == "span" and not (h[0] != h[1] and h[2] != h[3]):
    bad.append(f"groups not across the nodes: {h}")
if shape == "local" and not (h[0] == h[1] and h[2] == h[3] and h[0] != h[2]):
    bad.append(f"groups not one per node: {h}")
if shape == "span" and rail < 0.95 * 2 * calls * size:
    bad.append(f"the rail carried {rail / 1e6:.1f} MB, two groups moved >= {2 * calls * size / 1e6:.1f} MB")
if shape == "local" and rail > 0.05 * size:
    bad.append(f"the rail carried {rail / 1e3:.0f} kB with both groups on their own nodes")
ex = res[0].get("extra", {}) if res else {}
print(f"{res[0]['median'] / 1e3:.1f} ms per call, groups {ex.get('group_min_us', 0) / 1e3:.1f}-"
      f"{ex.get('group_max_us', 0) / 1e3:.1f} ms, {rail / 1e6:.2f} MB on the rail, hosts {','.join(h)}"
      if res else "no result")
for x in bad:
    print("FAIL: " + x)
sys.exit(1 if bad else 0)
PY
    ); then
        ok "$desc: $summary"
    else
        echo "$summary" >"$work/multi-$shape.why"
        notok "$desc: $(echo "$summary" | head -n 1)" "$work/multi-$shape.why" "$work/multi-$shape.err"
    fi
}
for b in "$@"; do
    [ "$(flavour_of "$b")" = openmpi ] || continue
    multi_case "$b" span
    multi_case "$b" local
done

trap - EXIT
"$H" down >"$work/down.log" 2>&1
if [ $? = 0 ] && ! ip netns list | grep -q "^$MG_CLUSTER-" && [ ! -e "/run/mgcluster-$MG_CLUSTER" ]; then
    ok "cluster $MG_CLUSTER down and removed"
else
    notok "cluster $MG_CLUSTER down and removed" "$work/down.log"
fi
echo "# check-cluster took $((SECONDS - started))s"
if [ "${MG_CLUSTER_KEEP:-0}" = 1 ]; then echo "# kept $work"; else rm -rf "$work"; fi
[ $failed = 0 ] && exit 0
exit 1
}
