#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The all-pairs screen on an emulated cluster of four nodes on a switch
# (netns-cluster.sh up --nodes 4: every node's uplink its own, 1 Gbit/s):
# nothing slowed -> nothing named (exit 0); one node's uplink at 300 Mbit/s
# -> that node named (exit 3); the path between two nodes at 300 Mbit/s
# (shape-path) -> that link named, no node (exit 3); a time budget shorter
# than the repetitions -> fewer repetitions, said; `mpigauge screen report`
# draws the pair matrix of the slowed node's file. Open MPI builds only (pml
# ob1, tcp BTL): MPICH busy-polls with four ranks on two cores. The 20-trial
# rates: bench/screen_trials.sh (doc/screen.md).
#
# TAP; exit 0 when all pass, 1 on a failure, 77 when it cannot run here.
#   tests/cluster/check_screen.sh BUILD...
set -u
{
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/cluster/switch_check.sh
. "$here/switch_check.sh"
mg_switch_check mgscr tools/mpigauge_screen 4 7 "$@"

# screen NAME WANT_RC [ARGS...]: one screen of the four nodes (small
# windows: about 3 s), JSON Lines to $work/NAME.jsonl; WANT_RC: 3, or 0|4
screen() {
    local name=$1 want=$2 rc
    shift 2
    "$H" run --launcher "$launcher" --np 4 --ppn 1 --timeout 120 \
        --env OMPI_MCA_mpi_yield_when_idle=1 -- "$build/tools/mpigauge_screen" \
        --bw-bytes 256K --window 4 --bw-iters 2 --lat-iters 20 --format json \
        -o "$work/$name.jsonl" "$@" >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    case "|$want|" in *"|$rc|"*) return 0 ;; esac
    echo "exit $rc, not $want" >>"$work/$name.err"
    return 1
}
# verdict NAME PYTHON-ASSERTIONS: the summary and the run record of NAME
verdict() {
    "$PYTHON" - "$work/$1.jsonl" "$2" >"$work/$1.why" 2>&1 <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
run = next(r for r in recs if r["type"] == "screen")
summ = recs[-1]
assert summ["type"] == "screen_summary", summ
pairs = [r for r in recs if r["type"] == "screen_pair"]
assert len(pairs) == 2 * 6, len(pairs)
bw = {(p["host_a"], p["host_b"]): p for p in pairs if p["metric"] == "bw"}
exec(sys.argv[2])
print(", ".join(f"{a}-{b} {p['median']:.0f}" for (a, b), p in sorted(bw.items())) + " MB/s")
PY
}

# the link: rail0, the device Open MPI is steered to (btl_tcp_if_include),
# a veth that says 10 Gbit/s: the 1 Gbit/s shaped links reach about 10% of it
if screen healthy 0 && verdict healthy 'assert not summ["found"] and summ["conclusive"], summ
assert run["reps"] == 12 and run["nunits"] == 4, run
assert all(u["link"] == {"device": "rail0", "gbps": 10} for u in run["units"]), run["units"]
assert all(0.07 < p["link_share"] < 0.13 for p in bw.values()), [p["link_share"] for p in bw.values()]'; then
    ok "nothing slowed: nothing named, exit 0, links rail0 at 10 Gbit/s ($(cat "$work/healthy.why"))"
else
    notok "nothing slowed" "$work/healthy.err" "$work/healthy.why"
fi

"$H" shape nodeC 300mbit >"$work/shape.log" 2>&1
if screen node 3 && verdict node 'assert summ["named"] == ["nodeC"] and summ["links"] == [], summ'; then
    ok "nodeC's uplink at 300 Mbit/s: nodeC named, exit 3 ($(cat "$work/node.why"))"
else
    notok "nodeC slowed" "$work/node.err" "$work/node.why"
fi
"$H" shape nodeC 1gbit >>"$work/shape.log" 2>&1

"$PYTHON" "$top/frontend/mpigauge.py" screen report "$work/node.jsonl" \
    --picture "$work/node.svg" --matrix "$work/node.json" >"$work/report.out" 2>&1
rc=$?
if [ $rc = 3 ] && grep -q "slow node *nodeC" "$work/report.out" && grep -q "<svg" "$work/node.svg" &&
    "$PYTHON" -c 'import json, sys; m = json.load(open(sys.argv[1]))
assert m["hosts"] == ["nodeA", "nodeB", "nodeC", "nodeD"], m
assert m["metrics"]["bw"]["values"][2][0] < 0.6 * m["metrics"]["bw"]["values"][0][1], m' \
        "$work/node.json" >>"$work/report.out" 2>&1; then
    ok "mpigauge screen report: the verdict, the matrix as a picture and in JSON, exit 3"
else
    notok "mpigauge screen report (exit $rc)" "$work/report.out"
fi

"$H" shape-path nodeA nodeD 300mbit >>"$work/shape.log" 2>&1
if screen link 3 && verdict link 'assert summ["named"] == [] and summ["links"] == [["nodeA", "nodeD"]], summ'; then
    ok "the path nodeA - nodeD at 300 Mbit/s: that link named, no node, exit 3 ($(cat "$work/link.why"))"
else
    notok "the path nodeA - nodeD slowed" "$work/link.err" "$work/link.why" "$work/shape.log"
fi
"$H" shape nodeA 1gbit >>"$work/shape.log" 2>&1
"$H" shape nodeD 1gbit >>"$work/shape.log" 2>&1

# a budget of 1.5 s for 1000 repetitions of about 0.1-0.3 s: the warm-up
# and a few fit; enough for a verdict (exit 0) or not (exit 4)
if screen budget "0|4" --reps 1000 --time-budget 1.5 && verdict budget 'assert run["stopped_by_budget"] and 1 <= run["reps"] < 1000, run
assert run["seconds"] <= 1.5 + run["rep_seconds"], run
assert summ["exit_code"] == (0 if summ["conclusive"] else 4), summ'; then
    ok "--time-budget 1.5: $(sed -n 's/.*"reps":\([0-9]*\),.*"seconds":\([0-9.]*\),.*/\1 of 1000 repetitions in \2 s/p' "$work/budget.jsonl" | head -n 1)"
else
    notok "--time-budget 1.5" "$work/budget.err" "$work/budget.why"
fi

cleanup
trap - EXIT
if ip netns list | grep -q "^$MG_CLUSTER-"; then notok "cluster down"; else ok "cluster down"; fi
[ $failed -eq 0 ]
exit
}
